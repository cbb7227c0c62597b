"""The ``fieldguide`` scenario: the Marshland Bird Guide, a site where every page answers.

Each of its 48 species pages adds new notes on the query, "nesting habitat", and each habitat
page links them with a line that names both words. Nothing stops the crawl early: every page
is new, relevant content and a link with clues is always queued. Its suggested page limit
(15) ends it with ``limit_reached`` long before the answers run out.
"""

from __future__ import annotations

from ..kit.context import HostContext, paras
from ..kit.html import Chrome, Heading, Link, bullets, para, social_links
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import slugify
from .words import HABITAT_NOTES, HABITATS, NESTING_NOTES, RECORDS

__all__ = ["GUIDE_HOST", "LESSON", "LIMIT", "QUERY", "SETTINGS", "WATCH", "build_fieldguide"]

GUIDE_HOST = "www.birds.localhost"
QUERY = "nesting habitat"
#: The page limit of this lesson: well below the 48 species pages that answer the query.
LIMIT = 15
#: The stop reason this scenario teaches, the settings it needs, and what to look at.
LESSON = "limit_reached"
SETTINGS = {"limit": LIMIT}
DESCRIPTION = (
    "The Marshland Bird Guide: a nature reserve's guide of about 60 pages. Every one of its 48 "
    "species pages has new notes on habitat and nesting, and the habitat pages link them with "
    "lines that name both. Nothing makes the crawl stop early; with this lesson's page limit "
    f"of {LIMIT} it ends with limit_reached while relevant pages are still queued."
)
WATCH = (
    f"Watch the page counter against the limit (this lesson sets it to {LIMIT}) and the "
    "Fresh column: the species pages bring new nesting and habitat notes, so Stale stays far "
    "below the patience and no stop rule fires; the page budget is what ends the crawl "
    "(limit_reached), with most of the 48 answers still queued. Raise the limit and it reads "
    "on until a stop rule ends it."
)


def _species_path(bird: str) -> str:
    return f"/species/{slugify(bird)}"


def _chrome() -> Chrome:
    nav = (*(Link(name, f"/habitats/{slugify(name)}/") for name, _ in HABITATS),
           Link("Visiting", "/visiting"), Link("Sightings", "/sightings/"))
    footer = (("The reserve", (Link("About the reserve", "/about"), Link("Contact", "/contact"))),
              ("Follow us", social_links("marshlandreserve", "Instagram", "Mastodon")))
    return Chrome("Marshland Bird Guide", nav, (Link("Sightings log", "/sightings/"),), footer,
                  ("Marshland Nature Reserve, Fen Lane.",), "© 2025 Marshland Nature Reserve")


def _species(guide: HostContext) -> None:
    for habitat, birds in HABITATS:
        place = habitat.lower()
        hub = Link(habitat, f"/habitats/{slugify(habitat)}/")
        prose = guide.prose(habitat)
        guide.add(hub.target, habitat, [
            # "habitat ... nesting", never "nesting habitat": a collocation only the hubs used
            # would outweigh both words (docs/DESIGN.md §7) and sink every species page
            para(f"Birds that depend on {place}: their habitat and their nesting, season by "
                 "season."),
            bullets(*((Link(bird, _species_path(bird)),
                       f": habitat and nesting in the {place}") for bird in birds)),
        ])
        for bird in birds:
            guide.add(_species_path(bird), f"{bird}: habitat and nesting", [
                Heading("Habitat"), *paras(prose, HABITAT_NOTES, 1, bird=bird, place=place),
                Heading("Nesting"), *paras(prose, NESTING_NOTES, 1, bird=bird, place=place),
                *paras(prose, RECORDS, 1),
            ], crumbs=(hub,), relevant=True)


def build_fieldguide(seed: int) -> DemoSite:
    builder = SiteBuilder(name="fieldguide", query=QUERY, description=DESCRIPTION,
                          seed_host=GUIDE_HOST, lesson=LESSON, watch=WATCH,
                          settings=SETTINGS)
    builder.register_host(GUIDE_HOST, _chrome(), "en", ("/sightings/",))
    guide = HostContext(builder, seed, GUIDE_HOST, "en", _chrome())
    _species(guide)
    for path, title, text in (
        ("/visiting", "Visiting", "The reserve is open from dawn to dusk; the hides are free."),
        ("/about", "About the reserve", "Marshland has been a nature reserve since 1974."),
        ("/contact", "Contact", "Write to the warden at the reserve office on Fen Lane."),
    ):
        guide.add(path, title, [para(text)])
    guide.add("/", "Marshland Bird Guide", [
        para("A guide to the birds of the reserve, with notes on habitat and nesting for each."),
        Heading("Browse by habitat"),
        bullets(*(Link(name, f"/habitats/{slugify(name)}/") for name, _ in HABITATS)),
    ], breadcrumbs=False, full_title="Marshland Bird Guide")
    return builder.build()
