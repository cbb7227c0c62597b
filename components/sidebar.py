"""The setup form in the sidebar: target, query, limit, stop rules, advanced settings.

Widgets only collect plain values; ``CrawlConfig.from_mapping`` is the one place that
validates them, and its ``ConfigError.field`` says next to which widget the message goes.
Defaults come from ``CrawlConfig`` and ``AdaptiveOptions``, never from here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping, MutableMapping
from typing import Any

import streamlit as st
from streamlit.elements.lib.mutable_expander_container import ExpanderContainer

from components.labels import LINKS_READ_LABEL, STOP_REASONS
from components.persist import saving_of, start_crawl
from components.runner import RunMode
from components.state import (
    STATE_DEFAULTS,
    StateKey,
    add_flash,
    discard_session,
    ensure_defaults,
    set_session,
)
from components.targets import (
    DEFAULT_SCENARIO,
    TARGET_DEMO,
    TARGET_URL,
    TARGETS,
    demo_info,
    demo_truth,
    resolve_target,
)
from pagesift_ui.demo import SCENARIOS, Lesson, lesson_of
from pagesift_ui.errors import ConfigError, PagesiftError
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.session import CrawlConfig, Scope
from pagesift_ui.session.config import Language, RenderMode, setting_values, settings_mapping

__all__ = [
    "apply_lesson_settings",
    "config_mapping",
    "form_defaults",
    "form_settings",
    "init_state",
    "render_setup",
    "setup_errors",
    "show_settings",
]

logger = logging.getLogger(__name__)

ADAPTIVE_KEYS = ("coverage_threshold", "evidence_per_term", "patience", "min_gain")

#: What the form calls each setting, by the field a ``ConfigError`` names, for each part of
#: the form: the inputs are drawn with these labels, so a failed Start names its field as the
#: form shows it, and an error in a folded part opens that part. One table per part, so a new
#: setting cannot be labelled in one list and folded by another.
SETUP_LABELS = {
    "target": "Target", "scenario": "Demo scenario", "seed_url": "Start URL",
    "folder": "Folder", "query": "Query", "config": "Setup",
}
LIMIT_LABELS = {
    "limit": "Page limit", "adaptive": "Stop rules",
    "coverage_threshold": "Coverage threshold", "evidence_per_term": "Evidence per term",
    "patience": "Patience", "min_gain": "Minimum gain",
    "forgive_leads": "Forgive while a lead is pending",
    "lead_bar_new_evidence": "Lead bar: links that brought new evidence",
    "forgive_thin_evidence": "Forgive 'saturated' while most terms lack evidence",
    "forgive_still_finding": "Forgive while relevant pages still come",
    "link_blocks_as_evidence": "Count link-only blocks as evidence",
    "delay_s": "Delay between requests (s)", "respect_robots": "Respect robots.txt",
    "use_sitemaps": "Seed from the sitemaps",
}
ADVANCED_LABELS = {
    "delta": "δ (error rate)", "prior_weights": "Prior link weights",
    "dispersion_cap": "Dispersion cap", "scope": "Scope",
    "meaning_weight": "Weight of meaning", "link_meaning_weight": "Weight of link meaning",
    "link_meaning_quantile": "Link meaning: lifted above this share of links",
    "learn_copy_parameters": "Learn parameters that make copies",
    "max_links_per_page": LINKS_READ_LABEL, "language": "Query language",
    "concurrency": "Fetches in flight", "per_host": "Requests per host at a time",
    "stop_on_verdict": "Stop on verdict", "allow_private": "Allow private addresses",
    "user_agent": "User-Agent", "max_sitemap_urls": "Sitemap URLs at most",
    "render": "Render JavaScript", "render_deadline_s": "Render deadline (s)",
}
FIELD_LABELS = SETUP_LABELS | LIMIT_LABELS | ADVANCED_LABELS
#: Fields inside the "Page limit and stop rules" and "Advanced" expanders: an error opens it.
LIMIT_FIELDS = frozenset(LIMIT_LABELS)
ADVANCED_FIELDS = frozenset(ADVANCED_LABELS)
#: The ``SETTINGS`` the form shows, each under its own name as the widget key: every field
#: of the two folded parts but the two that are not one input ("adaptive" names the stop
#: rules as a whole, "prior_weights" is an input per feature, ``PRIOR_KEYS``).
FORM_SETTINGS = tuple(field for field in LIMIT_LABELS | ADVANCED_LABELS
                      if field not in ("adaptive", "prior_weights"))
PRIOR_KEYS = tuple(f"prior_{name}" for name in FEATURE_NAMES)


def form_defaults() -> dict[str, Any]:
    """Initial widget values, read off the config dataclasses (defaults live there only)."""
    fields = {f.name: f.default for f in dataclasses.fields(CrawlConfig)
              if f.default is not dataclasses.MISSING}
    adaptive = AdaptiveOptions()
    values: dict[str, Any] = {
        "target": TARGET_DEMO,
        "scenario": DEFAULT_SCENARIO,
        "url": "https://",
        "folder": "",
        "query": "",
        # every form setting that is a config field takes its default as it is (a new
        # setting needs no entry here); the enums as their values (a radio's options)
        **{key: fields[key] for key in FORM_SETTINGS if key in fields},
        "scope": Scope(fields["scope"]).value,
        "language": Language(fields["language"]).value,
        "render": RenderMode(fields["render"]).value,
        **{key: getattr(adaptive, key) for key in ADAPTIVE_KEYS},
    }
    values.update({key: float(w) for key, w in zip(PRIOR_KEYS, fields["prior_weights"],
                                                    strict=True)})
    return values


def config_mapping(values: Mapping[str, Any], seed_url: str) -> dict[str, Any]:
    """The ``CrawlConfig.from_mapping`` input for the form's values (no validation here).

    Widget keys are ``SETTINGS`` names, so the CLI's option-to-config mapping
    (``settings_mapping``) is this form's too.
    """
    return settings_mapping({
        **{key: values[key] for key in FORM_SETTINGS},
        "seed_url": seed_url,
        "query": values["query"],
        "prior_weights": [values[key] for key in PRIOR_KEYS],
    })


def form_settings(config: CrawlConfig) -> dict[str, Any]:
    """The form's values of ``config``'s query and settings: what ``config_mapping`` turns
    back into ``config`` (the target, which the start URL comes from, is left out)."""
    values: dict[str, Any] = {"query": config.query}
    values.update((name, value) for name, value in setting_values(config).items()
                  if name in FORM_SETTINGS or name in ADAPTIVE_KEYS)
    values.update({key: float(w) for key, w in zip(PRIOR_KEYS, config.prior_weights,
                                                    strict=True)})
    return values


def show_settings(ss: MutableMapping[StateKey, Any], config: CrawlConfig) -> None:
    """Put an opened session's query and settings in the form (from a widget callback):
    after Resume or an upload the form kept the previous Start's, and "Replay with these
    settings" replayed the open session with another query (the twenty-ninth session's
    probe). The target and start URL stay as they are: a replay keeps the recorded one."""
    for key, value in form_settings(config).items():
        ss[key] = value


def init_state(ss: MutableMapping[StateKey, Any]) -> None:
    """Defaults for every key; the query starts as the default scenario's query."""
    first_run = "target" not in ss
    ensure_defaults(ss, STATE_DEFAULTS)
    defaults = form_defaults()
    for key in defaults:
        if key in ss:
            # Streamlit forgets the value of a widget that is not drawn in a run (the scenario
            # while the target is a URL); re-setting it here keeps it.
            ss[key] = ss[key]
    ensure_defaults(ss, defaults)
    if first_run and not ss.get("query"):
        try:
            ss["query"] = demo_info(ss["scenario"])[0]
        except ConfigError as exc:
            ss["field_errors"] = {exc.field: exc.message}


