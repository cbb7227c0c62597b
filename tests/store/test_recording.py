"""Recording a page source, replaying it, and its two encodings (store rows, bundle JSON)."""

from __future__ import annotations

import base64
import dataclasses
import json
import zlib
from collections.abc import Sequence
from typing import Any

import pytest

from pagesift_ui.errors import (
    BlockedByPolicy,
    BlockedByRobots,
    BodyTooLarge,
    BundleError,
    ConnectFailed,
    FetchError,
    FetchTimeout,
    HTTPStatusError,
    NotRecorded,
    TooManyRedirects,
    UnsupportedContentType,
)
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.store import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordingSource,
    ReplaySource,
)
from pagesift_ui.store.portable import (
    recorded_from_dict,
    recorded_to_dict,
    responses_from_bundle,
)
from pagesift_ui.store.schema import RESPONSE_COLUMNS, recorded_from_row, response_row

PAGE = FetchResult(
    url="http://a.test/old",
    final_url="http://a.test/new",
    status=200,
    content_type="text/html",
    encoding="windows-1252",
    body="<p>Café – 5 €</p>".encode("cp1252"),
    redirects=("http://a.test/old",),
    elapsed_s=0.0123,
    fetched_at=1_790_000_000.25,
    headers=(("Content-Type", "text/html; charset=windows-1252"), ("Content-Encoding", "gzip")),
)
ERRORS: list[FetchError] = [
    FetchError("http://a.test/x", "broken exchange"),
    FetchTimeout("http://a.test/x", "timed out after 1 s"),
    ConnectFailed("http://a.test/x", "refused"),
    HTTPStatusError("http://a.test/x", "answered 404 Not Found", 404),
    TooManyRedirects("http://a.test/x", "loop"),
    BodyTooLarge("http://a.test/x", "too big"),
    UnsupportedContentType("http://a.test/x", "is application/pdf", "application/pdf"),
    BlockedByRobots("http://a.test/x", "disallowed"),
    BlockedByPolicy("http://a.test/x", "private address"),
    NotRecorded("http://a.test/x", "not in the recording"),
]


class ScriptedSource:
    """A page source with fixed answers: a page, errors, robots answers."""

    def __init__(self, errors: dict[str, FetchError]) -> None:
        self.errors = errors
        self.closed = False
        self.prefetched: list[tuple[str, ...]] = []

    def fetch(self, url: str) -> FetchResult:
        if url in self.errors:
            raise self.errors[url]
        return PAGE

    def prefetch(self, urls: Sequence[str]) -> None:
        self.prefetched.append(tuple(urls))

    def allowed_by_robots(self, url: str) -> bool:
        return "private" not in url

    def close(self) -> None:
        self.closed = True


def _same_error(a: FetchError, b: FetchError) -> bool:
    return (type(a), a.kind, a.message, a.url, vars(a)) == (type(b), b.kind, b.message, b.url,
                                                           vars(b))


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_every_fetch_error_replays_as_the_same_error(error: FetchError) -> None:
    recorded: list[Recorded] = []
    source = RecordingSource(ScriptedSource({error.url: error}), recorded.append)
    with pytest.raises(type(error)) as raised:
        source.fetch(error.url)
    assert raised.value is error, "the recorder re-raises the very error"
    with pytest.raises(FetchError) as replayed:
        ReplaySource(recorded).fetch(error.url)
    assert _same_error(replayed.value, error)


def test_an_unknown_error_class_keeps_its_kind() -> None:
    recorded = RecordedError("QuotaExceeded", "quota", "daily quota used up")
    error = recorded.to_exception("http://a.test/")
    assert type(error) is FetchError and error.kind == "quota" and error.message.startswith("daily")


def test_the_recorder_keeps_every_answer_in_order() -> None:
    recorded: list[Recorded] = []
    gone = HTTPStatusError("http://a.test/gone", "404", 404, at=1_700_000_000.5)
    scripted = ScriptedSource({"http://a.test/gone": gone})
    source = RecordingSource(scripted, recorded.append)
    assert source.fetch("http://a.test/old") is PAGE
    assert source.allowed_by_robots("http://a.test/private/x") is False
    with pytest.raises(HTTPStatusError):
        source.fetch("http://a.test/gone")
    source.close()
    assert scripted.closed
    assert [type(r).__name__ for r in recorded] == ["RecordedFetch", "RecordedRobots",
                                                   "RecordedFetch"]
    assert recorded[0] == RecordedFetch("http://a.test/old", result=PAGE)
    assert recorded[2] == RecordedFetch(
        "http://a.test/gone",
        error=RecordedError("HTTPStatusError", "http_status", "404", 404, at=1_700_000_000.5),
    )
    replayed = recorded[2].error.to_exception("http://a.test/gone")  # type: ignore[union-attr]
    assert isinstance(replayed, HTTPStatusError) and replayed.at == 1_700_000_000.5


def test_the_recorder_passes_prefetch_on_and_records_only_fetched_answers() -> None:
    recorded: list[Recorded] = []
    inner = ScriptedSource({})
    source = RecordingSource(inner, recorded.append)
    source.prefetch(["http://a.test/1", "http://a.test/2"])
    assert inner.prefetched == [("http://a.test/1", "http://a.test/2")] and recorded == []
    source.fetch("http://a.test/2")
    assert [answer.url for answer in recorded] == ["http://a.test/2"]
    replay = ReplaySource(recorded)
    replay.prefetch(["http://a.test/1"])  # a hint only: nothing is served or marked
    assert replay.unavailable == []


