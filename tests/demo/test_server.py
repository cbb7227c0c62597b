"""The demo and static servers over real HTTP, on 127.0.0.1 only."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from http.client import HTTPMessage
from pathlib import Path

import pytest

from pagesift_ui.demo import DemoServer, shared_demo, start_demo
from pagesift_ui.net.serve import StaticServer

from . import site_of


def _get(port: int, host: str, target: str) -> tuple[int, HTTPMessage, bytes]:
    """GET with an explicit Host header; headers come back case-insensitive."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", target, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.msg, response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def uni_server() -> Iterator[DemoServer]:
    with DemoServer(site_of("university")) as server:
        yield server


def test_seed_journals_and_robots_over_http(uni_server: DemoServer) -> None:
    port = uni_server.port
    assert uni_server.seed_url == f"http://www.uni.localhost:{port}/"
    status, headers, body = _get(port, f"www.uni.localhost:{port}", "/")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert body.startswith(b"<!doctype html>")
    assert f"http://facebook.localhost:{port}/".encode() in body
    status, _, body = _get(port, f"journals.uni.localhost:{port}", "/ijsf/vol-3/issue-2/")
    assert status == 200 and b"International Journal of Student Finance" in body
    status, headers, body = _get(port, f"www.uni.localhost:{port}", "/robots.txt")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert b"Disallow: /search" in body


def test_unknown_host_and_redirect_over_http(uni_server: DemoServer) -> None:
    port = uni_server.port
    status, _, body = _get(port, f"127.0.0.1:{port}", "/")
    assert status == 404 and b"www.uni.localhost" in body
    status, headers, _ = _get(port, f"www.uni.localhost:{port}", "/research/journals")
    assert (status, headers["Location"]) == (301, f"http://journals.uni.localhost:{port}/")


def test_requests_are_logged(uni_server: DemoServer) -> None:
    before = uni_server.request_count
    _get(uni_server.port, f"www.uni.localhost:{uni_server.port}", "/news/")
    assert uni_server.request_count == before + 1
    last = uni_server.requests()[-1]
    assert (last.target, last.status) == ("/news/", 200)


def test_write_truth(uni_server: DemoServer, tmp_path: Path) -> None:
    path = uni_server.write_truth(tmp_path / "truth.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "# query: international students tuition fees"
    assert lines[1] == f"# seed: {uni_server.seed_url}"
    assert lines[2:] == uni_server.truth_urls() == sorted(lines[2:])
    assert len(lines[2:]) == len(uni_server.site.relevant)
    assert all(url.startswith(f"http://www.uni.localhost:{uni_server.port}/") for url in lines[2:])


def test_base_url_rejects_a_host_the_site_does_not_serve(uni_server: DemoServer) -> None:
    assert uni_server.base_url("journals.uni.localhost").endswith(f":{uni_server.port}")
    with pytest.raises(ValueError, match="journals.uni.localhost"):
        uni_server.base_url("www.example.org")


def test_port_validation_and_not_running_state() -> None:
    with pytest.raises(ValueError, match="port"):
        DemoServer(site_of("needle"), port=70000)
    server = DemoServer(site_of("needle"))
    assert not server.running and server.request_count == 0
    with pytest.raises(RuntimeError, match="start"):
        _ = server.port


def test_start_demo_and_shared_demo_reuse_one_server() -> None:
    server = start_demo("needle")
    try:
        status, _, _ = _get(server.port, f"www.millbrook.localhost:{server.port}", "/")
        assert status == 200
    finally:
        server.stop()
    assert not server.running
    shared = shared_demo("needle")
    try:
        assert shared_demo("needle") is shared and shared.running
    finally:
        shared.stop()


def test_static_server_serves_a_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>Hi</title>", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("plain", encoding="utf-8")
    with StaticServer(tmp_path) as server:
        assert server.base_url() == f"http://127.0.0.1:{server.port}"
        status, headers, body = _get(server.port, "127.0.0.1", "/")
        assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert b"<title>Hi</title>" in body
        status, headers, _ = _get(server.port, "127.0.0.1", "/notes.txt")
        assert headers["Content-Type"] == "text/plain; charset=utf-8"
        assert _get(server.port, "127.0.0.1", "/missing.html")[0] == 404
    assert not server.running


def test_static_server_refuses_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no-such-folder"):
        StaticServer(tmp_path / "no-such-folder")