# -- callbacks ----------------------------------------------------------------------------


def on_scenario_change() -> None:
    ss = st.session_state
    try:
        ss["query"] = demo_info(ss["scenario"])[0]
    except ConfigError as exc:
        ss["field_errors"] = {exc.field: exc.message}
    apply_lesson_settings(ss, lesson_of(ss["scenario"]))


def on_target_change() -> None:
    """A lesson's settings belong to its demo: leaving the demo target puts back the
    defaults they replaced, and coming back lays them over the form again. A crawl of a
    real site ran with the helpdesk lesson's lead forgiveness off, or the fieldguide's page
    limit of 15, without a word (found by using the app)."""
    ss = st.session_state
    lesson = lesson_of(ss.get("scenario") or "") if ss["target"] == TARGET_DEMO else None
    changed = [FIELD_LABELS.get(key, key) for key in ss.get("lesson_settings") or ()]
    apply_lesson_settings(ss, lesson)
    if lesson is None and changed:
        add_flash(ss, "info", f"The lesson's settings ({', '.join(changed)}) are back at "
                              "their defaults for this target.")


def apply_lesson_settings(ss: MutableMapping[StateKey, Any], lesson: Lesson | None) -> None:
    """Lay a lesson's settings over the form (the fieldguide's page limit), and put back the
    defaults of those a lesson chosen before had changed."""
    defaults = form_defaults()
    for key in ss.get("lesson_settings") or ():
        if key in defaults:
            ss[key] = defaults[key]
    applied = []
    for key, value in (lesson.settings.items() if lesson is not None else ()):
        if key in defaults:
            ss[key] = value
            applied.append(key)
    ss["lesson_settings"] = tuple(applied)


