"""Multilingual scenario, shared parts: the host, the three language chromes, the table of
equivalent pages, and a page factory that adds the language switcher and hreflang alternates.

As on a typical TYPO3 university site, the language switcher in the header links to the
equivalent page in the other language when one exists, otherwise to that language's home.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..kit.context import HostContext
from ..kit.html import Block, Chrome, Link, social_links
from ..kit.text import slugify
from .words import PROGRAMMES

__all__ = [
    "HOST", "Hochschule", "de_chrome", "en_chrome", "fr_chrome", "programme_paths", "twins",
]

HOST = "www.hochschule.localhost"


def programme_paths(german: str, english: str) -> tuple[str, str | None]:
    en = f"/en/study/programmes/{slugify(english)}" if english else None
    return f"/studium/studiengaenge/{slugify(german)}", en


# (German path, English path, French path or None)
_EQUIVALENTS: tuple[tuple[str, str, str | None], ...] = (
    ("/", "/en/", "/fr/"),
    ("/studium/", "/en/study/", "/fr/etudes"),
    ("/studium/studiengaenge/", "/en/study/programmes/", None),
    ("/international/", "/en/international/", "/fr/international"),
    ("/international/austausch/", "/en/international/exchange-students/", None),
    ("/international/austausch/wohnen", "/en/international/exchange-students/housing", None),
    ("/international/austausch/ankunft", "/en/international/exchange-students/arrival", None),
    ("/international/austausch/kurse", "/en/international/exchange-students/courses", None),
    ("/wohnen/", "/en/housing/", "/fr/logement"),
    ("/wohnen/wohnheime", "/en/housing/halls-of-residence", None),
    ("/wohnen/miete-und-kaution", "/en/housing/rent-and-deposit", None),
    ("/wohnen/zimmer-beantragen", "/en/housing/apply-for-a-room", None),
    ("/wohnen/privat-wohnen", "/en/housing/private-housing", None),
    ("/wohnen/faq", "/en/housing/faq", None),
    ("/wohnen/kurzaufenthalte", "/en/housing/short-stays", None),
    ("/forschung/", "/en/research/", None),
    ("/hochschule/", "/en/about/", "/fr/a-propos"),
    ("/aktuelles/", "/en/news/", None),
    ("/kontakt", "/en/contact", "/fr/contact"),
    *((de, en, None) for de, en in (programme_paths(g, e) for g, e in PROGRAMMES) if en),
)
_LANGS = ("de", "en", "fr")


def twins(paths: Sequence[str], lang: str) -> tuple[str, ...]:
    """The ``lang`` equivalents of ``paths`` (any language) that exist, in table order."""
    wanted = set(paths)
    column = _LANGS.index(lang)
    return tuple(twin for row in _EQUIVALENTS
                 if wanted.intersection(p for p in row if p) and (twin := row[column]) is not None)
_HOMES = {"de": "/", "en": "/en/", "fr": "/fr/"}
_NAMES = {"de": "Deutsch", "en": "English", "fr": "Français"}


def _social() -> tuple[Link, ...]:
    return social_links("hochschuletalheim", "Instagram", "LinkedIn", "YouTube")


def de_chrome() -> Chrome:
    nav = tuple(Link(text, path) for text, path in (
        ("Studium", "/studium/"), ("International", "/international/"), ("Wohnen", "/wohnen/"),
        ("Forschung", "/forschung/"), ("Hochschule", "/hochschule/"),
        ("Aktuelles", "/aktuelles/"), ("Bibliothek", "/bibliothek/")))
    footer = (
        ("Service", (Link("Kontakt", "/kontakt"), Link("Anfahrt", "/hochschule/anfahrt"),
                     Link("Presse", "/hochschule/presse"), Link("Stellenangebote",
                                                                "/hochschule/karriere"))),
        ("Rechtliches", (Link("Impressum", "/impressum"), Link("Datenschutz", "/datenschutz"),
                         Link("Barrierefreiheit", "/barrierefreiheit"))),
        ("Folgen Sie uns", _social()),
    )
    utility = (Link("Suche", "/suche"), Link("Intranet", "/intern/"))
    address = ("Hochschule Talheim, Hochschulstraße 1, 74000 Talheim",)
    return Chrome("Hochschule Talheim", nav, utility, footer, address,
                  "© 2025 Hochschule Talheim", home_label="Startseite",
                  nav_label="Hauptnavigation", skip_label="Zum Inhalt springen")


def en_chrome() -> Chrome:
    nav = tuple(Link(text, path) for text, path in (
        ("Study", "/en/study/"), ("International", "/en/international/"),
        ("Research", "/en/research/"), ("About", "/en/about/"), ("News", "/en/news/")))
    footer = (
        ("Service", (Link("Contact", "/en/contact"), Link("Legal notice", "/impressum"),
                     Link("Data protection", "/datenschutz"))),
        ("Follow us", _social()),
    )
    return Chrome("Talheim University of Applied Sciences", nav, (Link("Search", "/en/search"),),
                  footer, ("Hochschule Talheim, Hochschulstraße 1, 74000 Talheim, Germany",),
                  "© 2025 Hochschule Talheim", home_target="/en/")


def fr_chrome() -> Chrome:
    nav = tuple(Link(text, path) for text, path in (
        ("Études", "/fr/etudes"), ("International", "/fr/international"),
        ("Logement", "/fr/logement"), ("À propos", "/fr/a-propos")))
    return Chrome("Hochschule Talheim", nav, (), (("Service", (Link("Contact", "/fr/contact"),)),),
                  (), "© 2025 Hochschule Talheim", home_label="Accueil", home_target="/fr/",
                  nav_label="Navigation principale", skip_label="Aller au contenu")


@dataclass(slots=True)
class Hochschule:
    """One host, three languages: routes each page to its language's context and chrome."""

    contexts: dict[str, HostContext]

    def _equivalents(self, lang: str, path: str) -> dict[str, str]:
        for row in _EQUIVALENTS:
            if row[_LANGS.index(lang)] == path:
                return {code: p for code, p in zip(_LANGS, row, strict=True) if p is not None}
        return {lang: path}

    def add(self, lang: str, path: str, title: str, blocks: Sequence[Block],
            **options: Any) -> None:
        ctx = self.contexts[lang]
        same = self._equivalents(lang, path)
        switch = tuple(Link(_NAMES[code], same.get(code, _HOMES[code]))
                       for code in _LANGS if code != lang)
        chrome = replace(ctx.chrome, utility=(*switch, *ctx.chrome.utility))
        alternates = tuple((code, Link("", p)) for code, p in same.items()) if len(same) > 1 \
            else ()
        if alternates:
            alternates = (*alternates, ("x-default", Link("", same["de"])))
        ctx.add(path, title, blocks, chrome=chrome, alternates=alternates, **options)
