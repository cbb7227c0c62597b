"""``link_contexts(markdown, wanted)`` gives the links to ``wanted`` URLs the very contexts the
whole page gives them (issue 15: ``enqueue_links`` asks only for the links it may score)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.demo import SCENARIOS, build_site
from pagesift_ui.frontier.linkrules import link_contexts
from pagesift_ui.page.extract import extract

U = "http://x.example"
URLS = (f"{U}/a", f"{U}/b.html", f"{U}/c_(d)", f"{U}/e?f=(g)", f"{U}/a/b", "https://y.example/",
        f"{U}/a)b", f"{U}/(", "mailto:m@x.example", "/relative")

_DESTINATION = st.sampled_from(URLS).flatmap(lambda url: st.sampled_from([
    url, f"<{url}>", f" {url}", f"{url} ", f'{url} "a title"', f"{url}>", f"{url}(x)",
]))
_ANCHOR = st.text(alphabet="ab (])[!\\§ée", max_size=6)
_PIECE = st.one_of(
    st.builds(lambda a, d: f"[{a}]({d})", _ANCHOR, _DESTINATION),
    st.builds(lambda a, d: f"![{a}]({d})", _ANCHOR, _DESTINATION),
    st.sampled_from(["- ", "1. ", "## ", "> ", "  ", "](", "[", "]", "(", ")", "text ", "é",
                     "\n", "\n\n", "\r\n", "\u2028", "\x85", "\x0c", " § "]),
    st.text(max_size=8),
)
_MARKDOWN = st.lists(_PIECE, max_size=40).map("".join)


def _same_for_wanted(markdown: str, wanted: set[str]) -> None:
    whole = link_contexts(markdown)
    some = link_contexts(markdown, wanted)
    for url in wanted:  # of the others, some may be left out (the contract says no more)
        assert some.get(url) == whole.get(url), url


@settings(max_examples=600, deadline=None)
@given(_MARKDOWN, st.sets(st.sampled_from(URLS)))
def test_the_wanted_links_have_the_contexts_of_the_whole_page(
    markdown: str, wanted: set[str]
) -> None:
    _same_for_wanted(markdown, wanted)


def test_every_demo_page_gives_the_wanted_links_the_same_contexts() -> None:
    rng = random.Random(15)
    pages = 0
    for scenario in SCENARIOS:
        site = build_site(scenario, 0)
        for host, target in site.iter_pages():
            response = site.respond(host, target)
            if response.status != 200 or "html" not in response.content_type:
                continue
            page = extract(response.body, f"http://{host}{target}")
            urls = sorted({link.url for link in page.links})
            for share in (0.0, 0.3, 1.0):
                _same_for_wanted(page.markdown, {u for u in urls if rng.random() < share})
            pages += 1
    assert pages > 100


def test_a_link_an_image_makes_is_read() -> None:
    # the image's alt text "(…" after "[a]" makes a link that no "](" of the line shows
    markdown = f"- [a]![({U}/a](img.png))"
    assert link_contexts(markdown)[f"{U}/a"] == [("a", "a")]
    _same_for_wanted(markdown, {f"{U}/a"})


def test_destinations_in_angle_brackets_and_with_parentheses_are_read() -> None:
    for line in (f"[a](<{U}/a>) [b]({U}/b)", f"[c]({U}/c_(d)) [b]({U}/b)",
                 f'[b]({U}/b "t") [a]( {U}/a)'):
        _same_for_wanted(line, {f"{U}/a", f"{U}/c_(d)"})
        assert link_contexts(line, {f"{U}/a", f"{U}/c_(d)"})