def on_run_to_lesson() -> None:
    """Start the chosen scenario's lesson and run until it happens (``Lesson.reached``) or
    the crawl stops: every stop reason in under a minute."""
    ss = st.session_state
    lesson = lesson_of(ss.get("scenario") or "")
    if lesson is None or ss.get("target") != TARGET_DEMO:
        return
    apply_lesson_settings(ss, lesson)
    on_start()
    if ss.get("field_errors") or ss.get("session") is None:
        return
    ss["lesson"] = lesson.scenario
    ss["run_mode"] = RunMode.TO_STOP.value
    ss["running"] = True


def on_start() -> None:
    """Validate the form, then start. The current session is replaced only once the new one
    has started: a bad value leaves it on screen, with the message under Start."""
    ss = st.session_state
    values: dict[str, Any] = {key: ss.get(key) for key in form_defaults()}
    ss["field_errors"] = {}
    try:
        target = resolve_target(values["target"], values["scenario"], values["url"] or "",
                                values["folder"] or "")
    except ConfigError as exc:
        ss["field_errors"] = {exc.field: exc.message}
        return
    try:
        config = CrawlConfig.from_mapping(config_mapping(values, target.seed_url))
        opened = start_crawl(config)
    except (PagesiftError, ValueError) as exc:
        if target.server is not None:
            target.server.stop()
        field = exc.field if isinstance(exc, ConfigError) else "config"
        message = exc.message if isinstance(exc, ConfigError) else str(exc)
        ss["field_errors"] = {field: message}
        return
    set_session(ss, opened.session)  # closes the one before (and its folder server)
    ss["static_server"] = target.server
    ss["lesson"] = None  # Run to the lesson sets it after this
    # the answer key of the query asked (a demo knows its own query's and the multilingual
    # site's German one; another query's answers are not known, so no recall is shown)
    ss["truth"] = (demo_truth(config.seed_url, config.query)
                   if values["target"] == TARGET_DEMO else None)
    if opened.warning:
        add_flash(ss, "warning", opened.warning)
    logger.info("session started on %s for %r", config.seed_url, config.query)


def on_reset() -> None:
    ss = st.session_state
    saved = saving_of(ss.get("session"))
    kept = saved is not None and bool(ss["session"].steps)
    discard_session(ss)
    ss["field_errors"] = {}
    # "discarded" while the crawl stayed in Saved sessions (found by using the app)
    add_flash(ss, "info", (
        f"Session closed; it is kept as saved session {saved.session_id} (Saved sessions → "
        "Resume). Change the setup and press Start." if kept and saved is not None else
        "Session closed. Change the setup and press Start."))


