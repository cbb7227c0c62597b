"""Multilingual scenario: the German site at the root of www.hochschule.localhost.

German is the default language: the home page is ``<html lang="de">`` and most pages exist only
in German. The German housing pages are the equivalents of the English answers, written as a
German university writes them, so an English query does not match them.
"""

from __future__ import annotations

from ..kit.context import paras
from ..kit.html import Heading, Link, Table, bullets, para
from ..kit.text import Prose, slugify
from .hochschule import Hochschule, programme_paths
from .words import (
    ABOUT_DE,
    INTERNATIONAL_DE,
    NEWS_DE,
    PROGRAMMES,
    RESEARCH_DE,
    STUDY_DE,
    THEMES_DE,
    WOHNEN_DE,
)

__all__ = ["build_german"]

_HEADLINES = (
    "Neues Labor für {theme} eröffnet", "Hochschule startet Projekt zu {theme}",
    "Forschungsteam erhält Förderung für {theme}", "Preis für Abschlussarbeit über {theme}",
    "Fachtagung zu {theme} in der Aula", "Kooperation mit Unternehmen zu {theme}",
)


def _study(site: Hochschule, prose: Prose) -> None:
    studium = Link("Studium", "/studium/")
    site.add("de", "/studium/", "Studium", [
        *paras(prose, STUDY_DE, 2),
        bullets(Link("Studiengänge", "/studium/studiengaenge/"),
                Link("Bewerbung und Zulassung", "/studium/bewerbung"),
                Link("Semestertermine", "/studium/semestertermine"),
                Link("Prüfungen", "/studium/pruefungen"))])
    for slug, title in (("bewerbung", "Bewerbung und Zulassung"),
                        ("semestertermine", "Semestertermine"), ("pruefungen", "Prüfungen")):
        site.add("de", f"/studium/{slug}", title, paras(prose, STUDY_DE, 3), crumbs=(studium,))
    rows = tuple((Link(german, programme_paths(german, english)[0]),
                  "Bachelor", "Deutsch" if not english else "Deutsch / Englisch")
                 for german, english in PROGRAMMES)
    site.add("de", "/studium/studiengaenge/", "Studiengänge", [
        Table("Alle Studiengänge", ("Studiengang", "Abschluss", "Sprache"), rows)],
        crumbs=(studium,))
    for german, _english in PROGRAMMES:
        site.add("de", programme_paths(german, _english)[0], german, [
            *paras(prose, STUDY_DE, 2),
            Heading("Studienverlauf"),
            para(prose.paragraph(STUDY_DE, 3)),
            para(Link("Jetzt bewerben", "/studium/bewerbung"))],
            crumbs=(studium, Link("Studiengänge", "/studium/studiengaenge/")))


def _international(site: Hochschule, prose: Prose) -> None:
    intl = Link("International", "/international/")
    austausch = Link("Austauschstudierende", "/international/austausch/")
    site.add("de", intl.target, "International", [
        *paras(prose, INTERNATIONAL_DE, 2),
        bullets(austausch, Link("Auslandssemester", "/international/auslandssemester"),
                Link("Partnerhochschulen", "/international/partnerhochschulen"),
                Link("Wohnen", "/wohnen/"))])
    site.add("de", austausch.target, "Austauschstudierende", [
        *paras(prose, INTERNATIONAL_DE, 2),
        bullets(Link("Wohnen für Austauschstudierende", "/international/austausch/wohnen"),
                Link("Ankunft in Talheim", "/international/austausch/ankunft"),
                Link("Kursangebot", "/international/austausch/kurse"))], crumbs=(intl,))
    site.add("de", "/international/austausch/wohnen", "Wohnen für Austauschstudierende", [
        para("Austauschstudierende können ein möbliertes Zimmer in einem unserer Wohnheime "
             "mieten. Das International Office reserviert das Zimmer für dich."),
        *paras(prose, WOHNEN_DE, 2),
        para(Link("Mehr zum Wohnen", "/wohnen/"))], crumbs=(intl, austausch))
    for slug, title in (("ankunft", "Ankunft in Talheim"), ("kurse", "Kursangebot")):
        site.add("de", f"/international/austausch/{slug}", title,
                 paras(prose, INTERNATIONAL_DE, 3), crumbs=(intl, austausch))
    for slug, title in (("auslandssemester", "Auslandssemester"),
                        ("partnerhochschulen", "Partnerhochschulen")):
        site.add("de", f"/international/{slug}", title, paras(prose, INTERNATIONAL_DE, 3),
                 crumbs=(intl,))


def _housing(site: Hochschule, prose: Prose) -> None:
    wohnen = Link("Wohnen", "/wohnen/")
    pages = (("wohnheime", "Wohnheime"), ("miete-und-kaution", "Miete und Kaution"),
             ("zimmer-beantragen", "Zimmer beantragen"), ("privat-wohnen", "Privat wohnen"),
             ("faq", "Häufige Fragen zum Wohnen"), ("kurzaufenthalte", "Kurzaufenthalte"))
    site.add("de", "/wohnen/", "Wohnen", [
        para("Ein Zimmer in Talheim: im Wohnheim, in einer WG oder privat."),
        *paras(prose, WOHNEN_DE, 1),
        bullets(*(Link(title, f"/wohnen/{slug}") for slug, title in pages))])
    for slug, title in pages:
        site.add("de", f"/wohnen/{slug}", title, paras(prose, WOHNEN_DE, 3), crumbs=(wohnen,))


