"""``link_contexts`` against the plain reading it replaced (issue 15): a forward pass that
tests every line for a list title and renders each link line with the regular expressions
alone. The list titles are now read backwards only for the list entries that need one, and
the rendering skips work a line shows it does not need; the contexts must be the same."""

from __future__ import annotations

from urllib.parse import urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import linkrules
from pagesift_ui.frontier.linkrules import LIST_ITEM, TITLE_MARK, link_contexts, list_title

U = "http://x.example"
URLS = (f"{U}/a", f"{U}/b.html", f"{U}/c_(d)", f"{U}/a/b", "https://y.example/",
        "mailto:m@x.example", "/relative")

_DESTINATION = st.sampled_from(URLS).flatmap(lambda url: st.sampled_from([
    url, f"<{url}>", f" {url}", f'{url} "a title"', f"{url}(x)",
]))
# anchors with every kind of white space the collapse reads: runs, tabs, no-break and
# ideographic spaces, line separators, controls
_ANCHOR = st.text(alphabet="ab ]![\t\xa0\u3000\u2028\x1f\x0bé", max_size=7)
_PIECE = st.one_of(
    st.builds(lambda a, d: f"[{a}]({d})", _ANCHOR, _DESTINATION),
    st.builds(lambda a, d: f"![{a}]({d})", _ANCHOR, _DESTINATION),
    st.sampled_from(["- ", "1. ", "## ", "# Title ", "> ", "  ", "  - ", "text ", "é",
                     "\n", "\n\n", "\n- ", "\n## ", "\r\n", "\u2028", "\x85", "\x0c",
                     " § "]),
    st.text(max_size=6),
)
_MARKDOWN = st.lists(_PIECE, max_size=50).map("".join)


def _reference_render(line: str) -> tuple[str, list[tuple[str, str, int, int]]]:
    line = linkrules._IMAGE.sub(lambda m: m.group(1), linkrules._BLOCK_MARKER.sub("", line))
    pieces: list[str] = []
    found: list[tuple[str, str, int, int]] = []
    position = length = 0
    for match in linkrules._LINK.finditer(line):
        before = line[position:match.start()]
        anchor = linkrules._SPACES.sub(" ", match.group(1)).strip()
        pieces.append(before)
        length += len(before)
        found.append((anchor, match.group(2), length, length + len(anchor)))
        pieces.append(anchor)
        length += len(anchor)
        position = match.end()
    pieces.append(line[position:])
    return "".join(pieces), found


def _reference(markdown: str) -> dict[str, list[tuple[str, str]]]:
    contexts: dict[str, list[tuple[str, str]]] = {}
    title = ""
    for raw_line in markdown.splitlines():
        if "](" not in raw_line:
            if raw_line.startswith("#") or LIST_ITEM.match(raw_line):
                title = list_title(raw_line)
            continue
        rendered, found = _reference_render(raw_line)
        absolute = [(a, u, s, e) for a, u, s, e in found
                    if urlsplit(u).scheme in ("http", "https") and urlsplit(u).netloc]
        windows = linkrules._windows(rendered, [(s, e) for _, _, s, e in absolute])
        suffix = f"{TITLE_MARK}{title}" if title and LIST_ITEM.match(raw_line) else ""
        for (anchor, url, _, _), window in zip(absolute, windows, strict=True):
            contexts.setdefault(url, []).append((anchor, window + suffix))
    return contexts


@settings(max_examples=800, deadline=None)
@given(_MARKDOWN)
def test_the_contexts_are_the_forward_readings(markdown: str) -> None:
    assert link_contexts(markdown) == _reference(markdown)


def test_a_list_entry_takes_the_last_title_above_it_however_far() -> None:
    markdown = "\n".join([
        "# Guide", "- Install", "some text", "", f"- [Unix]({U}/a)",  # under "Install"
        *["prose"] * 50, f"See [b]({U}/b.html) in running text.",  # not a list entry
        "## Reference", *["prose"] * 50, f"- [Lists]({U}/a/b)",  # under "Reference"
        f"- [Again]({U}/a)",  # a link line is never a title: still "Reference"
    ])
    contexts = link_contexts(markdown)
    assert contexts[f"{U}/a"] == [("Unix", f"Unix{TITLE_MARK}Install"),
                                  ("Again", f"Again{TITLE_MARK}Reference")]
    assert contexts[f"{U}/b.html"] == [("b", "See b in running text.")]
    assert contexts[f"{U}/a/b"] == [("Lists", f"Lists{TITLE_MARK}Reference")]
    assert contexts == _reference(markdown)


def test_a_printable_str_has_no_white_space_but_the_space() -> None:
    # why the anchor's collapse is skipped for a printable anchor without "  "
    assert all(not char.isspace() or not char.isprintable() or char == " "
               for char in map(chr, range(0x110000)))
