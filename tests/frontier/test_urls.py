"""URL hygiene (docs/DESIGN.md §10): clean, dedupe key, skip rules, templates and their demotion."""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.urls import (
    MAX_PATH_DEPTH,
    MAX_URL_LENGTH,
    TEMPLATE_MIN_PAGES,
    TemplateStats,
    clean,
    dedupe_key,
    skip,
    template,
    text_fingerprints,
)

# --- clean -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # The five examples of docs/DESIGN.md §10, verbatim.
        (
            "https://a.com/p?utm_source=x&id=7&fbclid=IwAR1&utm_medium=y#top",
            "https://a.com/p?id=7",
        ),
        ("https://a.com/p/4/;jsessionid=ABC123?x=1", "https://a.com/p/4/?x=1"),
        (
            "https://a.com/x?sid=3&ref=main&source=rss",
            "https://a.com/x?sid=3&ref=main&source=rss",
        ),
        ("https://a.com//docs///a", "https://a.com/docs/a"),
        ("https://a.com/a?b=1&a=2", "https://a.com/a?b=1&a=2"),
    ],
)
def test_clean_matches_every_spec_example(url: str, expected: str) -> None:
    assert clean(url) == expected


def test_clean_drops_tracking_parameters_and_keeps_order() -> None:
    url = "https://a.com/p?z=1&utm_campaign=c&y=2&gclid=g&x=3&_ga=1.2&srsltid=s&w=4"
    assert clean(url) == "https://a.com/p?z=1&y=2&x=3&w=4"


def test_clean_matches_parameter_names_case_insensitively() -> None:
    url = "https://a.com/p?UTM_Source=x&Id=7&FBCLID=1&PHPSESSID=abc&Mc_Cid=3"
    assert clean(url) == "https://a.com/p?Id=7"


@pytest.mark.parametrize(
    "name",
    ["utm_term", "mtm_kwd", "itm_source", "internal_ref", "elqTrackId", "pk_campaign", "__hsfp"],
)
def test_clean_drops_every_tracking_prefix_family(name: str) -> None:
    assert clean(f"https://a.com/p?{name}=v&keep=1") == "https://a.com/p?keep=1"


@pytest.mark.parametrize(
    "name", ["jsessionid", "phpsessid", "sessionid", "session_id", "cfid", "cftoken", "zenid"]
)
def test_clean_drops_session_parameters(name: str) -> None:
    assert clean(f"https://a.com/p?{name}=1&keep=1") == "https://a.com/p?keep=1"


@pytest.mark.parametrize(
    ("sid", "dropped"),
    [
        ("3", False),
        ("main", False),
        ("abcdef1234567890", True),  # 16 letters and digits: random-looking
        ("A1B2C3D4E5F6G7H8I9", True),
        ("abcdef123456789", False),  # 15: too short
        ("abcdef-1234567890", False),  # not only letters and digits
    ],
)
def test_clean_drops_sid_only_when_its_value_looks_random(sid: str, dropped: bool) -> None:
    cleaned = clean(f"https://a.com/p?SID={sid}&k=1")
    assert cleaned == ("https://a.com/p?k=1" if dropped else f"https://a.com/p?SID={sid}&k=1")


def test_clean_keeps_the_original_encoding_and_repeated_names() -> None:
    url = "https://a.com/p?q=%7e+x&utm_source=x&a=1&a=2&flag"
    assert clean(url) == "https://a.com/p?q=%7e+x&a=1&a=2&flag"


def test_clean_matches_percent_encoded_names() -> None:
    assert clean("https://a.com/p?utm%5Fsource=x&k=1") == "https://a.com/p?k=1"


def test_clean_drops_session_parameters_in_any_path_segment() -> None:
    url = "https://a.com/a;JSESSIONID=1/b;v=2;phpsessid=9/c"
    assert clean(url) == "https://a.com/a/b;v=2/c"


def test_clean_drops_the_question_mark_when_no_parameter_is_left() -> None:
    assert clean("https://a.com/p?utm_source=x&fbclid=y#f") == "https://a.com/p"


@pytest.mark.parametrize(
    "url", ["", "/relative/path", "a.com/p", "ftp://a.com/f", "mailto:x@a.com", "https:///p"]
)
def test_clean_rejects_urls_that_are_not_absolute_http(url: str) -> None:
    with pytest.raises(ValueError, match="absolute http"):
        clean(url)


def test_clean_rejects_a_bad_port_with_the_url_in_the_message() -> None:
    with pytest.raises(ValueError, match="a.com:99999"):
        clean("https://a.com:99999/p")


