"""/docs and /redoc render in chromium with every request off this machine blocked: their assets come from
the installed package, not a CDN."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _offline(page) -> list[str]:
    """Abort every request that would leave the machine; return the list of those attempted."""
    blocked: list[str] = []

    def handle(route) -> None:
        url = route.request.url
        if url.startswith(("http:", "https:", "ws:", "wss:")) and urlsplit(url).hostname not in LOOPBACK:
            blocked.append(url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/*", handle)
    return blocked


def test_docs_render_offline(start_viewer_server, page) -> None:
    server = start_viewer_server()
    blocked = _offline(page)
    page.goto(server.base + "/docs")
    # Swagger UI draws one block per operation once its bundle has run and read /openapi.json.
    page.wait_for_selector(".swagger-ui .opblock")
    assert "Rummy Vision referee" in page.inner_text(".swagger-ui .info")
    operations = page.inner_text(".swagger-ui")
    for call in ("GM-GetListOfGameStyles", "GM-OfferGame", "GM-MakeMove"):
        assert call in operations
    assert blocked == []


def test_redoc_renders_offline(start_viewer_server, page) -> None:
    server = start_viewer_server()
    blocked = _offline(page)
    page.goto(server.base + "/redoc")
    page.wait_for_selector("text=GM-MakeMove")
    # Only ReDoc's "API docs by Redocly" badge image lives online; the page itself needs nothing from there.
    assert all(url.endswith(".svg") for url in blocked), blocked
