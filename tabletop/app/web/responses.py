"""The servers' answers: JSON, the error object, request bodies read and checked.

Every body a route takes is JSON (unless the route says otherwise); every refusal is the
error object ``{"error": {"message", "where"}}`` with a status: 400 a bad request, or the
status a :class:`RequestError` carries (403, 404, 409, …). Unknown routes and methods get
the same object (404, 405). The guard (:mod:`tabletop.app.web.guard`) answers faults.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from tabletop.app.common.datafile import loads_json, show
from tabletop.app.web.errors import RequestError
from tabletop.geom.errors import InvalidInputError

__all__ = [
    "API_HEADERS",
    "RequestError",
    "error_response",
    "http_error",
    "input_error",
    "json_body",
    "json_response",
    "object_body",
]

#: Headers of every JSON answer: never cached, never sniffed as another type.
API_HEADERS = {"cache-control": "no-store", "x-content-type-options": "nosniff"}


def json_response(data: Any, status: int = 200) -> Response:
    """Return `data` as a JSON answer with `status` (no NaN, UTF-8)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    return Response(text, status, headers=API_HEADERS, media_type="application/json")


def error_response(message: str, where: str | None, status: int = 400) -> Response:
    """Return the error object ``{"error": {"message", "where"}}`` with `status`."""
    return json_response({"error": {"message": message, "where": where}}, status)


async def json_body(request: Request) -> Any:
    """Return the request's body read as JSON (UTF-8, no repeated key, no NaN).

    Raises
    ------
    RequestError
        When the body is not UTF-8 or not JSON, naming the byte or the fault.
    """
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(f"not UTF-8 text (byte {error.start})", where="request body") from None
    try:
        return loads_json(text)
    except (ValueError, RecursionError) as error:
        raise RequestError(f"not valid JSON: {error}", where="request body") from None


async def object_body(request: Request, keys: tuple[str, ...], required: tuple[str, ...]) -> Any:
    """Return the request's JSON object, refusing a key not in `keys` or a missing `required`.

    Raises
    ------
    RequestError
        When the body is not a JSON object of those keys.
    """
    data = await json_body(request)
    if not isinstance(data, dict):
        raise RequestError(f"expected a JSON object, got {show(data)}", where="request body")
    for key in data:
        if key not in keys:
            raise RequestError(
                "unknown key; this request takes: " + ", ".join(keys), where=f"key {show(key)}"
            )
    for key in required:
        if key not in data:
            raise RequestError("missing required key", where=f"key {key!r}")
    return data


async def input_error(request: Request, error: Exception) -> Response:
    """Answer a refused request with its error object (400, or the error's own status)."""
    assert isinstance(error, InvalidInputError)
    status = error.status if isinstance(error, RequestError) else 400
    return error_response(error.message, error.where, status)


async def http_error(request: Request, error: Exception) -> Response:
    """Answer an unknown route (404) or method (405) with the error object."""
    assert isinstance(error, HTTPException)
    message = {404: "no such page or route", 405: "this route does not take that method"}.get(
        error.status_code, str(error.detail)
    )
    if error.status_code == 404 and error.detail == "no such file of the page":
        message = error.detail
    response = error_response(message, request.url.path, error.status_code)
    if error.headers:
        response.headers.update(error.headers)
    return response