# -- rendering ----------------------------------------------------------------------------

def setup_errors(ss: Mapping[StateKey, Any]) -> list[str]:
    """The last failed Start's messages, each naming its field as the form labels it."""
    errors: Mapping[str, str] = ss.get("field_errors") or {}
    return [f"{FIELD_LABELS.get(field, field)}: {message}" for field, message in errors.items()]


def _has_error(*fields: Iterable[str]) -> bool:
    errors = st.session_state.get("field_errors") or {}
    return any(field in errors for group in fields for field in group)


def _scenario_label(name: str) -> str:
    """A lesson scenario with its stop reason's short words: "bakery (saturated)"."""
    lesson = lesson_of(name)
    return f"{name} ({STOP_REASONS[lesson.reason].words})" if lesson is not None else name


def _target_inputs() -> None:
    ss = st.session_state
    st.radio(SETUP_LABELS["target"], TARGETS, key="target", horizontal=True,
             on_change=on_target_change)
    if ss["target"] == TARGET_DEMO:
        st.selectbox(SETUP_LABELS["scenario"], SCENARIOS, key="scenario",
                     on_change=on_scenario_change, format_func=_scenario_label,
                     help="a scenario with a stop reason in brackets is a lesson: it ends "
                          "with that reason; pick one and press Run to the lesson")
    elif ss["target"] == TARGET_URL:
        st.text_input(SETUP_LABELS["seed_url"], key="url",
                      help="http(s) URL of the page to start from")
    else:
        st.text_input(SETUP_LABELS["folder"], key="folder",
                      help="served on 127.0.0.1 while the session lasts")
    st.text_input(SETUP_LABELS["query"], key="query", help="what the crawl looks for")


def _lesson() -> None:
    """The chosen scenario's lesson: what to watch, and the button that runs to it."""
    ss = st.session_state
    lesson = lesson_of(ss.get("scenario") or "") if ss["target"] == TARGET_DEMO else None
    if lesson is None:
        return
    with st.container(border=True, key="lesson_box"):
        st.markdown(f"**Lesson: {lesson.reason.value}** — {lesson.title}.")
        st.caption(f"What to watch: {lesson.watch}")
        if lesson.settings:
            # a folded setting changed without a word in the box (found by using the app)
            changed = ", ".join(f"{FIELD_LABELS.get(key, key)} {_setting_words(value)}"
                                for key, value in lesson.settings.items())
            st.caption(f"The lesson sets: {changed} (back to the defaults when you leave the "
                       "demo target).")
        st.button("Run to the lesson", key="run_to_lesson", type="primary",
                  on_click=on_run_to_lesson, disabled=bool(ss["running"]), width="stretch",
                  help="start this scenario with the lesson's settings and run until its "
                       "stop reason happens")


