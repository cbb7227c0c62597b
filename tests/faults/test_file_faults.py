"""File faults (issue 12, files half): bad bundles and WARC files give a clear error, bounded
cost, and lose nothing.

Every test names one kind of fault a file from outside can carry. A bundle is opened the way
the CLI's ``replay`` and the app's upload open it (``load_portable``); a WARC file the way
``replay`` and the sweeps read it (``read_warc``). Each test asserts the error class and the
path of the bad part in its message; the bombs are opened in a child process whose peak
memory is measured. The app's rendering of a hostile bundle is checked with AppTest.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pagesift_ui.errors import BundleError, WarcError
from pagesift_ui.session import CrawlSession
from pagesift_ui.session.bundle import bundle_json
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import SessionStore, StoreSink, start_session
from pagesift_ui.store.portable import MAX_FILE_BYTES, bundle_with_responses, load_portable
from pagesift_ui.warc import WarcSink, read_warc
from pagesift_ui.warc.reader import MAX_WARC_BYTES
from tests.faults.harness import PEAK_RSS_LIMIT_MB, config_for, run_in_child
from tests.faults.server import FaultServer

APP = Path(__file__).resolve().parents[2] / "app.py"
#: Markers a test puts in a bundle's dict; ``_text`` swaps them for what JSON cannot carry
#: from Python (``json.dumps`` refuses a 5,000-digit int too) or what it should not.
BIG, HUGE, NAN, DEEP = "@BIG@", "@HUGE@", "@NAN@", "@DEEP@"
_RAW = {f'"{BIG}"': "9" * 5000, f'"{HUGE}"': "1e400", f'"{NAN}"': "NaN",
        f'"{DEEP}"': "[" * 100_000 + "]" * 100_000}
HOSTILE = "![x](http://127.0.0.1:1/x.png) <img src=x onerror=alert(1)>"
#: Markdown that would show an image or a link, or HTML: an unescaped ``![``, ``[`` … ``](``
#: or ``<``.
UNESCAPED = re.compile(r"(?<!\\)!\[|(?<!\\)\]\(|(?<!\\)<img")
#: A URL in escaped text links to itself (``md_escape``), as Markdown would link it anyway:
#: ``[http://…](<http://…>)``, the text the URL escaped. Nothing else may be a link.
SELF_LINK = re.compile(r"\[(?P<text>(?:\\.|[^\[\]\\])+)\]\(<(?P<url>https?://[^<>\s]+)>\)")


def _without_self_links(text: str) -> str:
    """``text`` with every link to itself replaced by its URL (a link to elsewhere stays)."""
    def plain(found: re.Match[str]) -> str:
        shown = re.sub(r"\\(.)", r"\1", found["text"])
        return found["url"] if shown == found["url"] else found[0]

    return SELF_LINK.sub(plain, text)


@pytest.fixture(scope="module")
def faults() -> Iterator[FaultServer]:
    with FaultServer(lifetime_s=240) as server:
        yield server


@pytest.fixture(scope="module")
def recorded(
    faults: FaultServer, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], Path]:
    """A short saved crawl: its bundle (with responses) as a dict, and its WARC file."""
    folder = tmp_path_factory.mktemp("recorded")
    warc = folder / "crawl.warc.gz"
    with SessionStore(folder / "s.sqlite3") as store:
        config = config_for(faults.url("/seed?next=%2Fok", "www"))
        with start_session(store, config) as session:
            WarcSink.attach(session, warc)
            session.run()
            sink = session.find_sink(StoreSink)
            assert sink is not None
            bundle = bundle_with_responses(session, sink.recorded(), sink.events)
        session.find_sink(WarcSink).close()  # type: ignore[union-attr]
    return json.loads(bundle_json(bundle)), warc


@pytest.fixture
def bundle(recorded: tuple[dict[str, Any], Path]) -> dict[str, Any]:
    return copy.deepcopy(recorded[0])


def _text(data: dict[str, Any]) -> bytes:
    text = json.dumps(data)
    for marker, raw in _RAW.items():
        text = text.replace(marker, raw)
    return text.encode()


def _refused(data: bytes | Path) -> str:
    with pytest.raises(BundleError) as caught:
        load_portable(data)
    return str(caught.value)


def _linked(bundle: dict[str, Any]) -> int:
    """The index of a step reached through a link (its ``link`` explains the score)."""
    return next(i for i, s in enumerate(bundle["steps"]) if s["link"] and s["relevance_detail"])


# -- 7. bundles: every nested field, numbers finite and in range ---------------------------


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change of the bundle at ``path`` (dots and [i]; ``L`` is the linked step)."""

    def change(bundle: dict[str, Any]) -> None:
        parts = path.replace("[", ".").replace("]", "").split(".")
        node: Any = bundle
        for part in parts[:-1]:
            node = node[_linked(bundle) if part == "L" else int(part) if part.isdigit() else part]
        last = parts[-1]
        node[int(last) if last.isdigit() else last] = value

    return change


