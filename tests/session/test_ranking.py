"""The ranking mechanisms of issue 11, each on a small generated site served in memory.

1. no section floor: a relevant chapter's blind entries come before the seed's blind ones;
2. no link lost to capacity: a link offered while the queue held more than the pages left is
   still fetched when it becomes the best;
3. depth is the shortest known click distance;
4. siblings of relevant entries rise, also in a list read after some of them were fetched;
4a. pages named like relevant pages rise (a name family), wherever they are linked from;
5. popularity is topical: a page the relevant pages link up to outranks one that more
   off-topic pages link to, and once a page every page links to proved off-topic, the
   others lose their backlink count's lead (hub trust); a list's title is its entries'
   context;
5a. a citation (a link in a relevant page's running text) passes on half the page's
   relevance: the page's list entries come before what its sentences cite;
5b. a list whose title is all query words comes before links whose anchors name one;
6. the pending-lead bar learns from links that found on-topic pages, not only relevant ones;
7. an hreflang copy, a canonical copy and a near-duplicate cost at most one page each;
7a. a query pair that made copies on two paths (``?print=1``) is learned, and the copies
    it would make are not fetched at all; a paginated ``?page=2`` is never learned;
8. breadth-first, the baseline, fetches in discovery order whatever the query proves;
9. a site map is read like a contents page, not demoted as furniture;
10. a definition list of pages (git(1)'s commands) is read as a list whose entries' contexts
    are their definitions;
11. a contents entry that says what its page holds is not furniture by its URL's words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

import pytest

from pagesift_ui.frontier.siblings import NAMED_LIST_CREDIT
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome, StepRecord
from tests.fakes import DictSource, policy_for

ORIGIN = "http://docs.example"
TOPIC = ("The event loop runs scheduling of asynchronous tasks. Scheduling on the event loop "
         "decides which task runs next; the loop keeps a queue of callbacks for scheduling.")
FILLER = ("This page describes licences, printing conventions and the history of the "
          "project, and who wrote which part of it.")


def page(title: str, paragraphs: Sequence[str] = (), lists: Iterable[Sequence[tuple[str, str]]]
         = (), head: str = "", lang: str = "en") -> str:
    """An HTML page: a title and heading, paragraphs, then each list as its own ``<ul>``
    after a heading of its own (so each is one list block)."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    for number, items in enumerate(lists):
        entries = "".join(f'<li><a href="{href}">{text}</a></li>' for text, href in items)
        body += f"<h2>Part {number + 1}</h2><ul>{entries}</ul>"
    return (f'<html lang="{lang}"><head><title>{title}</title>{head}</head><body><main>'
            f"<h1>{title}</h1>{body}</main></body></html>")