def test_replay_answers_in_recorded_order_then_repeats_the_last() -> None:
    other = RecordedError("FetchTimeout", "timeout", "slow")
    source = ReplaySource([
        RecordedFetch("http://a.test/old", error=other),
        RecordedFetch("http://a.test/old", result=PAGE),
        RecordedRobots("http://a.test/p", False),
        RecordedRobots("http://a.test/p", True),
    ])
    with pytest.raises(FetchTimeout):
        source.fetch("http://a.test/old")
    assert source.fetch("http://a.test/old") == PAGE
    assert source.fetch("http://a.test/old") == PAGE
    assert [source.allowed_by_robots("http://a.test/p") for _ in range(3)] == [False, True, True]
    assert source.urls == ["http://a.test/old"]


def test_a_robots_check_that_failed_is_recorded_and_replayed_as_the_same_error() -> None:
    # it was not recorded at all, so a replay allowed the link the crawl had refused
    class Refusing:
        def allowed_by_robots(self, url: str) -> bool:
            raise BlockedByPolicy(url, POLICY.message, at=12.5)

    recorded: list[Recorded] = []
    source = RecordingSource(Refusing(), recorded.append)  # type: ignore[arg-type]
    with pytest.raises(BlockedByPolicy):
        source.allowed_by_robots("http://127.0.0.1:9/x")
    assert recorded == [RecordedRobots("http://127.0.0.1:9/x", False,
                                       dataclasses.replace(POLICY, at=12.5))]
    with pytest.raises(BlockedByPolicy, match="refused by the network policy"):
        ReplaySource(recorded).allowed_by_robots("http://127.0.0.1:9/x")


def test_replay_reports_unrecorded_urls_and_allows_unasked_robots() -> None:
    source = ReplaySource([RecordedFetch("http://a.test/old", result=PAGE)])
    for _ in range(2):
        with pytest.raises(NotRecorded, match="was not fetched when the session was recorded"):
            source.fetch("http://a.test/elsewhere")
    assert source.unavailable == ["http://a.test/elsewhere"]
    assert source.allowed_by_robots("http://a.test/never-asked") is True


POLICY = RecordedError("BlockedByPolicy", "network_policy",
                       "http://127.0.0.1:9/x is refused by the network policy: another port")

ANSWERS: list[Recorded] = [
    RecordedFetch(PAGE.url, result=PAGE),
    RecordedRobots("http://a.test/private/", False),
    RecordedRobots("http://127.0.0.1:9/x", False, POLICY),
    *(RecordedFetch(e.url, error=RecordedError.from_exception(e)) for e in ERRORS),
]


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda a: type(a).__name__)
def test_store_rows_round_trip(answer: Recorded) -> None:
    row = response_row("s1", 7, 3, answer)
    assert len(row) == len(RESPONSE_COLUMNS) and row[:3] == ("s1", 7, 3)
    assert recorded_from_row(row[3:]) == answer


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda a: type(a).__name__)
def test_bundle_dicts_round_trip_through_json(answer: Recorded) -> None:
    data = json.loads(json.dumps(recorded_to_dict(answer), allow_nan=False))
    assert recorded_from_dict(data) == answer


def _bundle(items: list[Any], **section: Any) -> dict[str, Any]:
    return {"config": {"max_body_bytes": 10_000},
            "responses": {"version": 1, "items": items, **section}}


def _page_item(body: str) -> dict[str, Any]:
    item = recorded_to_dict(RecordedFetch(PAGE.url, result=PAGE))
    item["result"]["body"] = body
    return item


@pytest.mark.parametrize(
    ("bundle", "message"),
    [
        ({"format": "pagesift-session"}, "has no recorded responses"),
        ({"responses": []}, "responses: must be a JSON object"),
        ({"responses": {"version": 9, "items": []}}, "responses version 9"),
        (_bundle({}), "responses.items: must be a list"),
        (_bundle(["x"]), r"responses.items\[0\]: must be a JSON object"),
        (_bundle([{"kind": "fetch"}]), r"responses.items\[0\]: lacks the field 'url'"),
        (_bundle([{"kind": "ftp", "url": "u"}]), r"responses.items\[0\].kind: 'ftp' is not one of"),
        (_bundle([{"kind": "robots", "url": "u", "allowed": "yes"}]),
         r"responses.items\[0\].allowed: must be true or false"),
        (_bundle([_page_item("%%%not base64")]), "not base64 of zlib"),
        (_bundle([_page_item(base64.b64encode(b"plain").decode())]), "not base64 of zlib"),
        (_bundle([_page_item(base64.b64encode(zlib.compress(b"0" * 50_000)).decode())]),
         r"responses.items\[0\].result.body: the body of .* inflates past 10,000 bytes"),
        (_bundle([_page_item(base64.b64encode(zlib.compress(b"<p>" * 99)[:-6]).decode())]),
         "cut short"),
    ],
)
def test_hostile_response_sections_are_refused(bundle: dict[str, Any], message: str) -> None:
    with pytest.raises(BundleError, match=message):
        responses_from_bundle(bundle)


def test_a_recorded_fetch_holds_a_page_or_an_error() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        RecordedFetch("http://a.test/")
    with pytest.raises(ValueError, match="unknown text encoding"):
        recorded_from_dict({**_page_item(base64.b64encode(zlib.compress(b"x")).decode()),
                            "result": {**_page_item("")["result"], "encoding": "klingon",
                                       "body": base64.b64encode(zlib.compress(b"x")).decode()}})


def test_every_fetch_error_class_is_found_by_its_name_for_replay() -> None:
    from pagesift_ui import errors

    def all_subclasses(cls: type[FetchError]) -> list[type[FetchError]]:
        found = [cls]
        for sub in cls.__subclasses__():
            found.extend(all_subclasses(sub))
        return found

    for cls in all_subclasses(FetchError):
        assert errors.fetch_error_class(cls.__name__) is cls
    assert errors.fetch_error_class("NoSuchError") is None
