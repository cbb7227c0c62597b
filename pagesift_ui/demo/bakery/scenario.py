"""The ``bakery`` scenario: Hillside Bakery, whose blog has one small section on the query.

The query "sourdough starter hydration" is answered by the six posts of the Sourdough corner.
Every other section (cakes, biscuits, pies, the shop pages) says nothing about it, and
"hydration" appears in a single paragraph of the whole site, so the coverage of the query can
never reach 100%. Once the sourdough posts are read, page after page brings nothing new and
no link with a clue is left: the crawl stops with ``saturated``.
"""

from __future__ import annotations

from ..kit.context import HostContext, paras
from ..kit.html import Chrome, Heading, Link, bullets, para, social_links
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import Prose, Topic, slugify
from .words import BISCUITS, CAKES, PIES, SHOP, SOURDOUGH

__all__ = ["BAKERY_HOST", "LESSON", "QUERY", "WATCH", "build_bakery"]

BAKERY_HOST = "www.bakery.localhost"
QUERY = "sourdough starter hydration"
DESCRIPTION = (
    "Hillside Bakery: a small bakery's website of about 50 pages with a blog. The query is "
    "answered by the six posts of its Sourdough corner; the cakes, biscuits and pies sections "
    "and the shop pages say nothing about it. 'Hydration' appears in one paragraph of the "
    "whole site, so coverage can never reach 100%. Expect the crawl to read the sourdough "
    "posts first and then stop with saturated after five pages in a row bring nothing new."
)
#: The stop reason this scenario teaches, and what to look at while it runs.
LESSON = "saturated"
WATCH = (
    "Watch the Stale tile. While the crawl reads the six sourdough posts Stale stays at 0 "
    "(each brings new text, or reads too weak to count either way and leaves Stale where it "
    "is); then it has only clue-less links left (cakes, biscuits, "
    "pies) and each page adds nothing: Stale climbs 1/5 ... 5/5. Coverage stays below 100% "
    "because 'hydration' is in a single paragraph (1 of the 3 pieces of evidence it needs), "
    "so the crawl cannot stop with coverage_reached: five stale pages in a row mean saturated."
)
SOURDOUGH_POSTS = (
    "Making a sourdough starter from scratch",
    "Feeding your sourdough starter",
    "Reviving a neglected starter",
    "Rye sourdough: a starter with character",
    "Baking day with a sourdough starter",
    "Keeping a sourdough starter in the fridge",
)
# The one block on the site that names "hydration".
_HYDRATION = ("Bakers talk about the hydration of a dough: the weight of water for every 100 "
              "grams of flour. Our sourdough loaves are made at 75 per cent.")
_SECTIONS: tuple[tuple[str, Topic, tuple[str, ...]], ...] = (
    ("Cakes", CAKES, ("Lemon drizzle", "Carrot cake", "Victoria sponge", "Chocolate fudge cake",
                      "Coffee and walnut cake", "Christmas fruit cake", "Almond cake",
                      "Ginger loaf")),
    ("Biscuits", BISCUITS, ("Shortbread", "Oat biscuits", "Ginger nuts", "Jam rings",
                            "Florentines", "Cheese straws", "Lavender shortbread")),
    ("Pies and tarts", PIES, ("Pork pies", "Apple pie", "Steak and ale pie", "Custard tarts",
                              "Bakewell tart", "Treacle tart")),
)


def _chrome() -> Chrome:
    nav = (Link("Sourdough corner", "/sourdough/"),
           *(Link(name, f"/{slugify(name)}/") for name, _, _ in _SECTIONS),
           Link("Visit us", "/visit-us"), Link("Wholesale", "/wholesale"))
    utility = (Link("Order online", "/order/"), Link("Contact", "/contact"))
    footer = (
        ("The bakery", (Link("Our story", "/our-story"), Link("Contact", "/contact"),
                        Link("Privacy", "/privacy"))),
        ("Follow us", social_links("hillsidebakery", "Instagram", "Facebook")),
    )
    return Chrome("Hillside Bakery", nav, utility, footer,
                  ("Hillside Bakery, 12 Hillside Road.",), "© 2025 Hillside Bakery")


def _sourdough(bakery: HostContext, prose: Prose) -> None:
    hub = Link("Sourdough corner", "/sourdough/")
    posts = [Link(title, f"/sourdough/{slugify(title)}") for title in SOURDOUGH_POSTS]
    bakery.add(hub.target, "Sourdough corner", [
        para("Everything we know about sourdough and keeping a starter alive, in six posts."),
        bullets(*posts)], relevant=True)
    for index, link in enumerate(posts):
        blocks = paras(prose, SOURDOUGH, 3)
        if index == 3:
            blocks.insert(1, para(_HYDRATION))
        bakery.add(link.target, link.text, blocks, crumbs=(hub,), relevant=True,
                   aside=[other for other in posts if other != link][:3],
                   aside_title="More from the Sourdough corner")


def _sections(bakery: HostContext, prose: Prose) -> None:
    for name, topic, titles in _SECTIONS:
        hub = Link(name, f"/{slugify(name)}/")
        posts = [Link(title, f"{hub.target}{slugify(title)}") for title in titles]
        bakery.add(hub.target, name, [*paras(prose, topic, 1), bullets(*posts)])
        for link in posts:
            bakery.add(link.target, link.text, paras(prose, topic, 2), crumbs=(hub,))


def build_bakery(seed: int) -> DemoSite:
    builder = SiteBuilder(name="bakery", query=QUERY, description=DESCRIPTION,
                          seed_host=BAKERY_HOST, lesson=LESSON, watch=WATCH)
    builder.register_host(BAKERY_HOST, _chrome(), "en", ("/order/",))
    bakery = HostContext(builder, seed, BAKERY_HOST, "en", _chrome())
    _sourdough(bakery, bakery.prose("sourdough"))
    _sections(bakery, bakery.prose("sections"))
    shop = bakery.prose("shop")
    for path, title in (("/visit-us", "Visit us"), ("/wholesale", "Wholesale"),
                        ("/our-story", "Our story"), ("/contact", "Contact")):
        bakery.add(path, title, paras(shop, SHOP, 2))
    bakery.add("/privacy", "Privacy", [para("We keep your order details for six years.")])
    bakery.add("/", "Hillside Bakery", [
        para("Bread, cakes and biscuits baked on Hillside Road every morning since 1987."),
        Heading("From the blog"),
        bullets(Link("Lemon drizzle", "/cakes/lemon-drizzle"),
                Link("Shortbread", "/biscuits/shortbread"),
                Link("Pork pies", "/pies-and-tarts/pork-pies")),
    ], breadcrumbs=False, full_title="Hillside Bakery")
    return builder.build()