def contents_page(sections: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """A contents page: each section a heading and its list of (text, href) entries."""
    body = "".join(
        f"<h2>{heading}</h2><ul>"
        + "".join(f'<li><a href="{href}">{text}</a></li>' for text, href in entries)
        + "</ul>"
        for heading, entries in sections
    )
    return ("<html><head><title>Contents</title></head><body><main><h1>Contents</h1>"
            f"{body}</main></body></html>")


def crawl(pages: dict[str, str], query: str, limit: int, **settings: object) -> list[StepRecord]:
    config = CrawlConfig.from_mapping({
        "seed_url": ORIGIN + "/", "query": query, "limit": limit, "delay_s": 0.0,
        "stop_on_verdict": False, **settings,
    })
    source = DictSource({ORIGIN + path: html for path, html in pages.items()},
                        policy=policy_for(config))
    session = CrawlSession(config, source)
    try:
        return list(session.iter_steps())
    finally:
        session.close()


def fetched(records: Sequence[StepRecord]) -> list[str]:
    return [urlsplit(r.url).path for r in records]


QUERY = "event loop scheduling"


def test_a_relevant_chapters_blind_entries_come_before_the_seeds_blind_entries() -> None:
    # The seed's table of contents: four one-segment blind entries (the old section floor
    # lifted each to 0.25 × 0.9) and one entry naming the topic.
    seed_toc = [("Legal Notice", "/legal.html"), ("Glossary", "/glossary.html"),
                ("Colophon", "/colophon.html"), ("History", "/history.html"),
                ("Event loop scheduling", "/guide/index.html")]
    chapter = [("Runners", "/guide/runners.html"), ("Futures", "/guide/futures.html"),
               ("Queues", "/guide/queues.html")]
    pages = {
        "/": page("Handbook", ["Welcome to the handbook."], [seed_toc]),
        "/guide/index.html": page("Event loop scheduling", [TOPIC, TOPIC], [chapter]),
        **{href: page(text, [TOPIC, text]) for text, href in chapter},
        **{href: page(text, [FILLER, text]) for text, href in seed_toc[:4]},
    }
    order = fetched(crawl(pages, QUERY, limit=9))
    assert order[:2] == ["/", "/guide/index.html"]
    assert set(order[2:5]) == {href for _, href in chapter}
    assert set(order[5:]) == {href for _, href in seed_toc[:4]}


def test_siblings_of_a_relevant_entry_rise_above_an_unproven_list() -> None:
    # Two blind lists of the seed, the unrelated one first in the page; one chapter entry is
    # also linked by name, so it is fetched first and proves relevant.
    misc = [(f"Appendix {n}", f"/misc/{n.lower()}.html") for n in ("Alpha", "Beta", "Gamma")]
    chapters = [(f"Chapter {n}", f"/ch/{n}.html") for n in ("one", "two", "three", "four")]
    pages = {
        "/": page("Handbook", ["Read about event loop scheduling in chapter one."],
                  [misc, chapters, [("Event loop scheduling", "/ch/one.html")]]),
        **{href: page(text, [TOPIC, text]) for text, href in chapters},
        **{href: page(text, [FILLER, text]) for text, href in misc},
    }
    records = crawl(pages, QUERY, limit=20)  # a dispersion cap of 5 pages per cluster
    order = fetched(records)
    assert order[:2] == ["/", "/ch/one.html"]
    assert set(order[2:5]) == {"/ch/two.html", "/ch/three.html", "/ch/four.html"}
    # the rank of a sibling names its credit: one fetched relevant sibling, shrunk by one (the
    # first sibling taken; the later ones repeat its text, which proves nothing)
    credited = next(r for r in records if r.url.endswith(order[2]))
    assert sibling_credit(credited) == pytest.approx(records[1].relevance / 2)


def test_the_page_relevant_pages_link_up_to_comes_before_one_more_off_topic_pages_name() -> None:
    # The seed names four pages by the query's words: two about it (the first the more
    # relevant) and two that only mention it. Both relevant pages link up to their part;
    # the more relevant one and both off-topic ones link to the colophon. Both targets are
    # blind with the same best parent, so the backlinks decide: three against two by count,
    # but the part's two carry more relevance than the colophon's three.
    up, colophon = ("Part one", "/part.html"), ("Colophon", "/colophon.html")
    pages = {
        "/": page("Handbook", ["Welcome to the handbook."], [[
            ("Event loop scheduling", "/a.html"), ("Scheduling on the event loop", "/b.html"),
            ("Event loop licences", "/c.html"), ("Scheduling loop trivia", "/d.html")]]),
        "/a.html": page("Event loop scheduling", [TOPIC, TOPIC], [[up], [colophon]]),
        "/b.html": page("Runners", [TOPIC], [[up]]),
        "/c.html": page("Licences", [FILLER], [[colophon]]),
        "/d.html": page("History", [FILLER], [[colophon]]),
        "/part.html": page("Part one", [TOPIC]),
        "/colophon.html": page("Colophon", [FILLER]),
    }
    records = crawl(pages, QUERY, limit=7)
    order = fetched(records)
    assert set(order[1:5]) == {"/a.html", "/b.html", "/c.html", "/d.html"}
    assert order[5:] == ["/part.html", "/colophon.html"]
    part, last = records[5], records[6]
    assert part.link is not None and last.link is not None
    parents = [float(next(f["value"] for f in r.link["features"] if f["name"] == "parent"))
               for r in (part, last)]
    assert parents[0] == parents[1]  # the same best parent: popularity made the difference


def test_once_a_navigation_page_proves_off_topic_the_chapter_comes_before_the_rest() -> None:
    # Every page carries the same navigation list of four off-topic pages. The seed names
    # two pages about the query and, blind, the chapter page "Part one" they both link up
    # to. After the two topical pages, every navigation target and the chapter are blind
    # with the same best parent; the navigation has one more backlink (the seed's list and
    # every page's), so with backlink counts trusted it came first, all of it but one
    # (order on main before hub trust: download, bugs, sponsors, then the chapter). The
    # first navigation page proves off-topic, and the chapter comes next.
    nav = [("Download", "/download.html"), ("Reporting bugs", "/bugs.html"),
           ("Copyright", "/copyright.html"), ("Sponsors", "/sponsors.html")]

    def with_nav(title: str, paragraphs: Sequence[str],
                 lists: Sequence[Sequence[tuple[str, str]]] = ()) -> str:
        return page(title, paragraphs, [nav, *lists])

    part = [("Part one", "/part.html")]
    pages = {
        "/": with_nav("Handbook", ["Welcome to the handbook."], [[
            ("Event loop scheduling", "/a.html"), ("Scheduling on the event loop", "/b.html"),
            *part]]),
        "/a.html": with_nav("Event loop scheduling", [TOPIC, TOPIC], [part]),
        "/b.html": with_nav("Runners", [TOPIC], [part]),
        "/part.html": with_nav("Part one", [TOPIC]),
        **{href: with_nav(text, [FILLER]) for text, href in nav},
    }
    records = crawl(pages, QUERY, limit=6)
    order = fetched(records)
    assert order[:3] == ["/", "/a.html", "/b.html"]
    assert order[3] in {href for _, href in nav}
    assert records[3].relevance == 0.0
    assert order[4] == "/part.html"


def test_entries_of_a_list_whose_title_names_the_query_come_first() -> None:
    # A contents page with two blind lists, each under a heading of its own: the first
    # heading says nothing of the query, the second names it. Entries name neither.
    other = [(f"Appendix {n}", f"/misc/{n.lower()}.html") for n in ("Alpha", "Beta", "Gamma")]
    wanted = [(f"Chapter {n}", f"/ch/{n}.html") for n in ("one", "two", "three")]
    pages = {
        "/": contents_page([("Printing and licences", other),
                            ("Event loop scheduling", wanted)]),
        **{href: page(text, [TOPIC, text]) for text, href in wanted},
        **{href: page(text, [FILLER, text]) for text, href in other},
    }
    records = crawl(pages, QUERY, limit=7)
    order = fetched(records)
    assert set(order[1:4]) == {href for _, href in wanted}
    # the heading is the words around the entry: its context feature, not its anchor
    first = records[1].link
    assert first is not None
    terms = {f["name"]: f["value"] for f in first["features"]}
    assert terms["anchor"] == 0.0 and terms["context"] > 0.0


def test_entries_of_a_list_whose_title_is_all_query_words_come_before_anchor_hits() -> None:
    # A long query, so one term is a small share of every link's coverage. The contents page
    # files three blind entries under "Features", all query words; three others name a
    # query word in their anchors under a title that is not ("Engine internals"). The
    # entries' pages repeat none of the query (the site's section is the answer, not its
    # words): on main the anchor hits came first.
    query = "engine features: journaling, integrity, ceilings and connections"
    named = [(n, f"/f/{n.lower()}.html") for n in ("Autoincrement", "Nulls", "Mmap")]
    other = [(f"Engine {n}", f"/e/{n.lower()}.html") for n in ("ports", "history", "tuning")]
    pages = {"/": contents_page([("Engine internals", other), ("Features", named)]),
             **{href: page(text, [FILLER]) for text, href in named + other}}
    records = crawl(pages, query, limit=7)
    order = fetched(records)
    assert set(order[1:4]) == {href for _, href in named}
    first = records[1].link
    assert first is not None and first["named_list"] == "Features"
    terms = {f["name"]: f["value"] for f in first["features"]}
    assert terms["anchor"] == 0.0 and terms["siblings"] >= NAMED_LIST_CREDIT
    # the other list's entries carry no title credit
    assert all("named_list" not in (r.link or {}) for r in records[4:])


def test_a_relevant_pages_list_entry_comes_before_what_its_sentences_cite() -> None:
    # The seed is about the query. One of its sentences cites a syntax page; its list names
    # a chapter. Neither anchor nor the words around either link name the query, and each
    # target has one backlink: on main both took the seed's whole relevance and tied, and
    # the citation, read first, came first.
    pages = {
        "/": page("Event loop scheduling", [
            'Repetition is written with the <a href="/syntax.html">for statement</a> as usual.',
            TOPIC, TOPIC], [[("Chapter one", "/chapter.html")]]),
        "/syntax.html": page("Compound statements", [FILLER]),
        "/chapter.html": page("Chapter one", [TOPIC]),
    }
    records = crawl(pages, QUERY, limit=3)
    assert fetched(records) == ["/", "/chapter.html", "/syntax.html"]
    chapter, cited = records[1].link, records[2].link
    assert chapter is not None and cited is not None
    parent = {r: {f["name"]: f["value"] for f in link["features"]}["parent"]
              for r, link in (("chapter", chapter), ("cited", cited))}
    assert parent["chapter"] == records[0].relevance > 0.0
    assert parent["cited"] == parent["chapter"] * 0.5


def sibling_credit(record: StepRecord) -> float:
    """The sibling credit a record's link was scored with (its explanation's term)."""
    assert record.link is not None
    return float(next(f["value"] for f in record.link["features"] if f["name"] == "siblings"))


def late_list_site(chapter_texts: Sequence[str], lists: list[list[tuple[str, str]]],
                   ) -> dict[str, str]:
    """A seed naming two chapter entries by topic (fetched first) and linking a blind
    contents page whose ``lists`` come later; chapter page ``n`` reads ``chapter_texts[n]``."""
    chapter = [(f"Chapter {n}", f"/ch/{n}.html") for n in ("one", "two", "three")]
    return {
        "/": page("Handbook", ["Welcome to the handbook."],
                  [[("Event loop scheduling", "/ch/one.html"),
                    ("Scheduling on the event loop", "/ch/two.html")],
                   [("Contents", "/contents.html")]]),
        "/contents.html": page("Contents", ["All the parts of the handbook."],
                               [*lists, chapter]),
        **{href: page(text, [body]) for (text, href), body in zip(chapter, chapter_texts,
                                                                   strict=True)},
    }


def test_a_list_read_after_two_of_its_entries_lifts_its_third() -> None:
    # The contents page's lists come later: an unproven one first in the page, then the
    # chapter list holding the two fetched entries and a third, blind one.
    misc = [(f"Appendix {n}", f"/misc/{n.lower()}.html") for n in ("Alpha", "Beta", "Gamma")]
    # each chapter adds evidence of its own: a page that repeats another proves nothing
    pages = {
        **late_list_site([f"Chapter {n}: {TOPIC}" for n in ("one", "two", "three")], [misc]),
        **{href: page(text, [FILLER, text]) for text, href in misc},
    }
    records = crawl(pages, QUERY, limit=20)
    order = fetched(records)
    assert set(order[1:3]) == {"/ch/one.html", "/ch/two.html"}
    assert order[3] == "/contents.html"
    assert order[4] == "/ch/three.html"
    # its credit is the two entries fetched before their list was read, shrunk by one
    proven = [r.relevance for r in records[1:3]]
    assert sibling_credit(records[4]) == pytest.approx(sum(proven) / 3)


def test_an_entry_that_repeats_what_was_read_proves_nothing_for_its_list() -> None:
    # the same two entries and contents page, but the second entry repeats the first's text
    # (a journal's issues repeating the query's words): only the first counts for the list
    records = crawl(late_list_site([TOPIC] * 3, []), QUERY, limit=10)
    assert [r.fresh for r in records[1:3]] == [True, False]
    third = next(r for r in records if r.url.endswith("/ch/three.html"))
    assert sibling_credit(third) == pytest.approx(records[1].relevance / 3)


def family_credit(record: StepRecord) -> float:
    """The family credit a record's link was scored with (its explanation's term)."""
    assert record.link is not None
    return float(next(f["value"] for f in record.link["features"] if f["name"] == "family"))


def test_a_page_named_like_a_relevant_page_comes_before_other_blind_links() -> None:
    # Each link in a list of its own (no sibling credit), all from the seed (the same parent
    # and popularity): the blind ones tie, and popped in discovery order the appendices came
    # before /guide-tasks.html. Once /guide.html proved relevant, its family lifts the page
    # named after it (issue 11: the asyncio chapter's last entries, asyncio-*.html).
    appendices = [(f"Appendix {n}", f"/misc-{n.lower()}.html") for n in ("A", "B", "C")]
    pages = {
        "/": page("Handbook", ["Welcome to the handbook."],
                  [[("Event loop scheduling", "/guide.html")], *([entry] for entry in appendices),
                   [("Tasks", "/guide-tasks.html")]]),
        "/guide.html": page("Event loop scheduling", [TOPIC]),
        "/guide-tasks.html": page("Tasks", [TOPIC, "Tasks."]),
        **{href: page(text, [FILLER, text]) for text, href in appendices},
    }
    records = crawl(pages, QUERY, limit=6)
    assert fetched(records)[:3] == ["/", "/guide.html", "/guide-tasks.html"]
    assert records[1].relevance is not None and records[1].relevance > 0.0
    assert records[2].blind and family_credit(records[2]) == pytest.approx(
        records[1].relevance / 2)
    # the appendices' family has no fetched member before the first of them is fetched
    assert family_credit(records[3]) == 0.0


def off_topic_family_site() -> dict[str, str]:
    """A seed whose first entry, /misc-a.html, names the topic in its anchor and reads off
    topic; then the blind /guide.html and /misc-a.html's namesake /misc-b.html, each entry
    in a list of its own (no sibling credit)."""
    return {
        "/": page("Handbook", ["Welcome to the handbook."],
                  [[("Event loop scheduling appendix", "/misc-a.html")],
                   [("Guide", "/guide.html")], [("Appendix B", "/misc-b.html")]]),
        "/misc-a.html": page("Appendix A", [FILLER]),
        "/guide.html": page("Guide", [FILLER]),
        "/misc-b.html": page("Appendix B", [FILLER]),
    }


def test_a_family_whose_fetched_pages_proved_off_topic_gives_its_members_nothing() -> None:
    # /misc-a.html is fetched first and proves off topic: its family's credit is 0 and the
    # blind /misc-b.html stays behind /guide.html, whose family has no member fetched
    # either, in discovery order
    records = crawl(off_topic_family_site(), QUERY, limit=4)
    assert fetched(records) == ["/", "/misc-a.html", "/guide.html", "/misc-b.html"]
    assert records[1].relevance == 0.0 and family_credit(records[3]) == 0.0


def test_a_link_offered_to_a_long_queue_is_fetched_when_it_becomes_the_best() -> None:
    # 300 blind entries first; at the end of the page a second list whose first entry names
    # the topic. With a queue of limit − scheduled = 19 links, /b/2 was turned away for good
    # (issue 11, mechanism 2); now it is kept, and its proven sibling makes it the best.
    many = [(f"Entry {n}", f"/a/{n}.html") for n in range(300)]
    pages = {
        "/": page("Handbook", ["Welcome."],
                  [many, [("Event loop scheduling", "/b/1.html"), ("More", "/b/2.html")]]),
        "/b/1.html": page("Event loop scheduling", [TOPIC]),
        "/b/2.html": page("More", [TOPIC]),
        **{href: page(text, [FILLER, text]) for text, href in many},
    }
    records = crawl(pages, QUERY, limit=20)
    assert records[0].links["queued"] == 302 and records[0].links["rejected_count"] == 0
    assert fetched(records)[:3] == ["/", "/b/1.html", "/b/2.html"]


def test_depth_is_the_shortest_click_distance_even_when_a_longer_path_scores_higher() -> None:
    # /hub.html is one click from the seed (a blind entry) and four clicks down a trail of
    # pages naming the topic, whose links to it score higher.
    trail = ["/t1.html", "/t2.html", "/t3.html"]
    pages = {
        "/": page("Handbook", ["Welcome."], [[("Index", "/hub.html"),
                                             ("Event loop scheduling", trail[0])]]),
        trail[0]: page("Event loop scheduling 1", [TOPIC, "One."],
                       [[("Event loop scheduling", trail[1])]]),
        trail[1]: page("Event loop scheduling 2", [TOPIC, "Two."],
                       [[("Event loop scheduling", trail[2])]]),
        trail[2]: page("Event loop scheduling 3", [TOPIC, "Three."],
                       [[("Event loop scheduling index", "/hub.html")]]),
        "/hub.html": page("Event loop scheduling index", [TOPIC],
                          [[("Event loop scheduling details", "/leaf.html")]]),
        "/leaf.html": page("Event loop scheduling details", [TOPIC]),
    }
    records = {urlsplit(r.url).path: r for r in crawl(pages, QUERY, limit=10)}
    assert records["/hub.html"].depth == 1
    assert records["/leaf.html"].depth == 2
    assert [records[p].depth for p in trail] == [1, 2, 3]


def test_a_shorter_path_to_a_fetched_page_moves_up_the_links_below_it() -> None:
    # /deep.html is fetched at depth 3 first; /late.html, one click from the seed, is fetched
    # next and links /deep.html too, so /deep.html is two clicks away, and its queued link
    # /below.html moves from depth 4 to depth 3.
    pages = {
        "/": page("Handbook", ["Welcome."],
                  [[("Event loop scheduling", "/a.html")], [("Scheduling", "/late.html")]]),
        "/a.html": page("Event loop scheduling A", [TOPIC, "A."],
                        [[("Event loop scheduling", "/b.html")]]),
        "/b.html": page("Event loop scheduling B", [TOPIC, "B."],
                        [[("Event loop scheduling deep", "/deep.html")]]),
        "/deep.html": page("Event loop scheduling deep", [TOPIC], [[("Below", "/below.html")]]),
        "/late.html": page("Later", [FILLER], [[("Deep", "/deep.html")]]),
        "/below.html": page("Below", [FILLER]),
    }
    records = {urlsplit(r.url).path: r for r in crawl(pages, QUERY, limit=10)}
    assert records["/deep.html"].depth == 3  # the depth it was fetched at
    assert records["/late.html"].step > records["/deep.html"].step
    assert records["/below.html"].step > records["/late.html"].step
    assert records["/below.html"].depth == 3


def test_an_hreflang_copy_is_not_fetched_as_a_second_page() -> None:
    alternates = ('<link rel="alternate" hreflang="de" href="/de/guide.html">'
                  '<link rel="alternate" hreflang="fr" href="/fr/guide.html">')
    pages = {
        "/": page("Handbook", ["Welcome."],
                  [[("Event loop scheduling", "/en/guide.html"), ("Deutsch", "/de/guide.html"),
                    ("Français", "/fr/guide.html"), ("Colophon", "/colophon.html")]]),
        "/en/guide.html": page("Event loop scheduling", [TOPIC], head=alternates),
        "/de/guide.html": page("Ereignisschleife", ["Die Ereignisschleife plant Aufgaben."],
                               lang="de"),
        "/fr/guide.html": page("Boucle", ["La boucle planifie les tâches."], lang="fr"),
        "/colophon.html": page("Colophon", [FILLER]),
    }
    records = crawl(pages, QUERY, limit=10)
    order = fetched(records)
    assert "/de/guide.html" not in order and "/fr/guide.html" not in order
    assert order == ["/", "/en/guide.html", "/colophon.html"]
    copies = records[1].links["skipped_by_reason"]
    assert copies == {"another language's copy of a fetched page": 2}


def test_a_canonical_copy_and_a_near_duplicate_count_once() -> None:
    notes = " ".join(f"Release {n} fixes the event loop scheduling of timer number {n} and "
                     f"improves callback order for task group {n}." for n in range(40))
    pages = {
        "/": page("Handbook", ["Welcome."],
                  [[("Event loop scheduling notes", "/notes/1.html"),
                    ("Event loop scheduling notes again", "/notes/2.html"),
                    ("Printable event loop scheduling", "/print.html"),
                    ("Guide", "/guide.html")]]),
        "/notes/1.html": page("Release notes 1", [notes]),
        # the same notes with one sentence changed: a near-duplicate
        "/notes/2.html": page("Release notes 2", [notes.replace("Release 7 ", "Version 7 ")]),
        "/print.html": page("Guide", [TOPIC],
                            head='<link rel="canonical" href="http://docs.example/guide.html">'),
        "/guide.html": page("Guide", [TOPIC]),
    }
    records = crawl(pages, QUERY, limit=10)
    by_path = {urlsplit(r.url).path: r for r in records}
    assert by_path["/notes/2.html"].outcome is StepOutcome.DUPLICATE
    assert by_path["/notes/2.html"].duplicate_of.endswith("/notes/1.html")
    # the printable page stands for the guide, which is then not fetched again
    assert "/guide.html" not in by_path
    assert by_path["/print.html"].outcome is StepOutcome.FETCHED
    assert records[-1].pages_scheduled == 3  # seed, notes 1, print: the duplicate is refunded


#: Words that tell the pages apart (digits would not: a page "identical but for numbers" is a
#: duplicate, docs/DESIGN.md §10).
_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _printable(title: str, paragraphs: Sequence[str], path: str,
               lists: Iterable[Sequence[tuple[str, str]]] = ()) -> dict[str, str]:
    """A page that links its printer-friendly copy, and the copy (canonical: the page)."""
    canonical = f'<link rel="canonical" href="{ORIGIN}{path}">'
    return {
        path: page(title, paragraphs, [*lists, [("Print this page", f"{path}?print=1")]]),
        f"{path}?print=1": page(title, paragraphs, head=canonical),
    }


def test_copies_by_a_learned_query_pair_are_not_fetched_after_two() -> None:
    entries = [(f"Event loop scheduling {n}", f"/guide/{n}.html") for n in range(6)]
    pages = _printable("Handbook", ["Welcome."], "/", [entries])
    for n, word in enumerate(_WORDS):
        pages |= _printable(f"Event loop scheduling {n}", [TOPIC, f"The {word} part."],
                            f"/guide/{n}.html")
    records = crawl(pages, QUERY, limit=40)
    order = [urlsplit(r.url).path + ("?" + urlsplit(r.url).query if urlsplit(r.url).query
                                      else "") for r in records]
    copies = [path for path in order if path.endswith("?print=1")]
    assert len(copies) == 2  # the two that taught the pair (COPY_PATHS)
    assert all(f"/guide/{n}.html" in order for n in range(6))
    skipped = Counter()
    for record in records:
        skipped.update(record.links["skipped_by_reason"])
    assert skipped["a copy of a fetched page by a learned parameter: print=1"] == 5
    # off, every copy is fetched once; and a recording made before the setting replays so
    off = crawl(pages, QUERY, limit=40, learn_copy_parameters=False)
    assert sum(r.url.endswith("?print=1") for r in off) == 7
    recorded = {k: v for k, v in CrawlConfig(seed_url=ORIGIN + "/", query=QUERY).to_dict()
                .items() if k != "learn_copy_parameters"}
    assert CrawlConfig.from_recorded(recorded).learn_copy_parameters is False


def test_a_paginated_list_is_never_learned_as_copies() -> None:
    pages = {"/": page("Handbook", ["Welcome."], [[
        (f"Event loop scheduling notes {n}", f"/notes/{n}.html") for n in range(3)]])}
    for n, word in enumerate(_WORDS[:3]):
        pages[f"/notes/{n}.html"] = page(f"Event loop scheduling notes {n}", [
            TOPIC, f"The {word} notes."], [[("Next page", f"/notes/{n}.html?page=2")]])
        # page 2 of each: a page of its own (no canonical link; other text)
        pages[f"/notes/{n}.html?page=2"] = page(f"Notes {n}, page 2", [
            f"Scheduling callbacks on the event loop, the rest of the {word} notes."])
    records = crawl(pages, QUERY, limit=20)
    got = {r.url for r in records}
    assert all(f"{ORIGIN}/notes/{n}.html?page=2" in got for n in range(3))


def test_a_link_that_found_an_on_topic_page_below_the_evidence_bar_sets_the_lead_bar() -> None:
    # mechanism 6: the seed links to a weakly on-topic page (relevance between MIN_RELEVANCE
    # and EVIDENCE_RELEVANCE: it counts for no evidence) and to filler; the lead bar learns
    # from the link model's own successes, so it exists although no page was relevant enough
    # for evidence (docs/DESIGN.md §11.10)
    weak = ("Scheduling is mentioned here once, among licences, printing conventions and the "
            "history of the project, and who wrote which part of it.")
    pages = {
        "/": page("Docs home", [FILLER], [[("Scheduling notes", "/notes"),
                                            ("Licence", "/licence"), ("History", "/history")]]),
        "/notes": page("Notes", [weak, FILLER, FILLER]),
        "/licence": page("Licence", [FILLER]),
        "/history": page("History", [FILLER]),
    }
    # the on-topic bar is the rule before one bar for every verdict (lead_bar_new_evidence)
    records = crawl(pages, QUERY, limit=4, lead_bar_new_evidence=False)
    notes = next(r for r in records if r.url.endswith("/notes"))
    assert notes.relevance is not None and 0.05 <= notes.relevance < 0.15
    # from /notes on, one link (to it) has found an on-topic page and every check that has a
    # queued link to judge compares it with that link's score
    judged = [r for r in records
              if r.step >= notes.step and r.lead_why.startswith("the next 5 links")]
    assert len(judged) >= 2
    assert all("the lowest score of the 1 links that led to on-topic pages" in r.lead_why
               for r in judged)
    # by default a lead must be as strong as a link that brought new evidence, and a page
    # below the evidence bar brings none: no link is a proven lead yet
    by_default = crawl(pages, QUERY, limit=4)
    assert all(not r.lead_pending for r in by_default if r.lead_pending is not None)
    assert any(r.lead_why.startswith("no link has led to a page with new evidence yet")
               for r in by_default if r.step >= notes.step)


@pytest.mark.parametrize("forgive", [True, False])
def test_lead_forgiveness_can_be_switched_off_to_show_the_seed_rules_alone(forgive: bool) -> None:
    # the field guide demo's first verdict (coverage_reached at step 22) comes while the next
    # links to fetch score at least the weakest link that brought new evidence: forgiven by
    # default, and standing with forgive_leads off, its record saying both why and that it
    # was off
    from pagesift_ui.demo import build_site
    from pagesift_ui.session import VerdictFate
    from tests.fakes import demo_seed, demo_source

    site = build_site("fieldguide", 0)
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       "forgive_leads": forgive})
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
    first = session.verdicts[0]
    record = session.steps[first.step - 1]
    assert "at least" in record.lead_why
    if forgive:
        assert first.fate is VerdictFate.AUTO_FORGIVEN and record.lead_pending
        assert session.stop_step is not None and session.stop_step > first.step
    else:
        assert first.fate is VerdictFate.STOPPED and record.lead_pending is False
        assert record.lead_why.endswith("lead forgiveness is off, so a verdict stands")
        assert session.stop_step == first.step