def _add_override(value: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    return lambda bundle: bundle["overrides"].append(value)


def _add_frontier_row(bundle: dict[str, Any]) -> None:
    bundle["final"]["frontier"].append({
        "rank": 1, "key": "k", "url": "http://x/", "score": 0.5, "depth": 1, "cluster": "",
        "subtree": "", "blind": False, "furniture": False, "pinned": False, "demoted": False,
        "anchor": "", "explanation": None, "evil": "<script>",
    })


def _without_steps(bundle: dict[str, Any]) -> None:
    del bundle["steps"]


def _uneven_terms(bundle: dict[str, Any]) -> None:
    bundle["steps"][0]["evidence"] = bundle["steps"][0]["evidence"][:-1]


def _deep(bundle: dict[str, Any]) -> None:
    bundle["extra"] = DEEP


@pytest.mark.parametrize(("change", "message"), [
    (_set("steps.0.depth", BIG), r"^steps\[0\]\.depth: an integer of 5,000 digits"),
    (_add_override({"step": HUGE, "kind": "pin", "target": "x"}),
     r"^overrides\[0\]\.step: not a finite number"),
    (_set("steps.L.link.features.2.value", HUGE),
     r"^steps\[\d+\]\.link\.features\[2\]\.value: not a finite number"),
    (_set("steps.L.link.features.0.name", "evil"),
     r"^steps\[\d+\]\.link\.features\[0\]\.name: 'evil' is not one of"),
    (_set("steps.L.link.named_list", "Features " * 50),
     r"^steps\[\d+\]\.link\.named_list: text of 450 characters is longer than 120"),
    (_set("steps.L.link.cited", "yes"), r"^steps\[\d+\]\.link\.cited: must be true or false"),
    (_set("steps.L.relevance_detail.units.0.weight", "heavy"),
     r"^steps\[\d+\]\.relevance_detail\.units\[0\]\.weight: must be a number"),
    (_set("steps.L.relevance_detail.units", {"a": 1}),
     r"^steps\[\d+\]\.relevance_detail\.units: must be a list"),
    (_set("steps.0.evidence.0", "lots"), r"^steps\[0\]\.evidence\[0\]: must be an integer"),
    (_uneven_terms, r"^steps\[0\]\.evidence: 1 values for 2 terms"),
    (_set("steps.0.relevance", 7.5), r"^steps\[0\]\.relevance: 7\.5 is out of range \[0, 1\]"),
    (_set("steps.0.score", NAN), r"^steps\[0\]\.score: NaN is not a finite number"),
    (_set("steps.0.title", "t" * 100_000),
     r"^steps\[0\]\.title: text of 100,000 characters is longer than 65,536"),
    (_set("final.summary.coverage", "full"), r"^final\.summary\.coverage: must be a number"),
    (_set("final.summary", []), r"^final\.summary: must be a JSON object"),
    (_set("final.summary.evidence.refund", HUGE),
     r"^final\.summary\.evidence\.refund: not a finite number"),
    (_add_frontier_row, r"^final\.frontier\[0\]: has an unknown field 'evil'"),
    (_without_steps, r"^the bundle lacks the field 'steps'$"),
    (_set("labels", {"http://x/": "yes"}), r"^labels\['http://x/'\]: must be true or false"),
    (_set("config.limit", -5), r"^config\.limit: "),
    (_set("config.delay_s", HUGE), r"^config\.delay_s: not a finite number"),
    (_add_override({"step": 1, "kind": "relabel", "target": "u",
                    "changes": {"before": {"link_weights": [1, 2, 3]}}}),
     r"^overrides\[0\]\.changes\.before\.link_weights: must hold 5 items, not 3"),
    (_add_override({"step": 1, "kind": "relabel", "target": "u",
                    "changes": {"parents_moved": -3, "after": {"queue_head_score": 1.0}}}),
     r"^overrides\[0\]\.changes\.parents_moved: -3 is out of range"),
    (_set("responses.items.0.result.encoding", "no-such-codec"),
     r"^responses\.items\[0\]\.result\.encoding: unknown text encoding"),
    (_set("responses.items.0.result.status", BIG),
     r"^responses\.items\[0\]\.result\.status: an integer of 5,000 digits"),
    (_deep, "nests JSON too deeply"),
], ids=["5000-digit-int", "1e400-override", "inf-link-feature", "unknown-feature",
        "long-named-list", "cited-not-bool", "unit-weight-text", "units-not-list",
        "evidence-text", "evidence-per-term",
        "relevance-out-of-range", "nan-score", "huge-title", "summary-field", "summary-type",
        "summary-evidence-inf", "frontier-extra-field", "no-steps", "label-not-bool",
        "config-range", "config-inf", "relabel-changes", "relabel-queue-changes", "unknown-codec",
        "5000-digit-status", "deep-json"])
def test_a_bad_bundle_field_is_a_bundle_error_naming_its_path(
    bundle: dict[str, Any], change: Callable[[dict[str, Any]], None], message: str
) -> None:
    change(bundle)
    with pytest.raises(BundleError, match=message):
        load_portable(_text(bundle))


@pytest.mark.parametrize(("content", "message"), [
    (b"", "not valid JSON"),
    (b'{"format": "pagesift-session", "version": 1, "steps": [', "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8|not valid JSON"),
    (b"[1, 2]", "is a JSON object"),
    (b'{"format": "pagesift-session", "version": 7}', "^version: bundle version 7"),
], ids=["empty", "cut-json", "not-utf8", "not-an-object", "unknown-version"])
def test_a_file_that_is_no_bundle_is_refused(content: bytes, message: str) -> None:
    with pytest.raises(BundleError, match=message):
        load_portable(content)


def test_a_good_bundle_opens_with_its_responses(bundle: dict[str, Any]) -> None:
    opened = load_portable(_text(bundle))
    assert isinstance(opened.view, SessionView) and opened.responses
    assert [r.to_dict() for r in opened.view.steps] == bundle["steps"]  # nothing lost


# -- 4. bundle bombs: a total cap, memory bounded ------------------------------------------

_OPEN_BUNDLE = """
from pathlib import Path
from pagesift_ui.errors import BundleError
from pagesift_ui.store.portable import load_portable
try:
    opened = load_portable(Path(sys.argv[2]))
    result["answers"] = len(opened.responses or ())
except BundleError as exc:
    result["error"] = str(exc)
"""


def _bomb(bundle: dict[str, Any], bodies: int, size: int) -> dict[str, Any]:
    """The bundle with ``bodies`` recorded pages of ``size`` zero bytes each."""
    page = next(i for i in bundle["responses"]["items"] if "result" in i)
    body = base64.b64encode(zlib.compress(bytes(size), 9)).decode()
    bomb = copy.deepcopy(bundle)
    bomb["responses"]["items"] = [
        {**page, "url": f"{page['url']}?{n}", "result": {**page["result"], "body": body}}
        for n in range(bodies)
    ]
    return bomb


def test_a_bundle_of_many_bodies_each_under_the_limit_is_a_bomb_refused_in_bounded_memory(
    bundle: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "bomb.json"
    # each body inflates to just under max_body_bytes; 3.7 MB of them made 5.5 GB before
    path.write_bytes(_text(_bomb(bundle, 560, 4_999_000)))
    assert 3_500_000 < path.stat().st_size < 4_200_000
    child = run_in_child(_OPEN_BUNDLE, str(path))
    assert "all bodies together may take at most" in child.result["error"]
    assert child.result["error"].startswith("responses.items[")
    assert child.peak_mb < PEAK_RSS_LIMIT_MB


_OPEN_SNAPSHOT = """
from pathlib import Path
from pagesift_ui.errors import BundleError
from pagesift_ui.sweep.snapshot import load_payload, read_payload
try:
    loaded = load_payload(read_payload(Path(sys.argv[2])))
    result["answers"] = len(loaded.responses)
except BundleError as exc:
    result["error"] = str(exc)
"""


def test_the_same_bomb_as_a_sweep_snapshot_is_refused_in_bounded_memory(
    bundle: dict[str, Any], tmp_path: Path
) -> None:
    # a sweep spec's ``[[snapshots]] bundle = …`` is another way in for a bundle from outside
    path = tmp_path / "bomb.json"
    path.write_bytes(_text(_bomb(bundle, 560, 4_999_000)))
    child = run_in_child(_OPEN_SNAPSHOT, str(path))
    assert "all bodies together may take at most" in child.result["error"]
    assert child.peak_mb < PEAK_RSS_LIMIT_MB


def test_one_body_over_the_recorded_body_limit_is_refused(bundle: dict[str, Any]) -> None:
    bundle["config"]["max_body_bytes"] = 100_000
    message = _refused(_text(_bomb(bundle, 1, 200_000)))
    assert "result.body: the body of" in message and "inflates past 100,000 bytes" in message


def test_a_body_that_is_not_zlib_is_refused(bundle: dict[str, Any]) -> None:
    item = next(i for i in bundle["responses"]["items"] if "result" in i)
    item["result"]["body"] = base64.b64encode(b"plain text").decode()
    assert "result.body: not base64 of zlib data" in _refused(_text(bundle))


def test_a_bundle_file_over_the_size_cap_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as stream:  # sparse: no disk, no memory
        stream.truncate(MAX_FILE_BYTES + 1)
    assert "a bundle may be at most" in _refused(path)


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_bundle_path_that_is_no_file_is_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.json"
    if kind == "folder":
        path.mkdir()
    assert ("no such file" if kind == "missing" else "is a folder") in _refused(path)


# -- 9. WARC files ---------------------------------------------------------------------------


def _foreign_warc(*, gz: bool, uri: bool = True, pages: int = 3) -> bytes:
    buffer = BytesIO()
    writer = WARCWriter(buffer, gzip=gz)
    for n in range(pages):
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.0")
        body = b"<p>refund policy</p>" * 10
        record = writer.create_warc_record(f"http://x.test/{n}", "response", http_headers=http,
                                           payload=BytesIO(body), length=len(body))
        if not uri:
            record.rec_headers.remove_header("WARC-Target-URI")
        writer.write_record(record)
    return buffer.getvalue()


def _warc_refused(path: Path) -> str:
    with pytest.raises(WarcError) as caught:
        read_warc(path)
    return str(caught.value)


def test_a_warc_record_without_a_target_uri_is_a_warc_error(tmp_path: Path) -> None:
    path = tmp_path / "nouri.warc"
    path.write_bytes(_foreign_warc(gz=False, uri=False))
    assert "record 1 (response): a response record without WARC-Target-URI" in \
        _warc_refused(path)  # was AttributeError from inside warcio


def test_an_uncompressed_warc_cut_short_is_a_warc_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.warc"
    path.write_bytes(_foreign_warc(gz=False)[:-60])
    message = _warc_refused(path)  # was read silently: the last page 56 bytes short
    assert "record 3 (response http://x.test/2): cut short" in message


def test_a_foreign_warc_gz_cut_short_is_a_warc_error(tmp_path: Path) -> None:
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(_foreign_warc(gz=True)[:-30])
    assert "is cut short: it ends in a partial record" in _warc_refused(path)


def test_a_corrupt_gzip_member_in_the_middle_is_a_warc_error(tmp_path: Path) -> None:
    data = bytearray(_foreign_warc(gz=True))
    second = data.index(b"\x1f\x8b", 10)
    data[second + 20: second + 40] = bytes(20)  # was: everything from here silently dropped
    path = tmp_path / "corrupt.warc.gz"
    path.write_bytes(bytes(data))
    assert f"the gzip member at byte {second:,} is corrupt" in _warc_refused(path)


def test_a_pagesift_warc_whose_writer_was_killed_keeps_every_whole_record(
    recorded: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    whole = read_warc(recorded[1])
    data = recorded[1].read_bytes()
    path = tmp_path / "killed.warc.gz"
    path.write_bytes(data + gzip.compress(b"WARC/1.1\r\nWARC-Type: metadata\r\n")[:-12])
    torn = read_warc(path)
    assert torn.torn_bytes > 0 and whole.torn_bytes == 0
    assert torn.responses == whole.responses and torn.config == whole.config  # nothing lost


def _warc_bomb(megabytes: int) -> bytes:
    """One gzip member holding a response record of ``megabytes`` MiB of zeros (RFC 1952:
    after a full flush every further MiB compresses to the same block)."""
    chunk = bytes(1 << 20)
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    length = len(http) + megabytes * len(chunk)
    head = (b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.test/\r\n"
            b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"
            b"WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http\r\n"
            b"Content-Length: " + str(length).encode() + b"\r\n\r\n" + http)
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 31)
    out = [squeeze.compress(head) + squeeze.flush(zlib.Z_FULL_FLUSH)]
    first = squeeze.compress(chunk) + squeeze.flush(zlib.Z_FULL_FLUSH)
    block = squeeze.compress(chunk) + squeeze.flush(zlib.Z_FULL_FLUSH)
    out += [first, block * (megabytes - 1)]
    tail = b"\r\n\r\n"
    out.append(squeeze.compress(tail) + squeeze.flush())
    crc = zlib.crc32(head)
    for _ in range(megabytes):
        crc = zlib.crc32(chunk, crc)
    crc = zlib.crc32(tail, crc)
    body = b"".join(out)
    # the trailer the compressor wrote covers only what it saw once per block: rewrite it
    size = (len(head) + megabytes * len(chunk) + len(tail)) & 0xFFFFFFFF
    return body[:-8] + crc.to_bytes(4, "little") + size.to_bytes(4, "little")


_READ_WARC = """
from pathlib import Path
from pagesift_ui.errors import WarcError
from pagesift_ui.warc import read_warc
try:
    result["answers"] = len(read_warc(Path(sys.argv[2])).responses)
except WarcError as exc:
    result["error"] = str(exc)
"""


def test_a_warc_bomb_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "bomb.warc.gz"
    path.write_bytes(_warc_bomb(1024))  # 1 GiB of zeros in ~1 MB
    assert path.stat().st_size < 2_000_000
    child = run_in_child(_READ_WARC, str(path))
    assert "inflates to more than" in child.result["error"]
    assert child.peak_mb < PEAK_RSS_LIMIT_MB


def test_a_warc_over_the_size_cap_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.warc.gz"
    with path.open("wb") as stream:
        stream.truncate(MAX_WARC_BYTES + 1)
    assert "a WARC file may be at most" in _warc_refused(path)


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_warc_path_that_is_no_file_is_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.warc.gz"
    if kind == "folder":
        path.mkdir()
    assert ("no such file" if kind == "missing" else "is a folder") in _warc_refused(path)


def test_a_pagesift_warc_record_with_a_bad_field_names_the_record(tmp_path: Path) -> None:
    buffer = BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    payload = (b'{"format": "pagesift-warc", "version": 1, "config": {"limit": '
               + b"9" * 5000 + b"}}")
    writer.write_record(writer.create_warc_record(
        "urn:pagesift:session:x", "metadata", payload=BytesIO(payload), length=len(payload),
        warc_content_type="application/json"))
    path = tmp_path / "bad.warc.gz"
    path.write_bytes(buffer.getvalue())
    message = _warc_refused(path)
    assert "record 1 (metadata urn:pagesift:session:x).config.limit: an integer of 5,000" \
        in message


# -- 9. the app: an uploaded bundle is checked and shown escaped ---------------------------


def _hostile(bundle: dict[str, Any]) -> dict[str, Any]:
    bundle["config"]["query"] = f"refund {HOSTILE}"
    bundle["config"]["seed_url"] = bundle["config"]["seed_url"] + "?q=![x](http://127.0.0.1:1/x)"
    for step in bundle["steps"]:
        step["title"] = HOSTILE
        step["subtree"] = "a`b ![x](http://127.0.0.1:1/y.png)"
    return bundle


def _shown(at: AppTest) -> list[str]:
    """Every Markdown text the page shows."""
    elements = [*at.markdown, *at.caption, *at.info, *at.error, *at.warning, *at.success]
    return [str(element.value) for element in elements]


def test_an_uploaded_hostile_bundle_renders_escaped(bundle: dict[str, Any]) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    data = _text(_hostile(bundle))
    at.file_uploader(key="upload").set_value((f"{HOSTILE}.json", data, "application/json"))
    at.run()
    assert not at.exception
    assert isinstance(at.session_state.session, SessionView)
    shown = [_without_self_links(text) for text in _shown(at)]
    assert any(r"!\[x\](http://127.0.0.1:1/x.png) \<img" in text for text in shown)
    assert not [t for t in shown if UNESCAPED.search(t)]  # no image, no link, no HTML
    session = at.session_state.session
    if isinstance(session, CrawlSession):
        session.close()


def test_an_uploaded_bad_bundle_shows_the_field_and_keeps_the_open_session(
    bundle: dict[str, Any],
) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.run()
    good = _text(bundle)
    at.file_uploader(key="upload").set_value(("good.json", good, "application/json")).run()
    opened = at.session_state.session
    _set("steps.L.link.features.2.value", f"![x](http://127.0.0.1:1/z.png){HUGE}")(bundle)
    at.file_uploader(key="upload").set_value(("bad.json", _text(bundle), "application/json"))
    at.run()
    assert not at.exception and at.session_state.session is opened
    (error,) = [e.value for e in at.error]
    assert r"link.features\[2\].value: must be a number" in error
    assert "![x](" not in error