_SEGMENT = st.text(alphabet="abcXYZ019-._~%é;=", max_size=6)
_NAMES = st.sampled_from(
    ["utm_source", "UTM_Medium", "fbclid", "id", "sid", "SID", "a", "b", "_ga", "pk_x", "q", ""]
)
_VALUES = st.one_of(
    st.text(alphabet="abcXYZ0123456789-._~%+=;:@!$,/", max_size=20),
    st.just("abcdef1234567890abc"),
)


@st.composite
def messy_urls(draw: st.DrawFn) -> str:
    """http(s) URLs with tracking params, fragments, ;jsessionid= and repeated slashes."""
    scheme = draw(st.sampled_from(["http", "https", "HTTPS"]))
    host = draw(st.sampled_from(["a.com", "WWW.Example.org", "x.y.edu:8080", "a.com:443"]))
    segments = draw(st.lists(_SEGMENT, max_size=5))
    if draw(st.booleans()):
        segments.append(f";jsessionid={draw(_VALUES)}")
    pairs = draw(st.lists(st.tuples(_NAMES, _VALUES), max_size=6))
    query = "&".join(f"{name}={value}" for name, value in pairs)
    fragment = draw(st.sampled_from(["", "#top", "#a?b=c"]))
    return f"{scheme}://{host}/{'/'.join(segments)}" + (f"?{query}" if query else "") + fragment


@given(messy_urls())
def test_clean_is_idempotent(url: str) -> None:
    once = clean(url)
    assert clean(once) == once
    assert "#" not in once and "//" not in urlsplit(once).path


# --- dedupe_key ------------------------------------------------------------------------------


def test_dedupe_key_lowercases_drops_default_port_and_sorts_the_query() -> None:
    assert dedupe_key("HTTPS://A.com:443/a?b=1&a=2#x") == "https://a.com/a?a=2&b=1"
    assert dedupe_key("http://Docs.A.com:80/P?utm_source=z&k=v") == "http://docs.a.com/P?k=v"


def test_dedupe_key_keeps_a_port_that_is_not_the_scheme_default() -> None:
    assert dedupe_key("http://a.com:443/x") == "http://a.com:443/x"
    assert dedupe_key("https://a.com:8443/x") == "https://a.com:8443/x"


def test_dedupe_key_equates_spellings_of_one_resource() -> None:
    variants = [
        "https://a.com/p?x=%7e&y=1",
        "https://A.COM:443/p?y=1&x=~",
        "https://a.com//p?y=1&utm_source=news&x=%7E#frag",
    ]
    assert len({dedupe_key(url) for url in variants}) == 1


@given(messy_urls())
def test_dedupe_key_is_idempotent(url: str) -> None:
    key = dedupe_key(url)
    assert dedupe_key(key) == key


@given(
    st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from(["1", "2", "x"])), max_size=5),
    st.randoms(use_true_random=False),
    st.sampled_from(["e.org", "E.ORG", "e.ORG"]),
    st.booleans(),
)
def test_dedupe_key_ignores_host_case_default_port_and_query_order(
    pairs: list[tuple[str, str]], rng: object, host: str, with_port: bool
) -> None:
    shuffled = list(pairs)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    plain = "https://e.org/p?" + "&".join(f"{k}={v}" for k, v in pairs)
    other = f"https://{host}{':443' if with_port else ''}/p?" + "&".join(
        f"{k}={v}" for k, v in shuffled
    )
    assert dedupe_key(plain) == dedupe_key(other)


# --- skip ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://a.com/report.pdf", "binary file (.pdf)"),
        ("https://a.com/img/Photo.JPG", "binary file (.jpg)"),
        ("https://a.com/s/app.js?v=3", "binary file (.js)"),
        ("https://a.com/f/font.woff2", "binary file (.woff2)"),
        ("https://a.com/a.tar.gz", "binary file (.gz)"),
        ("https://a.com/x/a/a/a/y", "path segment 'a' repeated 3+ times"),
        ("https://a.com/" + "/".join(f"s{i}" for i in range(21)), "path deeper than 20 segments"),
        ("https://a.com/" + "a" * MAX_URL_LENGTH, "URL longer than 2048 characters"),
    ],
)
def test_skip_gives_a_short_reason(url: str, reason: str) -> None:
    assert skip(url) == reason


@pytest.mark.parametrize(
    "url",
    [
        "https://a.com/",
        "https://a.com/page.html",
        "https://a.com/index.php?file=report.pdf",  # only the path is inspected
        "https://a.com/x/a/a/y",  # twice in a row is fine
        "https://a.com/.profile",  # a dot file has no extension
        "https://a.com/" + "/".join(f"s{i}" for i in range(MAX_PATH_DEPTH)),
        "https://a.com/" + "a" * (MAX_URL_LENGTH - len("https://a.com/")),
    ],
)
def test_skip_returns_none_for_pages_worth_fetching(url: str) -> None:
    assert skip(url) is None