def test_forgive_leads_must_be_a_bool() -> None:
    from pagesift_ui.errors import ConfigError

    with pytest.raises(ConfigError) as caught:
        CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": QUERY,
                                  "forgive_leads": "no"})
    assert caught.value.field == "forgive_leads"


def test_breadth_first_fetches_in_discovery_order_even_after_a_cluster_proves_on_topic() -> None:
    # DESIGN §9: breadth-first gives every link the same score, so discovery order decides.
    # The dispersion rule's "proven cluster first" must not guide it: the baseline would
    # then use the cluster harvest, which is focused-crawl knowledge (DECISIONS, "the
    # breadth-first baseline pops in discovery order").
    entries = [(f"{part} {n}", f"/{part}/{n}.html") for n in range(1, 5) for part in "ab"]
    pages = {"/": contents_page([("Everything", entries)])}
    for n in range(1, 5):
        pages[f"/a/{n}.html"] = page(f"Licences {n}", [FILLER])
        pages[f"/b/{n}.html"] = page(f"Loop {n}", [TOPIC])
    in_discovery_order = ["/"] + [href for _, href in entries]
    assert fetched(crawl(pages, QUERY, 9, strategy="bfs")) == in_discovery_order
    # and so the query changes nothing breadth-first, as a snapshot crawl promises
    assert fetched(crawl(pages, "licences printing history", 9, strategy="bfs")) == (
        in_discovery_order)


