"""A page's own files, served as they are, and nothing outside their folder.

:class:`StaticFolder` answers ``GET /`` with the folder's ``index.html`` and
``GET /static/<file>`` with a file of the folder whose type it knows; any other path — a
dot file, ``..``, a link out of the folder, an unknown type — is 404. The page is served
with a policy that lets it load only its own files and talk only to its own server.

A folder made ``isolated`` serves its files cross-origin isolated (``Cross-Origin-Opener-
Policy: same-origin``, ``Cross-Origin-Embedder-Policy: require-corp``, and every file
same-origin only), which a page needs to share memory with its workers
(``SharedArrayBuffer``): the board's live verdict waits for its answer that way.
"""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["CONTENT_TYPES", "ISOLATION_HEADERS", "PAGE_POLICY", "StaticFolder"]

#: What a page's files may be, and their types; any other file is not served.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}
#: A page loads only its own files and talks only to its own server.
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
#: The headers that make a page and its files cross-origin isolated.
ISOLATION_HEADERS = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
    "cross-origin-resource-policy": "same-origin",
}
_NOT_FOUND = "no such file of the page"


class StaticFolder:
    """The files of one folder, served as a page's own.

    Parameters
    ----------
    folder : Path
        The folder; ``index.html`` in it is the page.
    isolated : bool
        Whether its files are served cross-origin isolated (:data:`ISOLATION_HEADERS`).
    """

    def __init__(self, folder: Path, *, isolated: bool = False) -> None:
        self.folder = folder.resolve()
        self.isolated = isolated

    def file(self, relative: str) -> Path:
        """Return the folder's file at `relative`, or raise 404: nothing outside the folder."""
        parts = relative.split("/")
        bad = any(
            p in ("", ".", "..") or p.startswith(".") or "\\" in p or "\0" in p for p in parts
        )
        if bad or relative.startswith("/") or ":" in relative:
            raise HTTPException(404, _NOT_FOUND)
        try:
            path = (self.folder / relative).resolve(strict=True)
        except (OSError, RuntimeError):
            raise HTTPException(404, _NOT_FOUND) from None
        if not path.is_relative_to(self.folder) or not path.is_file():
            raise HTTPException(404, _NOT_FOUND)
        if path.suffix.lower() not in CONTENT_TYPES:
            raise HTTPException(404, _NOT_FOUND)
        return path

    def response(self, path: Path) -> Response:
        """Return the file at `path` with its type (and the page's policy for HTML)."""
        headers = {"cache-control": "no-cache", "x-content-type-options": "nosniff"}
        if self.isolated:
            headers.update(ISOLATION_HEADERS)
        if path.suffix.lower() == ".html":
            headers["content-security-policy"] = PAGE_POLICY
            headers["x-frame-options"] = "DENY"
        media_type = CONTENT_TYPES[path.suffix.lower()]
        return Response(path.read_bytes(), headers=headers, media_type=media_type)

    async def page(self, request: Request) -> Response:
        """``GET /``: the page."""
        return self.response(self.file("index.html"))

    async def static(self, request: Request) -> Response:
        """``GET /static/<file>``: a file of the folder, nothing else."""
        return self.response(self.file(str(request.path_params["path"])))

    def routes(self) -> list[Route]:
        """Return the routes of the page and its files."""
        return [
            Route("/", self.page, methods=["GET"]),
            Route("/static/{path:path}", self.static, methods=["GET"]),
        ]