# --- template --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://www.E.edu/news/2024/story-17?page=2&id=9", "www.e.edu/news/#/story-#?id&page"),
        ("https://e.edu/p/3f2a9c1e-77b0-4d2e/view", "e.edu/p/*/view"),
        ("https://e.edu/p/a1b2c3d4e5", "e.edu/p/a#b#c#d#e#"),  # 10 chars: not an ID yet
        ("https://e.edu/p/abcdefghijklmnop", "e.edu/p/abcdefghijklmnop"),  # long but no digit
        ("https://e.edu", "e.edu/"),
        ("https://e.edu/list?B=1&a=2&b=3&utm_source=x", "e.edu/list?a&b"),
    ],
)
def test_template_replaces_numbers_and_ids_and_lists_parameter_names(
    url: str, expected: str
) -> None:
    assert template(url) == expected


def test_template_is_shared_by_pages_of_one_pattern() -> None:
    assert template("https://e.edu/issue/12?page=3") == template("https://e.edu/issue/913?page=1")


# --- duplicates and template demotion --------------------------------------------------------


def test_text_fingerprints_are_stable_64_bit_values() -> None:
    # Reference values, computed once outside the code under test with:
    # python3 -c "import hashlib; f=lambda b: int.from_bytes(hashlib.blake2b(b,
    #   digest_size=8).digest(), 'big'); print(f(b'Page 2 of 9'), f(b'Page of'))"
    assert text_fingerprints("Page 2 of 9") == (9916157440540586996, 3627728380793605868)


def test_text_fingerprints_ignore_whitespace_and_digits_separately() -> None:
    exact, digitless = text_fingerprints("  Page 2\n of   9 ")
    assert exact == text_fingerprints("Page 2 of 9").exact
    other = text_fingerprints("Page 3 of 9")
    assert other.exact != exact and other.digitless == digitless


def test_a_template_is_demoted_when_most_of_its_pages_are_duplicates() -> None:
    stats = TemplateStats()
    shape = template("https://e.edu/cal?day=1")
    stats.observe("https://e.edu/cal?day=1", duplicate=False)
    stats.observe("https://e.edu/cal?day=2", duplicate=True)
    assert not stats.demoted(shape)  # too few pages to judge
    stats.observe("https://e.edu/cal?day=3", duplicate=True)
    assert stats.demoted(shape)
    assert stats.demoted_templates() == frozenset({shape})
    assert stats.stats() == {shape: (TEMPLATE_MIN_PAGES, 2)}


def test_a_demoted_template_returns_when_its_ratio_drops() -> None:
    stats = TemplateStats()
    for day, duplicate in enumerate([False, True, True, False]):
        stats.observe(f"https://e.edu/cal/{day}", duplicate)
    assert not stats.demoted("e.edu/cal/#")  # exactly half is not "more than half"
    assert stats.stats() == {"e.edu/cal/#": (4, 2)}
    stats.observe("https://e.edu/cal/9", duplicate=True)
    assert stats.demoted("e.edu/cal/#")
    stats.observe("https://e.edu/cal/10", duplicate=False)
    assert not stats.demoted("e.edu/cal/#")
    assert stats.demoted_templates() == frozenset()


def _fingerprints_by_regex(text: str) -> tuple[int, int]:
    """``text_fingerprints`` as it was before its digits were removed on bytes (issue 15)."""

    def digest(value: str) -> int:
        data = value.encode("utf-8", "surrogatepass")
        return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")

    normalised = re.sub(r"\s+", " ", text).strip()
    return digest(normalised), digest(" ".join(re.sub(r"\d+", "", normalised).split()))


_FINGERPRINTED = st.lists(st.one_of(
    st.sampled_from(["12", "0", " ", "\xa0", "\x1c", "\u2028", "a1b", "¶", "٣", "３", "²",
                     "\ud800", "é9", "\t\n", "ǅ", "x", "1 2 3"]),
    st.text(max_size=6),
), max_size=25).map("".join)


@given(_FINGERPRINTED)
def test_text_fingerprints_are_the_regex_ones(text: str) -> None:
    assert tuple(text_fingerprints(text)) == _fingerprints_by_regex(text)


def test_text_fingerprints_of_every_code_point_are_the_regex_ones() -> None:
    for start in range(0, 0x110000, 0x1000):
        text = " 7 ".join(chr(c) for c in range(start, start + 0x1000))
        assert tuple(text_fingerprints(text)) == _fingerprints_by_regex(text), hex(start)
