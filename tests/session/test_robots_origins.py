"""robots.txt of new origins asked for a page's links, one origin a page (issue 12 hardening;
docs/FAULTS.md: a page linking 25 hosts whose files came slowly took a step of a minute)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pagesift_ui.session import CrawlConfig, CrawlSession
from pagesift_ui.session.enqueue import NEW_ROBOTS_ORIGINS_PER_PAGE
from tests.fakes import DictSource, policy_for

SEED = "http://www.x.localhost/"
HOSTS = [f"http://h{i}.x.localhost" for i in range(4)]

def _page(i: int) -> str:
    return (f"<html><body><main><h1>Refund policy {i}</h1><p>Refunds of the fees, part {i}."
            "</p></main></body></html>")


class AskedSource(DictSource):
    """A DictSource that lists the origins whose robots.txt the session asked about."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.asked: list[str] = []

    def allowed_by_robots(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self.asked:
            self.asked.append(origin)
        return super().allowed_by_robots(url)


def _crawl() -> tuple[AskedSource, list[str]]:
    links = "".join(f'<li><a href="{host}/refund">Refund policy of {i}</a></li>'
                    for i, host in enumerate(HOSTS))
    pages = {SEED: f"<html><body><main><ul>{links}</ul></main></body></html>",
             **{f"{host}/refund": _page(i) for i, host in enumerate(HOSTS)}}
    config = CrawlConfig.from_mapping({"seed_url": SEED, "query": "refund policy", "limit": 10,
                                       "delay_s": 0.0, "stop_on_verdict": False})
    # the last host's robots.txt disallows its page
    source = AskedSource(pages, robots=[f"{HOSTS[3]}/refund"], policy=policy_for(config))
    with CrawlSession(config, source) as session:
        session.run()
        outcomes = [f"{r.url} {r.outcome} {r.error_kind or ''}".strip() for r in session.steps]
    return source, outcomes


def test_a_pages_links_ask_robots_txt_of_one_new_origin_and_their_fetches_ask_the_rest() -> None:
    assert NEW_ROBOTS_ORIGINS_PER_PAGE == 1
    source, outcomes = _crawl()
    # the seed's links asked about one new origin (the first); the other three were offered
    # unchecked, each asked for by its own fetch
    assert source.asked[:1] == [HOSTS[0]]
    assert f"{HOSTS[1]}/refund" in source.fetched and f"{HOSTS[2]}/refund" in source.fetched
    # the fetch refused the page its robots.txt disallows: never requested
    assert f"{HOSTS[3]}/refund error robots" in outcomes
    assert f"{HOSTS[3]}/refund" not in source.requested