def _setting_words(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _about_demo() -> None:
    ss = st.session_state
    if ss["target"] != TARGET_DEMO:
        return
    try:
        description = demo_info(ss["scenario"])[1]
    except ConfigError:
        description = ""
    if description:
        with st.expander("About this site"):
            st.caption(description)


def _start_buttons() -> None:
    """Start and Reset right under the target and the query (in view at 1280×800), and the
    last failed Start's messages under them: where the user is looking."""
    ss = st.session_state
    left, right = st.columns(2)
    left.button("Start", key="start", type="primary", on_click=on_start,
                disabled=bool(ss["running"]), width="stretch")
    right.button("Reset", key="reset", on_click=on_reset, width="stretch")
    for message in setup_errors(ss):
        st.error(message)


def _folded(label: str, key: str, fields: frozenset[str]) -> ExpanderContainer | None:
    """A folded part of the form, drawn only while it is open (None: closed). Its inputs
    cost ~1 ms each a rerun (each number input copies all of session state through
    Streamlit's ``filtered_state``; ~18 ms for the two parts; issue 15), and a closed
    expander's content is sent all the same unless it tracks its state (``on_change``):
    opening it reruns the script, which then draws them. Their values outlive the runs
    that do not draw them (``init_state`` sets them again). A failed Start opens the part
    holding its field: ``expanded`` is part of the expander's identity, so a new value
    takes effect."""
    folded = st.expander(label, expanded=_has_error(fields), key=key, on_change="rerun")
    return folded if folded.open is not False else None


def _crawl_inputs() -> None:
    folded = _folded("Page limit and stop rules", "setup_limits", LIMIT_FIELDS)
    if folded is None:
        return
    with folded:
        st.number_input(LIMIT_LABELS["limit"], key="limit", step=1,
                        help="pages fetched before limit_reached (duplicates and errors are "
                             "steps, not pages)")
        st.number_input(LIMIT_LABELS["coverage_threshold"], key="coverage_threshold",
                        step=0.05, format="%.2f")
        st.number_input(LIMIT_LABELS["evidence_per_term"], key="evidence_per_term", step=1)
        st.number_input(LIMIT_LABELS["patience"], key="patience", step=1,
                        help="pages in a row with nothing new before 'saturated'")
        st.number_input(LIMIT_LABELS["min_gain"], key="min_gain", step=0.01, format="%.2f")
        st.checkbox(LIMIT_LABELS["forgive_leads"], key="forgive_leads",
                    help="a verdict is forgiven while the next five links to fetch score, "
                         "on average, at least as well as a link that brought new evidence; "
                         "off: every verdict stands (the seed's rules alone)")
        st.checkbox(LIMIT_LABELS["lead_bar_new_evidence"], key="lead_bar_new_evidence",
                    help="every verdict's lead must score as well as a link whose page "
                         "brought new evidence; off: only a 'coverage_reached' verdict's, "
                         "the others' as well as a link that found an on-topic page (a "
                         "relevant one once a verdict has fired), the rule before")
        st.checkbox(LIMIT_LABELS["forgive_thin_evidence"],
                    key="forgive_thin_evidence",
                    help="with forgiveness on, a 'saturated' verdict is forgiven while under "
                         "three quarters of the query's terms have any evidence: the topic "
                         "is barely found, so nothing new says little; off: it stands")
        st.checkbox(LIMIT_LABELS["forgive_still_finding"], key="forgive_still_finding",
                    help="with forgiveness on, a verdict is forgiven while the last "
                         "'patience' pages read as relevant at least as often as the crawl "
                         "has so far: answers still come though they add nothing new; off: "
                         "it stands")
        st.checkbox(LIMIT_LABELS["link_blocks_as_evidence"], key="link_blocks_as_evidence",
                    help="a block with no word outside its links (a contents entry, a row "
                         "of navigation) counts towards a term's evidence, as the seed's "
                         "rules read every block; off: it names pages not read yet")
        st.number_input(LIMIT_LABELS["delay_s"], key="delay_s", step=0.1, format="%.1f",
                        help="per host; 0 on 127.0.0.1")
        st.checkbox(LIMIT_LABELS["respect_robots"], key="respect_robots")
        st.checkbox(LIMIT_LABELS["use_sitemaps"], key="use_sitemaps",
                    help="when the crawl starts, offer the URLs of the site's sitemaps "
                         "(robots.txt Sitemap: lines, else /sitemap.xml) as candidates")


def _advanced_inputs() -> None:
    folded = _folded("Advanced", "setup_advanced", ADVANCED_FIELDS)
    if folded is None:
        return
    with folded:
        st.number_input(ADVANCED_LABELS["delta"], key="delta", step=0.01, format="%.3f",
                        help="Wilson intervals use Φ⁻¹(1−δ/2), the link model Φ⁻¹(1−δ)")
        st.markdown(f"**{ADVANCED_LABELS['prior_weights']}**")
        for key, name in zip(PRIOR_KEYS, FEATURE_NAMES, strict=True):
            st.number_input(f"{name} prior", key=key, step=0.1, format="%.2f")
        st.number_input(ADVANCED_LABELS["dispersion_cap"], key="dispersion_cap", step=1,
                        value=None, placeholder="auto",
                        help="pages per cluster before the crawl spreads out; empty = max(3, "
                             "⌈limit/4⌉)")
        st.radio(ADVANCED_LABELS["scope"], [s.value for s in Scope], key="scope",
                 horizontal=True)
        st.number_input(ADVANCED_LABELS["meaning_weight"], key="meaning_weight", step=0.05,
                        format="%.2f",
                        help="the most a page's meaning (static word vectors, English pages "
                             "under an English query) adds to its relevance, against the "
                             "site's median page; 0: the query's words alone")
        st.number_input(ADVANCED_LABELS["link_meaning_weight"], key="link_meaning_weight",
                        step=0.05, format="%.2f",
                        help="the most a link's anchor and list title, read by meaning, add "
                             "to its score; 0: the query's words alone")
        st.number_input(ADVANCED_LABELS["link_meaning_quantile"],
                        key="link_meaning_quantile", step=0.05,
                        format="%.2f",
                        help="a link's anchor and list title are lifted by meaning only when "
                             "nearer the query than this share of the link texts read so far "
                             "(0.75: the upper quartile; 0.5: the median, the rule before)")
        st.checkbox(ADVANCED_LABELS["learn_copy_parameters"], key="learn_copy_parameters",
                    help="once copies carrying one query pair (?print=1, ?sort=newest) were "
                         "fetched on two paths, links carrying it stand for the page they "
                         "copy and are not fetched; off: every copy is fetched once")
        st.number_input(ADVANCED_LABELS["max_links_per_page"], key="max_links_per_page",
                        step=1_000,
                        help="each page's first this many links are cleaned, checked and "
                             "scored; the rest are counted, not looked at (the decision log "
                             "says how many). A whole site's table of contents links every "
                             "section of every page: Python's has 13,961 links, and its first "
                             "2,000 reach 35 of its 489 pages")
        st.selectbox(ADVANCED_LABELS["language"], [lang.value for lang in Language],
                     key="language",
                     format_func=_language_label,
                     help="its stemmer and stop words; auto detects it from the query. Pages "
                          "are read in their own language (<html lang>, else detected)")
        st.number_input(ADVANCED_LABELS["concurrency"], key="concurrency", step=1,
                        help="pages fetched at once, from different hosts (one request at a "
                             "time per host unless raised below); they are still read in the "
                             "crawl's order, so "
                             "a crawl repeats")
        st.number_input(ADVANCED_LABELS["per_host"], key="per_host", step=1,
                        help="with fetches in flight: more than 1 only where the site's owner "
                             "agrees (the delay is then the gap between request starts)")
        st.checkbox(ADVANCED_LABELS["stop_on_verdict"], key="stop_on_verdict",
                    help="off: record verdicts and crawl on to the limit")
        st.checkbox(ADVANCED_LABELS["allow_private"], key="allow_private")
        st.text_input(ADVANCED_LABELS["user_agent"], key="user_agent",
                      help="sent with every request; its product token (before the first '/') "
                           "picks the robots.txt group")
        st.number_input(ADVANCED_LABELS["max_sitemap_urls"], key="max_sitemap_urls",
                        step=100,
                        help="page URLs taken from the sitemaps; the rest are counted")
        st.radio(ADVANCED_LABELS["render"], [m.value for m in RenderMode], key="render",
                 horizontal=True,
                 help="render pages in headless Chromium before reading them (every request "
                      "held to the same rules as a fetch): empty = only pages whose HTML has "
                      "no text and no links")
        st.number_input(ADVANCED_LABELS["render_deadline_s"], key="render_deadline_s",
                        step=1.0,
                        format="%.0f", help="most seconds one page's render may take")


def _language_label(code: str) -> str:
    language = Language(code)
    return "auto (detect)" if language is Language.AUTO else f"{language.label} ({code})"


def render_setup() -> None:
    """Target, query and Start first, so they are on the first screen; the rest folded."""
    st.header("Setup")
    _target_inputs()
    _start_buttons()
    _lesson()
    _about_demo()
    _crawl_inputs()
    _advanced_inputs()
