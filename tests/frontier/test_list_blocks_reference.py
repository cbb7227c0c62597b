"""``list_blocks_titled`` against the forward reading it replaced (issue 15): every line
tested for a title and for whether it ends the open list block. The titles are now read back
when a block opens, and the lines between two links only while a block is open."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import siblings
from pagesift_ui.frontier.linkrules import LIST_ITEM, list_title
from pagesift_ui.frontier.siblings import list_blocks_titled


def _reference(markdown: str) -> tuple[dict[str, int], list[str]]:
    blocks: dict[str, int] = {}
    titles: list[str] = []
    title = ""
    block, open_block = -1, False
    for line in markdown.splitlines():
        if not line.strip():
            continue
        has_link = "](" in line
        item = LIST_ITEM.match(line) is not None
        if has_link and item:
            if not open_block:
                block, open_block = block + 1, True
                titles.append(title)
            for match in siblings._DESTINATION.finditer(line):
                blocks.setdefault(match.group(1), block)
            continue
        if not has_link and (line.startswith("#") or item):
            title = list_title(line)
        if item or not line.startswith(("  ", "\t")):
            open_block = False
    return blocks, titles


_LINE = st.one_of(
    st.sampled_from(["", " ", "\t", "  ", "## Chapter", "# Guide", "Some text.", "  continued",
                     "\tcontinued", "- An item", "  - A nested item", "1. Numbered",
                     " - one space", "- ► More", "See [x](http://x/see) here.",
                     "  See [y](http://x/y) indented."]),
    st.builds(lambda indent, marker, n: f"{indent}{marker} [e{n}](http://x/{n})",
              st.sampled_from(["", "  ", "    ", "\t"]), st.sampled_from(["-", "*", "2."]),
              st.integers(0, 6)),
    st.text(alphabet=" -#[]()\t1.x", max_size=10),
)
_MARKDOWN = st.lists(_LINE, max_size=40).flatmap(
    lambda lines: st.sampled_from(["\n".join(lines), "\n\n".join(lines), "\r\n".join(lines)]))


@settings(max_examples=800, deadline=None)
@given(_MARKDOWN)
def test_the_blocks_and_titles_are_the_forward_readings(markdown: str) -> None:
    assert list_blocks_titled(markdown) == _reference(markdown)


def test_a_block_stays_open_across_blank_and_continued_lines_only() -> None:
    markdown = "\n".join([
        "## Tools", "- [a](http://x/a)", "", "  continued", "\tcontinued",
        "- [b](http://x/b)",  # still block 0
        "Text.", "- [c](http://x/c)",  # a paragraph closed it: block 1, under "Tools"
        "  - nested, no link", "- [d](http://x/d)",  # an item closed it: block 2
    ])
    assert list_blocks_titled(markdown) == (
        {"http://x/a": 0, "http://x/b": 0, "http://x/c": 1, "http://x/d": 2},
        ["Tools", "Tools", "nested, no link"])
    assert list_blocks_titled(markdown) == _reference(markdown)
