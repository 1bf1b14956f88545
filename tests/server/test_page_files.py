"""The /viewer and /play pages' own files over real HTTP: content types, revalidation by ETag, and
nothing served but the files each page names (not the package's Python sources beside them)."""

from __future__ import annotations

from importlib import resources

import httpx
import pytest

from server.play.routes import STATIC_FILES as PLAY_FILES
from server.viewer_routes import STATIC_FILES as VIEWER_FILES

PAGES = [("viewer", "server.viewer", VIEWER_FILES), ("play", "server.play", PLAY_FILES)]


@pytest.mark.parametrize(("page", "package", "files"), PAGES)
def test_page_files_are_revalidated_by_etag(start_server, page: str, package: str, files: dict[str, str]) -> None:
    server = start_server()
    with httpx.Client(base_url=server.base, timeout=15, follow_redirects=False) as client:
        for name, content_type in files.items():
            first = client.get(f"/{page}/static/{name}")
            assert first.status_code == 200, name
            assert first.headers["content-type"] == content_type
            assert first.headers["cache-control"] == "no-cache"
            assert first.content == resources.files(package).joinpath(name).read_bytes()
            again = client.get(f"/{page}/static/{name}", headers={"If-None-Match": first.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
        page_itself = client.get(f"/{page}")
        assert page_itself.status_code == 200 and page_itself.headers["content-type"] == "text/html; charset=utf-8"
        unchanged = client.get(f"/{page}", headers={"If-None-Match": page_itself.headers["etag"]})
        assert unchanged.status_code == 304
        assert client.head(f"/{page}/static/index.html").status_code == 200


@pytest.mark.parametrize(("page", "package", "files"), PAGES)
def test_only_the_named_files_are_served(start_server, page: str, package: str, files: dict[str, str]) -> None:
    server = start_server()
    with httpx.Client(base_url=server.base, timeout=15, follow_redirects=False) as client:
        for path in ("__init__.py", "routes.py", "../app.py", "%2e%2e/app.py", "nosuch.js"):
            refused = client.get(f"/{page}/static/{path}")
            assert refused.status_code == 404, path
            assert b"import" not in refused.content
        assert client.get(f"/{page}/static/__init__.py").json()["ErrorMessage"] == f"no {page} file __init__.py"
        assert client.post(f"/{page}/static/index.html").status_code == 405
