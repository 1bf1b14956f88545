"""A browser page's own files (HTML, script, style) served from its package by Starlette's `StaticFiles`.

StaticFiles brings the file handling a hand-written route lacks: ETag and Last-Modified with 304
answers, HEAD, ranges, and no way out of the package's folder. On top of it: only the files a page
names are served (the package's Python sources sit in the same folder), each with the content type
browsers need to run it, and always revalidated (`no-cache`), so that a page picks up its new
script after an upgrade at the cost of one 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from importlib import resources

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope


class PageFiles(StaticFiles):
    """The files `names` (name -> content type) of the package `package`; anything else is a 404."""

    def __init__(self, package: str, names: Mapping[str, str], page: str) -> None:
        super().__init__(packages=[(package, ".")])
        self.package = package
        self.names = dict(names)
        self.page = page

    async def get_response(self, path: str, scope: Scope) -> Response:
        content_type = self.names.get(path)
        if content_type is None:
            return JSONResponse({"ErrorMessage": f"no {self.page} file {path[:80]}"}, status_code=404)
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        if response.status_code == 200:
            response.headers["Content-Type"] = content_type
        return response

    async def page_response(self, scope: Scope, name: str = "index.html") -> Response:
        """The page itself, for a route outside the mount (such as /viewer)."""
        return await self.get_response(name, scope)

    def inlined_page(self, scope: Scope, inline: Mapping[str, tuple[str, str]], name: str = "index.html") -> Response:
        """The page with its own files inlined, so a browser gets it in one answer instead of three in a row:
        `inline` maps a tag of the page (`<script src=...></script>`) to (file, wrapper with `{}` for its text).
        A file whose text would end its wrapper early stays linked. Revalidated by ETag, like the files."""
        folder = resources.files(self.package)
        html = folder.joinpath(name).read_text(encoding="utf-8")
        for tag, (file, wrapper) in inline.items():
            text = folder.joinpath(file).read_text(encoding="utf-8")
            closing = wrapper[wrapper.index("{}") + 2 :].strip()
            if tag in html and closing.lower() not in text.lower():
                html = html.replace(tag, wrapper.replace("{}", text))
        body = html.encode("utf-8")
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        headers = {"Cache-Control": "no-cache", "ETag": etag}
        if etag in [tag.strip() for tag in Headers(scope=scope).get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=self.names[name], headers=headers)
