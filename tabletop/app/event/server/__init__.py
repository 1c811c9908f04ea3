"""``tabletop event serve``: the event in the browser (``event-server.md``).

- :mod:`~tabletop.app.event.server.command`: ``event serve`` and ``event codes``;
- :mod:`~tabletop.app.event.server.secretsfile`: the TO token and the players' codes;
- :mod:`~tabletop.app.event.server.hub`: the event file served, its version, the writes;
- :mod:`~tabletop.app.event.server.actions`: each write through the CLI's own function;
- :mod:`~tabletop.app.event.server.flow`: report, confirm, dispute;
- :mod:`~tabletop.app.event.server.views`: ``GET /api/event`` and ``GET /api/me``;
- :mod:`~tabletop.app.event.server.api`: the routes and the roles;
- :mod:`~tabletop.app.event.server.printed` and :mod:`~tabletop.app.event.server.qr`:
  printables with codes, the QR code of the public page.
"""
