"""The session bundle: export → import → export, and hostile or broken files."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagesift_ui.errors import BundleError
from pagesift_ui.session import CrawlConfig, CrawlSession, OverrideKind
from pagesift_ui.session.bundle import bundle_json, load_bundle, pages_csv, session_bundle
from pagesift_ui.session.views import page_budget
from pagesift_ui.store.portable import load_portable
from tests.fakes import FIXTURE_ORIGIN, fixture_source, policy_for


@pytest.fixture(scope="module")
def crawled() -> Iterator[CrawlSession]:
    config = CrawlConfig.from_mapping(
        {"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy", "limit": 12, "delay_s": 0.0}
    )
    with CrawlSession(config, fixture_source(policy=policy_for(config))) as session:
        session.step()
        session.step()
        session.pin(session.frontier(5)[-1].key)
        session.run()
        session.relabel(session.steps[0].final_url, True)
        yield session


def test_export_import_export_gives_the_same_bundle(crawled: CrawlSession) -> None:
    first = bundle_json(session_bundle(crawled))
    view = load_bundle(first)
    second = bundle_json(session_bundle(view))
    assert first == second
    again = load_bundle(second.encode("utf-8"))
    assert again.steps == crawled.steps
    assert again.overrides == crawled.overrides
    assert again.labels == crawled.labels


def test_bundle_has_the_documented_top_level(crawled: CrawlSession) -> None:
    bundle = json.loads(bundle_json(session_bundle(crawled)))
    assert bundle["format"] == "pagesift-session" and bundle["version"] == 1
    assert bundle["config"]["query"] == "refund policy"
    assert [s["step"] for s in bundle["steps"]] == list(range(1, len(crawled.steps) + 1))
    assert bundle["stop_reason"] == crawled.first_verdict
    assert bundle["stop_step"] == crawled.stop_step
    assert [o["kind"] for o in bundle["overrides"]] == ["pin", "relabel"]
    assert all("relevance" in s and "verdict" in s for s in bundle["steps"])


def test_imported_view_answers_like_the_live_session(crawled: CrawlSession) -> None:
    view = load_bundle(bundle_json(session_bundle(crawled)))
    assert view.read_only and view.done
    assert view.config == crawled.config
    assert view.pages() == crawled.pages()
    assert view.wilson_table() == crawled.wilson_table()
    assert view.frontier(5) == crawled.frontier(5)
    assert view.summary() == crawled.summary()
    assert view.overrides[0].kind is OverrideKind.PIN


def test_pages_csv_has_one_row_per_step(crawled: CrawlSession) -> None:
    rows = list(csv.DictReader(io.StringIO(pages_csv(crawled))))
    assert len(rows) == len(crawled.steps)
    assert rows[0]["step"] == "1" and rows[0]["user_label"] == "True"
    assert pages_csv(load_bundle(bundle_json(session_bundle(crawled)))) == pages_csv(crawled)


def test_a_bundle_file_can_be_read_from_a_path(crawled: CrawlSession, tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text(bundle_json(session_bundle(crawled)), encoding="utf-8")
    assert load_bundle(target).steps == crawled.steps


def _mutated(crawled: CrawlSession, change: object) -> str:
    bundle = json.loads(bundle_json(session_bundle(crawled)))
    change(bundle)  # type: ignore[operator]
    return json.dumps(bundle)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.update(format="other"), "not a pagesift session bundle"),
        (lambda b: b.update(version=99), "version 99 is not supported"),
        (lambda b: b["config"].update(limit=-5), "config is invalid: limit"),
        (lambda b: b["config"].update(seed_url="file:///etc/passwd"), "http"),
        (lambda b: b["steps"][0].update(relevance="high"), r"steps\[0\]: 'relevance'"),
        (lambda b: b["steps"][1].pop("coverage"), r"steps\[1\] lacks the field 'coverage'"),
        (lambda b: b["steps"][0].update(step=7), "step number 7"),
        (lambda b: b["steps"][0].update(outcome="exploded"), r"steps\[0\] is malformed"),
        (lambda b: b["overrides"].append({"step": 1, "kind": "rm -rf"}), r"overrides\[2\]"),
        (lambda b: b.update(labels={"x": "yes"}), "labels"),
        (lambda b: b["final"].update(stop_reason="because"), "not a stop reason"),
        (lambda b: b.update(steps={}), "'steps' must be a JSON list"),
        (lambda b: b.pop("steps"), "^the bundle lacks the field 'steps'$"),
        # its steps cut: "0 steps · stop step 10" in the comparison
        (lambda b: b["final"].update(stop_step=len(b["steps"]) + 1),
         r"final.stop_step \d+ is not one of the bundle's \d+ steps"),
    ],
)
def test_broken_bundles_give_a_clear_error(
    crawled: CrawlSession, change: object, message: str
) -> None:
    with pytest.raises(BundleError, match=message):
        load_bundle(_mutated(crawled, change))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json at all", "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ('{"format": "pagesift-session", "version": 1, "x": NaN}', "NaN"),
        ("[" * 100_000 + "]" * 100_000, "nests JSON too deeply"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
    ],
)
def test_files_that_are_not_bundles_are_refused(text: str | bytes, message: str) -> None:
    with pytest.raises(BundleError, match=message):
        load_bundle(text)


def test_one_cap_for_every_way_a_bundle_is_read(tmp_path: Path) -> None:
    # the loader took 512 MiB, the replay reader 256 MiB
    from pagesift_ui.session.bundle import MAX_BUNDLE_BYTES
    from pagesift_ui.store.portable import MAX_FILE_BYTES

    assert MAX_FILE_BYTES == MAX_BUNDLE_BYTES == 256 * 1024 * 1024
    big = tmp_path / "big.json"
    with big.open("wb") as stream:
        stream.truncate(MAX_BUNDLE_BYTES + 1)  # sparse: no disk is used
    with pytest.raises(BundleError, match="is larger than"):
        load_bundle(big)


def test_a_raised_budget_travels_in_the_bundle() -> None:
    config = CrawlConfig.from_mapping(
        {"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy", "limit": 3, "delay_s": 0.0,
         "stop_on_verdict": False})
    with CrawlSession(config, fixture_source(policy=policy_for(config))) as session:
        session.run()
        session.raise_limit(5)
        session.run()
        view = load_bundle(bundle_json(session_bundle(session)))
    assert view.config.limit == 3  # the settings the crawl started with
    assert page_budget(view) == page_budget(session) == 5
    assert [(o.kind, o.target) for o in view.overrides] == [(OverrideKind.RAISE_LIMIT, "5")]
    assert view.steps[-1].pages_scheduled == 5


@pytest.mark.parametrize("target", ["abc", "0", "100001", "", "٣", "9" * 400])
def test_a_raised_budget_that_is_no_page_count_is_refused(target: str) -> None:
    # "abc" opened, and the log read "you raised the page budget to abc pages" (found by
    # using the app)
    config = CrawlConfig.from_mapping(
        {"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy", "limit": 3, "delay_s": 0.0})
    with CrawlSession(config, fixture_source(policy=policy_for(config))) as session:
        session.run()
        session.raise_limit(5)
        bundle = json.loads(bundle_json(session_bundle(session)))
    bundle["overrides"][0]["target"] = target
    with pytest.raises(BundleError, match=r"overrides\[0\] is malformed: a raised page budget "
                                          "is a whole number of pages from 1 to 100,000"):
        load_bundle(json.dumps(bundle))
    with pytest.raises(BundleError, match="overrides\\[0\\].target: a raised page budget"):
        load_portable(json.dumps(bundle).encode("utf-8"))
