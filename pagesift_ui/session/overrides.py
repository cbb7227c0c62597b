"""The user's overrides of a crawl's decisions, each recorded as an event with its step."""

from __future__ import annotations

import logging

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.base import SessionBase
from pagesift_ui.session.record import Override, OverrideKind

__all__ = ["OverridesMixin"]

logger = logging.getLogger(__name__)

_FORGIVABLE = (StopReason.COVERAGE_REACHED, StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES)


class OverridesMixin(SessionBase):
    """Override methods of ``CrawlSession`` (kept apart: one concern per module)."""

    def _init_overrides(self) -> None:
        self.overrides = []
        self.labels = {}  # url → the user's label
        self._page_signals = {}  # url → stored page signal (relevance is recomputable)
        self._link_signals = {}  # url → the signal of the link that led to it
        self._relevant_urls = set()

    def _record(
        self, kind: OverrideKind, target: str = "", value: bool | None = None,
        note: str = "",
    ) -> Override:
        event = Override(len(self.steps), kind, target, value, note)
        self.overrides.append(event)
        logger.info("override at step %d: %s %s", event.step, kind.value, target)
        return event

    def forgive(self, note: str = "") -> Override:
        """Continue past the stop verdict that stopped the crawl ("continue anyway")."""
        if not self.done or self.stop_reason not in _FORGIVABLE:
            status = f"stopped by {self.stop_reason}" if self.done else "running"
            raise ValueError(
                f"nothing to forgive: the crawl is {status}; only coverage_reached, saturated "
                "and no_relevant_pages can be continued past"
            )
        reason = self.stop_reason
        self.state.adaptive.forgive()
        self.state.adaptive.reset_cold()
        self.done, self.stop_reason = False, None
        if self.verdicts:
            step, verdict, _ = self.verdicts[-1]
            self.verdicts[-1] = (step, verdict, "forgiven by the user")
        return self._record(OverrideKind.FORGIVE, str(reason), note=note or "continue anyway")

    def stop(self, note: str = "") -> Override:
        """Stop now (``cancelled``)."""
        if self.done:
            raise ValueError(f"the crawl has already stopped: {self.stop_reason}")
        self._end(StopReason.CANCELLED, len(self.steps))
        return self._record(OverrideKind.STOP, note=note or "stopped by the user")

    def relabel(self, url: str, relevant: bool) -> Override:
        """Label a fetched page relevant or not; the label teaches the link model once more."""
        if url not in self._page_signals:
            raise ValueError(f"{url} is not a fetched page of this session")
        self.labels[url] = bool(relevant)
        signal = self._link_signals.get(url)
        if signal is not None and self.state.focus.learn(signal, bool(relevant)):
            self.state.rescore()
        word = "relevant" if relevant else "irrelevant"
        return self._record(OverrideKind.RELABEL, url, bool(relevant), f"labelled {word}")

    def force_dry(self, part: str) -> Override:
        """Treat a subtree as dry: its queued links are dropped when they come up."""
        self.state.kept_open.discard(part)
        self.state.forced_dry.add(part)
        return self._record(OverrideKind.FORCE_DRY, part, note="forced dry")

    def keep_open(self, part: str) -> Override:
        """Never treat a subtree as dry, whatever its Wilson interval says."""
        self.state.forced_dry.discard(part)
        self.state.kept_open.add(part)
        self._reopen_if_fetchable()
        return self._record(OverrideKind.KEEP_OPEN, part, note="kept open")

    def clear_subtree(self, part: str) -> Override:
        """Back to the statistics' verdict for a subtree."""
        self.state.forced_dry.discard(part)
        self.state.kept_open.discard(part)
        self._reopen_if_fetchable()
        return self._record(OverrideKind.CLEAR_SUBTREE, part, note="statistics decide again")

    def pin(self, key: str) -> Override:
        """Fetch this queued link next (pins are served in pin order)."""
        if not self.state.queue.pin(key):
            raise ValueError(f"{key} is not in the queue")
        return self._record(OverrideKind.PIN, key, note="pinned to the front")

    def drop(self, key: str) -> Override:
        """Remove a queued link."""
        if self.state.queue.drop(key) is None:
            raise ValueError(f"{key} is not in the queue")
        return self._record(OverrideKind.DROP, key, note="dropped from the queue")

    def _reopen_if_fetchable(self) -> None:
        if self.done and self.stop_reason is StopReason.EXHAUSTED and self._has_fetchable():
            self.done, self.stop_reason = False, None