def test_a_site_map_is_read_before_furniture_and_its_named_section_before_the_rest() -> None:
    # the seed names nothing; its blind links are the site map and two furniture pages. The
    # site map lists the site under section titles, one all query words (a named list)
    seed = page("Welcome", [FILLER], [[("Privacy", "/privacy.html"),
                                       ("Sitemap", "/sitemap.html"),
                                       ("Accessibility", "/accessibility.html")]])
    sitemap = contents_page([
        ("People", [("Staff", "/staff.html"), ("Alumni", "/alumni.html")]),
        ("Event loop scheduling", [("Tasks", "/tasks.html"), ("Callbacks", "/callbacks.html")]),
    ])
    pages = {"/": seed, "/sitemap.html": sitemap, "/privacy.html": page("Privacy", [FILLER]),
             "/accessibility.html": page("Accessibility", [FILLER]),
             "/staff.html": page("Staff", [FILLER]), "/alumni.html": page("Alumni", [FILLER]),
             "/tasks.html": page("Tasks", [TOPIC]), "/callbacks.html": page("Callbacks", [TOPIC])}
    order = fetched(crawl(pages, QUERY, 8))
    assert order[:4] == ["/", "/sitemap.html", "/tasks.html", "/callbacks.html"]


def test_a_definition_list_entry_is_ranked_by_its_definition() -> None:
    # git(1)'s layout: the seed's commands are a <dl>, each term one link naming a command,
    # its <dd> a line that says what it does; only the last one's line names the query. Read
    # as paragraphs, the terms were blind links that tied and popped in discovery order
    commands = [("tool-pack(1)", "/tool-pack.html", "Packs archives of old releases."),
                ("tool-mail(1)", "/tool-mail.html", "Sends patches by electronic mail."),
                ("tool-view(1)", "/tool-view.html", "Shows the history in a window."),
                ("tool-tick(1)", "/tool-tick.html", "Runs the event loop scheduling tasks.")]
    entries = "".join(f'<dt><a href="{href}">{name}</a></dt><dd><p>{what}</p></dd>'
                      for name, href, what in commands)
    seed = ("<html><head><title>tool(1)</title></head><body><main><h1>tool(1)</h1>"
            f"<p>{FILLER}</p><h2>Commands</h2><dl>{entries}</dl></main></body></html>")
    pages = {"/": seed, **{href: page(name, [FILLER]) for name, href, _ in commands[:3]},
             "/tool-tick.html": page("tool-tick(1)", [TOPIC])}
    records = crawl(pages, QUERY, 5)
    assert fetched(records)[:2] == ["/", "/tool-tick.html"]
    assert records[1].link is not None and not records[1].blind