def _research_and_about(site: Hochschule, prose: Prose) -> None:
    institutes = [Link(f"Institut für {theme[0].upper()}{theme[1:]}",
                       f"/forschung/institute/{slugify(theme)}") for theme in THEMES_DE]
    site.add("de", "/forschung/", "Forschung", [
        *paras(prose, RESEARCH_DE, 2, field="vielen Themen"),
        bullets(*institutes),
        para("Alle ", Link("Professorinnen und Professoren", "/personen/"), " im Überblick.")])
    for link, theme in zip(institutes, THEMES_DE, strict=True):
        site.add("de", link.target, link.text, paras(prose, RESEARCH_DE, 3, field=theme),
                 crumbs=(Link("Forschung", "/forschung/"),))
    about = ("Leitbild", "Geschichte", "Präsidium", "Organisation", "Karriere", "Presse",
             "Anfahrt")
    site.add("de", "/hochschule/", "Die Hochschule", [
        *paras(prose, ABOUT_DE, 2),
        bullets(*(Link(title, f"/hochschule/{slugify(title)}") for title in about))])
    for title in about:
        site.add("de", f"/hochschule/{slugify(title)}", title, paras(prose, ABOUT_DE, 2),
                 crumbs=(Link("Hochschule", "/hochschule/"),))
    people = prose.people(40)
    site.add("de", "/personen/", "Personen", [bullets(*(
        Link(f"Prof. Dr. {name}", f"/personen/{slugify(name)}") for name in people))])
    for name in people:
        theme = prose.pick(THEMES_DE)
        site.add("de", f"/personen/{slugify(name)}", f"Prof. Dr. {name}", [
            para(f"Lehrgebiet: {theme}"), *paras(prose, RESEARCH_DE, 1, field=theme)],
            crumbs=(Link("Personen", "/personen/"),))
    library = ("Öffnungszeiten", "Ausleihe", "Datenbanken", "Lernräume")
    site.add("de", "/bibliothek/", "Bibliothek", [bullets(
        *(Link(title, f"/bibliothek/{slugify(title)}") for title in library))])
    for title in library:
        site.add("de", f"/bibliothek/{slugify(title)}", title, paras(prose, ABOUT_DE, 1),
                 crumbs=(Link("Bibliothek", "/bibliothek/"),))
    for path, title in (("/kontakt", "Kontakt"), ("/impressum", "Impressum"),
                        ("/datenschutz", "Datenschutzerklärung"),
                        ("/barrierefreiheit", "Erklärung zur Barrierefreiheit")):
        site.add("de", path, title, [para("Hochschule Talheim, Hochschulstraße 1, 74000 Talheim."),
                                     *paras(prose, ABOUT_DE, 1)])


def _news(site: Hochschule, prose: Prose) -> list[Link]:
    stories = []
    for index in range(150):
        year = 2021 + index // 30
        title = prose.pick(_HEADLINES).format(theme=prose.pick(THEMES_DE))
        stories.append(Link(title, f"/aktuelles/{year}/{slugify(title)}-{index + 1}"))
    for link in stories:
        site.add("de", link.target, link.text, paras(prose, NEWS_DE, 2),
                 crumbs=(Link("Aktuelles", "/aktuelles/"),))
    site.add("de", "/aktuelles/", "Aktuelles", [
        bullets(*stories[::-1][:40]),
        Heading("Archiv"),
        bullets(*(Link(f"Meldungen {year}", f"/aktuelles/{year}/") for year in range(2025, 2020,
                                                                                  -1)))])
    for year in range(2021, 2026):
        site.add("de", f"/aktuelles/{year}/", f"Meldungen {year}",
                 [bullets(*(s for s in stories if f"/{year}/" in s.target))],
                 crumbs=(Link("Aktuelles", "/aktuelles/"),))
    return stories[-4:][::-1]


def build_german(site: Hochschule) -> None:
    prose = site.contexts["de"].prose("de")
    _study(site, prose)
    _international(site, prose)
    _housing(site, prose)
    _research_and_about(site, prose)
    latest = _news(site, prose)
    site.add("de", "/", "Willkommen an der Hochschule Talheim", [
        para("Studieren, forschen und arbeiten in Talheim: praxisnah, international, persönlich."),
        Heading("Schnelleinstieg"),
        bullets(Link("Studiengänge", "/studium/studiengaenge/"),
                Link("Bewerbung", "/studium/bewerbung"), Link("Wohnen", "/wohnen/")),
        Heading("Aktuelles"), bullets(*latest),
    ], breadcrumbs=False, full_title="Hochschule Talheim")
