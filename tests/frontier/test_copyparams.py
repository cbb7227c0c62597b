"""Query pairs learned to make copies (frontier/copyparams.py; docs/DESIGN.md §10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.copyparams import (
    COPY_PATHS,
    COPY_VALUES,
    MAX_CANDIDATES,
    CopyParameters,
    query_pairs,
)

SITE = "http://uni.example"


def test_a_pair_is_learned_from_copies_on_two_paths_not_one() -> None:
    copies = CopyParameters()
    assert COPY_PATHS == 2
    assert copies.fetched(f"{SITE}/fees?print=1", f"{SITE}/fees") == ""
    # the same path again teaches nothing more: one page may ignore an unknown parameter
    assert copies.fetched(f"{SITE}/fees?print=1", f"{SITE}/fees") == ""
    assert copies.original(f"{SITE}/visas?print=1") is None
    assert copies.fetched(f"{SITE}/visas?print=1", f"{SITE}/visas") == "print=1"
    assert copies.learned() == {"print=1": 2}
    assert copies.original(f"{SITE}/refunds?print=1") == (f"{SITE}/refunds", "print=1")


def test_original_drops_only_the_learned_pairs_and_keeps_the_rest_as_written() -> None:
    copies = CopyParameters()
    copies.fetched(f"{SITE}/a?print=1", f"{SITE}/a")
    copies.fetched(f"{SITE}/b?print=1", f"{SITE}/b")
    assert copies.original(f"{SITE}/c?Q=a+b&print=1&page=2") == (f"{SITE}/c?Q=a+b&page=2",
                                                                 "print=1")
    # another value of the name is another pair: not learned
    assert copies.original(f"{SITE}/c?print=2") is None
    assert copies.original(f"{SITE}/c") is None
    assert copies.original(f"{SITE}/c?page=2") is None


def test_a_page_of_its_own_carrying_the_pair_keeps_it_from_being_learned() -> None:
    # a paginated list: page 2 names page 1 canonical on one path (a common mistake), but
    # page 2 of another list is a page of its own
    copies = CopyParameters()
    copies.fetched(f"{SITE}/news?page=2", "")
    copies.fetched(f"{SITE}/events?page=2", f"{SITE}/events")
    assert copies.fetched(f"{SITE}/blog?page=2", f"{SITE}/blog") == ""
    assert copies.learned() == {}
    assert copies.original(f"{SITE}/jobs?page=2") is None


def test_a_learned_pair_is_unlearned_by_a_page_of_its_own() -> None:
    copies = CopyParameters()
    copies.fetched(f"{SITE}/a?view=full", f"{SITE}/a")
    copies.fetched(f"{SITE}/b?view=full", f"{SITE}/b")
    assert copies.learned() == {"view=full": 2}
    copies.fetched(f"{SITE}/c?view=full", "")
    assert copies.learned() == {}
    assert copies.original(f"{SITE}/d?view=full") is None


def test_a_copy_fetched_before_its_page_counts_when_the_page_repeats_it() -> None:
    # no canonical link: the copy looked like a page of its own until its page came
    copies = CopyParameters()
    copies.fetched(f"{SITE}/a?print=1", "")
    copies.fetched(f"{SITE}/a", f"{SITE}/a?print=1")
    assert copies.fetched(f"{SITE}/b?print=1", f"{SITE}/b") == "print=1"


def test_pairs_are_learned_only_between_urls_of_one_path_and_host() -> None:
    copies = CopyParameters()
    for n in range(3):
        copies.fetched(f"{SITE}/{n}/x?print=1", f"{SITE}/{n}/y")  # another path
        copies.fetched(f"http://other.example/{n}?print=1", f"{SITE}/{n}")
        # the original's pairs must all be kept by the copy
        copies.fetched(f"{SITE}/z{n}?print=1", f"{SITE}/z{n}?lang=en")
    assert copies.learned() == {}


def test_a_pair_is_learned_for_its_host_only() -> None:
    copies = CopyParameters()
    copies.fetched(f"{SITE}/a?print=1", f"{SITE}/a")
    copies.fetched(f"{SITE}/b?print=1", f"{SITE}/b")
    assert copies.original(f"{SITE}/c?print=1") == (f"{SITE}/c", "print=1")
    # another site's ?print=1 may be a page of its own: its habit is its own
    assert copies.original("http://journals.example/c?print=1") is None
    # and a page of its own there does not unlearn the first site's pair
    copies.fetched("http://journals.example/d?print=1", "")
    assert copies.learned() == {"print=1": 2}


def test_a_name_is_learned_whatever_its_value_from_two_values_on_two_paths() -> None:
    copies = CopyParameters()
    assert COPY_VALUES == 2
    copies.fetched(f"{SITE}/shop?sort=newest", f"{SITE}/shop")
    assert copies.fetched(f"{SITE}/kits?sort=popular", f"{SITE}/kits") == "sort=*"
    assert copies.learned() == {"sort=*": 2}
    assert copies.original(f"{SITE}/bags?sort=price-asc&page=2") == (f"{SITE}/bags?page=2",
                                                                   "sort=*")
    # a cache-buster, new on every link: no pair repeats, the name does
    copies.fetched(f"{SITE}/a?v=8812", f"{SITE}/a")
    copies.fetched(f"{SITE}/b?v=1907", f"{SITE}/b")
    assert copies.original(f"{SITE}/c?v=5550") == (f"{SITE}/c", "v=*")


def test_one_values_copies_teach_that_pair_not_the_name() -> None:
    # ?page=1 names the list canonical on every listing: page 2 is another page
    copies = CopyParameters()
    copies.fetched(f"{SITE}/news?page=1", f"{SITE}/news")
    copies.fetched(f"{SITE}/events?page=1", f"{SITE}/events")
    assert copies.learned() == {"page=1": 2}
    assert copies.original(f"{SITE}/jobs?page=2") is None
    # and a page of its own with any value of the name keeps the name from being learned
    copies.fetched(f"{SITE}/news?page=2", "")
    copies.fetched(f"{SITE}/blog?page=3", f"{SITE}/blog")
    assert "page=*" not in copies.learned()


def test_candidates_are_bounded() -> None:
    copies = CopyParameters()
    for n in range(MAX_CANDIDATES + 50):
        copies.fetched(f"{SITE}/p{n}?token={n}", f"{SITE}/p{n}")
    assert len(copies._copies) == MAX_CANDIDATES  # noqa: SLF001 -- the bound itself


def test_query_pairs_decode_and_keep_the_raw_text() -> None:
    assert query_pairs("Print=1&q=a%20b&&flag") == [
        (("print", "1"), "Print=1"), (("q", "a b"), "q=a%20b"), (("flag", ""), "flag")]


_pair = st.tuples(st.sampled_from(["print", "page", "q", "view"]),
                  st.sampled_from(["1", "2", "full"]))


@given(learned=st.lists(_pair, min_size=1, max_size=3),
       query=st.lists(_pair, max_size=5))
def test_original_never_adds_and_is_idempotent(
        learned: list[tuple[str, str]], query: list[tuple[str, str]]) -> None:
    copies = CopyParameters()
    for name, value in learned:
        for path in ("/a", "/b"):
            copies.fetched(f"{SITE}{path}?{name}={value}", f"{SITE}{path}")
    # a name whose copies carried two values on two paths is learned whatever its value
    any_value = {name for name, _ in learned
                 if len({v for n, v in learned if n == name}) >= COPY_VALUES}
    gone = set(learned) | {pair for pair in query if pair[0] in any_value}
    raw = "&".join(f"{n}={v}" for n, v in query)
    url = f"{SITE}/c?{raw}" if raw else f"{SITE}/c"
    result = copies.original(url)
    if result is None:
        assert not set(query) & gone
        return
    stripped, dropped = result
    assert dropped in {f"{n}={v}" for n, v in learned} | {f"{n}=*" for n in any_value}
    kept = [pair for pair in query if pair not in gone]
    assert [p for p, _ in query_pairs(stripped.partition("?")[2])] == kept
    assert copies.original(stripped) is None
