"""The web layer under both servers: the board (``tabletop serve``) and the event's pages.

- :mod:`~tabletop.app.web.guard`: the one request guard — Host, Origin, rate, body size
  and body time — in front of every route of every server;
- :mod:`~tabletop.app.web.errors`: :class:`~tabletop.app.web.errors.RequestError`, the
  refusal a route raises, with its status;
- :mod:`~tabletop.app.web.responses`: the error object ``{"error": {"message", "where"}}``
  and the JSON answers, request bodies read and checked, the faults answered;
- :mod:`~tabletop.app.web.static`: a page's own files, and nothing outside their folder;
- :mod:`~tabletop.app.web.runner`: the listening socket, the application assembled with
  the guard, and uvicorn run with timeouts for headers and idle connections.

Only :mod:`~tabletop.app.web.responses`, :mod:`~tabletop.app.web.static` and the
application of :mod:`~tabletop.app.web.runner` need the ``serve`` extra (Starlette,
uvicorn); they import it when used.
"""
