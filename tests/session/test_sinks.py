"""The session tells its sinks of every step, override and ending, and refuses to go on when
one of them failed or a step broke off half-way. One loop steps a session."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

from pagesift_ui.errors import SessionBroken, SessionDone
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    Override,
    OverrideKind,
    ReadableSession,
    SessionEnd,
    StepRecord,
)
from tests.fakes import FIXTURE_ORIGIN, DictSource, fixture_source, policy_for
from tests.interrupt import Interrupting

ROOT = Path(__file__).resolve().parents[2]


class ListSink:
    """Writes down what it is told, and what the session looked like then."""

    def __init__(self) -> None:
        self.heard: list[tuple[Any, ...]] = []

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        assert session.steps[-1] is record, "told after the record was appended"
        self.heard.append(("step", record.step))

    def on_override(self, session: ReadableSession, override: Override) -> None:
        assert session.overrides[-1] is override, "told after the override took effect"
        self.heard.append(("override", override.kind))

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None:
        assert session.done and session.stop_reason is end.reason
        self.heard.append(("end", end.reason, end.step, end.queue_empty))


class FailingSink(ListSink):
    """Raises on its ``at``-th step."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at = at

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        super().on_step(session, record)
        if record.step == self.at:
            raise OSError("disk full (simulated)")


def config(**settings: object) -> CrawlConfig:
    values = {"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy", "limit": 40,
              "delay_s": 0.0, **settings}
    return CrawlConfig.from_mapping(values)


def session_with(*sinks: ListSink, **settings: object) -> CrawlSession:
    crawl = config(**settings)
    return CrawlSession(crawl, fixture_source(policy=policy_for(crawl)), sinks=sinks)


def test_sinks_hear_each_step_then_the_end_once_per_ending() -> None:
    sink = ListSink()
    with session_with(sink) as session:
        records = session.run()
        assert session.stop_reason is StopReason.COVERAGE_REACHED
        n = len(records)
        assert sink.heard == [*(("step", i) for i in range(1, n + 1)),
                              ("end", StopReason.COVERAGE_REACHED, n, False)]
        session.forgive()
        more = session.run(max_steps=2)
        assert sink.heard[n + 1:] == [("override", OverrideKind.FORGIVE),
                                      *(("step", r.step) for r in more)]
        session.stop()
        assert sink.heard[-2:] == [("override", OverrideKind.STOP),
                                   ("end", StopReason.CANCELLED, n + 2, False)]
        assert [h[0] for h in sink.heard].count("end") == 2


def test_an_empty_queue_found_by_a_step_call_is_an_end_without_a_step() -> None:
    sink = ListSink()
    with session_with(sink) as session:
        session.step()
        parts = sorted({row.subtree for row in session.frontier(100)})
        for part in parts:
            session.force_dry(part)
        with pytest.raises(SessionDone, match="queue is empty"):
            session.step()
    assert sink.heard == [
        ("step", 1),
        *(("override", OverrideKind.FORCE_DRY) for _ in parts),
        ("end", StopReason.EXHAUSTED, 1, True),
    ]


def test_sinks_attached_later_hear_from_then_on_and_are_found_by_type() -> None:
    first, later = ListSink(), FailingSink(at=0)
    with session_with(first) as session:
        session.step()
        session.add_sink(later)
        session.step()
        assert session.sinks == (first, later)
        assert session.find_sink(FailingSink) is later
        assert session.find_sink(ListSink) is first  # the first that is one
        assert session.find_sink(DictSource) is None
    assert later.heard == [("step", 2)]


def test_a_failed_sink_breaks_the_session_until_it_is_removed() -> None:
    failing, other = FailingSink(at=2), ListSink()
    with session_with(failing, other) as session:
        session.step()
        with pytest.raises(OSError, match="disk full"):
            session.step()
        assert len(session.steps) == 2 and other.heard[-1] == ("step", 2), "all were told"
        for _ in range(2):
            with pytest.raises(SessionBroken, match="FailingSink failed .*disk full.*resume"):
                session.run()
        session.pin(session.frontier(2)[-1].key)  # steering works in memory ...
        assert other.heard[-1] == ("step", 2)  # ... but a broken session tells nobody
        session.remove_sink(failing)
        assert session.run(max_steps=1)[0].step == 3
        assert other.heard[-1] == ("step", 3)


def test_a_step_interrupted_half_way_breaks_the_session_for_good() -> None:
    sink, crawl = ListSink(), config()
    source = Interrupting(fixture_source(policy=policy_for(crawl)), at=2)
    with CrawlSession(crawl, source, sinks=[sink]) as session:
        session.step()
        with pytest.raises(KeyboardInterrupt):
            session.run()
        with pytest.raises(SessionBroken, match="step 2 was interrupted .*resume the session"):
            session.step()
        session.remove_sink(sink)
        with pytest.raises(SessionBroken, match="interrupted"):
            session.step()
    assert sink.heard == [("step", 1)]


def test_only_the_one_loop_calls_step() -> None:
    """``CrawlSession.iter_steps`` is the only caller of ``step()`` in the code (not tests)."""
    callers = []
    files = [*(ROOT / "pagesift_ui").rglob("*.py"), *(ROOT / "components").rglob("*.py"),
             ROOT / "app.py"]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "step" and not node.args):
                    callers.append(f"{path.relative_to(ROOT)}:{func.name}")
    assert sorted(set(callers)) == ["pagesift_ui/session/crawl.py:iter_steps"]


def test_session_classes_have_no_base_but_protocols_enums_and_errors() -> None:
    import enum
    import typing

    import pagesift_ui.session as package

    allowed = (object, typing.Protocol, typing.Generic, enum.Enum, str, Exception)
    for path in (ROOT / "pagesift_ui" / "session").glob("*.py"):
        module = __import__(f"pagesift_ui.session.{path.stem}", fromlist=["_"])
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for base in cls.__bases__:
                ok = base in allowed or issubclass(base, enum.Enum | Exception) or getattr(
                    base, "_is_protocol", False)
                assert ok, f"{cls.__qualname__} in {path.name} derives from {base.__name__}"
    assert CrawlSession.__bases__ == (object,)
    assert package.CrawlSession is CrawlSession


def test_the_step_record_builder_does_not_know_the_session() -> None:
    source = (ROOT / "pagesift_ui" / "session" / "stepbuild.py").read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom)}
    assert "pagesift_ui.session.crawl" not in imported
    assert "session" not in inspect.signature(
        __import__("pagesift_ui.session.stepbuild", fromlist=["_"]).build_record).parameters
