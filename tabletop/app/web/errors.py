"""The refusal a route raises: :class:`RequestError`, with the HTTP status that says why.

Kept apart from the answers (:mod:`tabletop.app.web.responses`) so that what raises it
needs no web framework installed.
"""

from __future__ import annotations

from tabletop.geom.errors import InvalidInputError

__all__ = ["RequestError"]


class RequestError(InvalidInputError):
    """A request a server refuses, with the HTTP status that says why (400 by default)."""

    status = 400