def _described_contents(describe: bool) -> dict[str, str]:
    # SQLite's docs.html: "About SQLite → A high-level overview of what SQLite is …" files
    # about.html as a page of the manual. The other entry names the topic less well
    entries = [("/guide.html", "Guide", "an introduction to scheduling"),
               ("/about.html", "About this manual",
                "how the event loop schedules tasks and callbacks")]
    items = "".join(f'<li><a href="{href}">{anchor}</a>{": " + what if describe else ""}</li>'
                    for href, anchor, what in entries)
    seed = ("<html><head><title>Manual</title></head><body><main><h1>Manual</h1>"
            f"<p>{FILLER}</p><h2>Documents</h2><ul>{items}</ul></main></body></html>")
    return {"/": seed, "/about.html": page("About", [TOPIC]),
            "/guide.html": page("Guide", [FILLER])}


def test_a_described_contents_entry_is_not_furniture_by_its_url_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = crawl(_described_contents(describe=True), QUERY, 3)
    assert fetched(records) == ["/", "/about.html", "/guide.html"]
    assert records[1].link is not None
    assert "furniture" not in [step["rule"] for step in records[1].link["steps"]]
    # an entry that is its anchor alone (a navigation list's) is furniture by its URL word
    bare = crawl(_described_contents(describe=False), QUERY, 3)
    about = next(r for r in bare if r.url.endswith("/about.html"))
    assert about.link is not None
    assert "furniture" in [step["rule"] for step in about.link["steps"]]
    # and were no entry read as described, the furniture factor would put the topic's own
    # page behind the entry that names it less well
    monkeypatch.setattr("pagesift_ui.frontier.linkrules.DESCRIPTION_WORDS", 10**6)
    assert fetched(crawl(_described_contents(describe=True), QUERY, 3)) == [
        "/", "/guide.html", "/about.html"]


