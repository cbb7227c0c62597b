"""The in-memory site model: public API, determinism, and how ``respond`` behaves."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pagesift_ui.demo as demo
from pagesift_ui.demo import BENCH_SCENARIOS, SCENARIOS, DemoResponse, build_site

from . import site_of


def _digest(name: str, seed: int) -> str:
    site = build_site(name, seed)
    digest = hashlib.sha256()
    for host, target in site.iter_pages():
        digest.update(f"{host} {target}\n".encode())
        digest.update(site.respond(host, target).body)
    digest.update(repr(sorted(site.relevant)).encode())
    return digest.hexdigest()


def test_exports_exist_and_are_sorted() -> None:
    assert sorted(demo.__all__) == demo.__all__
    for name in demo.__all__:
        assert hasattr(demo, name)
    assert SCENARIOS == ("university", "helpdesk", "needle", "multilingual", "bakery",
                         "fieldguide", "allotments")
    assert BENCH_SCENARIOS == SCENARIOS[:4]


@pytest.mark.parametrize("name", SCENARIOS)
def test_same_seed_gives_identical_bytes_and_another_seed_does_not(name: str) -> None:
    assert _digest(name, 0) == _digest(name, 0)
    assert _digest(name, 0) != _digest(name, 1)


def test_another_process_with_another_hash_seed_builds_the_same_bytes() -> None:
    # Section generators are seeded with crc32, never hash(): str hashes change per process.
    code = f"from {__name__} import _digest; print(_digest('multilingual', 1))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=Path(__file__).parents[2], check=True, timeout=120)
    assert result.stdout.strip() == _digest("multilingual", 1)


def test_unknown_scenario_lists_the_valid_names() -> None:
    with pytest.raises(ValueError, match="university, helpdesk, needle, multilingual"):
        build_site("intranet")


@pytest.mark.parametrize("seed", [-1, 1.5, True, "0"])
def test_bad_seed_is_rejected(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        build_site("needle", seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", SCENARIOS)
def test_site_summary_fields(name: str) -> None:
    site = site_of(name)
    assert site.name == name
    assert site.query and len(site.description) > 200
    assert site.seed_host in site.hosts and site.seed_path == "/"
    low = 300 if name in BENCH_SCENARIOS else 8  # the lesson sites are small on purpose
    assert low <= site.page_count <= 3000
    assert site.page_count == len(list(site.iter_pages()))
    assert all(host.endswith(".localhost") for host in site.hosts)


def test_unknown_host_is_a_clear_404() -> None:
    response = site_of("needle").respond("www.example.org", "/")
    assert response.status == 404
    assert b"www.millbrook.localhost" in response.body


def test_unknown_path_is_a_branded_html_404() -> None:
    response = site_of("university").respond("www.uni.localhost", "/no/such/page")
    assert response.status == 404
    assert response.content_type.startswith("text/html")
    assert b"<title>Page not found | Northgate University</title>" in response.body


def test_host_header_port_goes_into_cross_host_links() -> None:
    site = site_of("university")
    with_port = site.respond("www.uni.localhost:8123", "/research/").body
    assert b"{{demo-port}}" not in with_port
    assert b"http://facebook.localhost:8123/northgateuni" in with_port
    assert b"http://facebook.localhost/northgateuni" in site.respond("www.uni.localhost",
                                                                      "/research/").body


def test_tracking_and_session_parameters_are_ignored_like_a_real_server() -> None:
    site = site_of("university")
    plain = site.respond("www.uni.localhost", "/admissions/open-days")
    for target in ("/admissions/open-days?utm_source=homepage&utm_medium=banner",
                   "/admissions/open-days?sid=AbCdEfGhIjKlMnOpQrStUvWx",
                   "/admissions/open-days;jsessionid=0A1B2C3D?utm_campaign=x"):
        assert site.respond("www.uni.localhost", target) == plain
        assert site.resolve("www.uni.localhost", target) == ("www.uni.localhost",
                                                             "/admissions/open-days")


def test_moved_page_and_missing_slash_redirect_with_301() -> None:
    site = site_of("university")
    moved = site.respond("www.uni.localhost:9000", "/international/fees-and-funding/tuition-fees")
    assert moved.status == 301
    assert dict(moved.headers)["Location"] == "/admissions/fees/international"
    to_journals = site.respond("www.uni.localhost:9000", "/research/journals")
    assert dict(to_journals.headers)["Location"] == "http://journals.uni.localhost:9000/"
    slash = site.respond("www.uni.localhost", "/admissions")
    assert (slash.status, dict(slash.headers)["Location"]) == (301, "/admissions/")


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_host_has_robots_txt_with_a_disallow_that_its_navigation_links_to(name: str) -> None:
    site = site_of(name)
    for host in site.hosts:
        robots = site.respond(host, "/robots.txt")
        assert robots.status == 200 and robots.content_type.startswith("text/plain")
        rules = [line.split(":", 1)[1].strip() for line in robots.body.decode().splitlines()
                 if line.startswith("Disallow:")]
        assert rules
        home = site.respond(host, "/").body.decode()
        header = home[home.index("<header>"):home.index("</header>")]
        assert any(f'href="{rule}' in header for rule in rules), (host, rules)


def test_disallowed_areas_exist_for_crawlers_that_ignore_robots() -> None:
    site = site_of("helpdesk")
    assert site.respond("www.shop.localhost", "/cart").status == 200
    assert site.respond("www.shop.localhost", "/account/login").status == 200
    assert site.resolve("www.shop.localhost", "/cart") is None


def test_pdf_links_are_served_as_pdf() -> None:
    site = site_of("university")
    response = site.respond("journals.uni.localhost", "/files/ijsf/1-1-1.pdf")
    assert (response.status, response.content_type) == (200, "application/pdf")
    assert response.body.startswith(b"%PDF-")
    assert site.respond("journals.uni.localhost", "/files/ijsf/99-1-1.pdf").status == 404


def test_demo_response_is_a_frozen_value() -> None:
    response = DemoResponse(200, "text/plain", b"x")
    with pytest.raises(AttributeError):
        response.status = 500  # type: ignore[misc]
