"""The Run tick (components/runner.py) on real crawls: what it pauses at, and what it says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from components.runner import RunMode, TickEnd, advance, pause_message
from pagesift_ui.demo import build_site, lesson_of
from pagesift_ui.session import CrawlConfig, CrawlSession, VerdictFate
from tests.fakes import demo_seed, demo_source


def _session(name: str, **settings: object) -> CrawlSession:
    site = build_site(name)
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       **settings})
    return CrawlSession(config, demo_source(site))


@pytest.fixture
def university() -> Iterator[CrawlSession]:
    with _session("university") as session:
        yield session


def _run(session: CrawlSession, mode: RunMode, **options: object) -> list[TickEnd]:
    """Press Run until the crawl stops: the end of every tick."""
    ends = []
    while not session.done:
        result = advance(session, mode, budget_s=60, **options)  # type: ignore[arg-type]
        ends.append(result.end)
    return ends


def test_run_goes_through_self_forgiven_verdicts_by_default(university: CrawlSession) -> None:
    assert _run(university, RunMode.RUN) == [TickEnd.STOPPED]
    assert any(v.fate is VerdictFate.AUTO_FORGIVEN for v in university.verdicts)


def test_run_can_pause_at_every_self_forgiven_verdict(university: CrawlSession) -> None:
    ends = _run(university, RunMode.RUN, pause_on_forgiven=True)
    forgiven = [v for v in university.verdicts if v.fate is VerdictFate.AUTO_FORGIVEN]
    assert ends == [TickEnd.VERDICT] * len(forgiven) + [TickEnd.STOPPED]


def test_run_pauses_at_a_verdict_that_stood_when_the_crawl_goes_on() -> None:
    with _session("helpdesk", stop_on_verdict=False, limit=30) as session:
        result = advance(session, RunMode.RUN, budget_s=60)
        assert result.end is TickEnd.VERDICT and result.record is not None
        assert result.record.verdict_fate is VerdictFate.NO_STOP
        assert "It stood, and with Stop on verdict off the crawl goes on" in result.message
        assert advance(session, RunMode.TO_STOP, budget_s=60).end is TickEnd.STOPPED


def test_the_pause_message_counts_what_the_tiles_show(university: CrawlSession) -> None:
    result = advance(university, RunMode.RUN, budget_s=60, pause_on_forgiven=True)
    record = result.record
    assert record is not None and record.verdict_fate is VerdictFate.AUTO_FORGIVEN
    patience = university.config.adaptive.patience
    assert record.verdict_stale > 0 and record.stale == 0
    assert f"Stale was {record.verdict_stale} / {patience}" in result.message
    assert f"the Stale tile reads 0 / {patience} again" in result.message
    assert result.message == pause_message(record, university.config)


def test_run_to_the_lesson_stops_at_the_lessons_step() -> None:
    lesson = lesson_of("bakery")
    assert lesson is not None
    with _session("bakery", **lesson.settings) as session:
        result = advance(session, RunMode.TO_STOP, budget_s=60, until=lesson.reached)
        assert result.end is TickEnd.REACHED and result.record is session.steps[-1]
        assert lesson.reached(result.record) and session.stop_reason is lesson.reason
        assert result.message.endswith("the crawl stopped with saturated")


def test_until_ends_a_tick_before_the_crawl_stops(university: CrawlSession) -> None:
    result = advance(university, RunMode.TO_STOP, budget_s=60, until=lambda r: r.step == 4)
    assert (result.end, len(university.steps), university.done) == (TickEnd.REACHED, 4, False)
    assert result.message == "step 4 reached"


class _Clicked(Exception):
    """Stands for Streamlit's rerun, raised at a yield point when a click is pending."""


def test_a_pending_click_ends_the_tick_between_two_steps(university: CrawlSession) -> None:
    calls: list[int] = []

    def yield_point() -> None:
        calls.append(len(university.steps))
        if len(calls) == 3:
            raise _Clicked

    with pytest.raises(_Clicked):
        advance(university, RunMode.TO_STOP, budget_s=60, yield_point=yield_point)
    assert calls == [1, 2, 3]  # after each whole step, never inside one
    assert [r.step for r in university.steps] == [1, 2, 3]
    # the session goes on from there, as after a whole tick
    assert advance(university, RunMode.TO_STOP, budget_s=0).steps == 1
    assert [r.step for r in university.steps] == [1, 2, 3, 4]


def test_the_yield_point_is_not_called_after_the_ticks_last_step(
    university: CrawlSession,
) -> None:
    ticks = iter([0.0, 0.1, 0.2, 5.0])  # the budget of 1 s is spent at the third step
    calls: list[int] = []
    result = advance(university, RunMode.TO_STOP, budget_s=1.0, clock=lambda: next(ticks),
                     yield_point=lambda: calls.append(len(university.steps)))
    assert result.end is TickEnd.BUDGET and result.steps == 3
    assert calls == [1, 2]