def test_a_link_met_again_is_ranked_by_the_best_of_its_offers_as_they_score_now() -> None:
    # 12. (frontier/offers.py): after every step, a queued link offered by several pages
    # scores the best of its offers under the weights and credits of that step, at its
    # queued depth, whichever offer won when they met
    from dataclasses import replace

    from pagesift_ui.demo import build_site
    from tests.fakes import demo_seed, demo_source

    site = build_site("university", 0)
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       "limit": 60, "stop_on_verdict": False})
    spread = 0
    with CrawlSession(config, demo_source(site)) as session:
        for _ in session.iter_steps():
            state = session.state
            for key in state.offers:
                queued = state.queue.queued(key)
                if queued is None:
                    continue
                depth, score = queued[0], queued[1]
                scores = [state.link_score(o if o.depth == depth else replace(o, depth=depth))
                          for o in state.offers.offers(key)]
                assert score == max(scores), key
                spread += max(scores) > min(scores)
    assert spread > 100  # links whose offers score apart, step after step


def test_a_verdict_is_forgiven_while_the_next_five_links_score_the_bar_on_average() -> None:
    # 12. (frontier/leads.py LEAD_LINKS): one strong link at the head of weak ones is one
    # page, not a run of them; the links of a dry subtree are not counted
    from pagesift_ui.frontier.adaptive import StopReason
    from pagesift_ui.session.state import FrontierState
    from pagesift_ui.session.stepping import pending_lead

    config = CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": QUERY})
    state = FrontierState.from_config(config)
    state.leads.found(0.5, 0.4, fresh=True)  # the bar: 0.5
    for n, score in enumerate((0.9, 0.6, 0.5, 0.4, 0.3, 0.2)):
        state.queue.offer(f"k{n}", f"{ORIGIN}/p{n}.html", 1, score, None, 100)
    lead = pending_lead(state, "docs.example", reason=StopReason.SATURATED)
    assert lead.pending and lead.head == pytest.approx(0.54)
    assert lead.why.startswith(f"the next 5 links to fetch score 0.54 on average (the first: "
                               f"{ORIGIN}/p0.html), at least 0.5")
    state.queue.drop("k0")  # the head 0.6 still clears the bar; the next five do not
    lead = pending_lead(state, "docs.example", reason=StopReason.SATURATED)
    assert not lead.pending and lead.head == pytest.approx(0.4)


def test_breadth_first_keeps_no_offers() -> None:
    # 12. breadth-first ranks by discovery alone and never reads a link's offers: it keeps
    # none (they would grow with the crawl, never forgotten)
    from pagesift_ui.demo import build_site
    from tests.fakes import demo_seed, demo_source

    site = build_site("university", 0)
    for strategy, kept in (("bfs", False), ("focused", True)):
        config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                           "limit": 30, "stop_on_verdict": False,
                                           "strategy": strategy})
        with CrawlSession(config, demo_source(site)) as session:
            session.run()
            assert (len(session.state.offers) > 0) is kept, strategy
