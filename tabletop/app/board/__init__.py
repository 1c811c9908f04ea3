"""The setup board: ``tabletop serve``, one scene in the browser, every verdict the CLI's.

- :mod:`~tabletop.app.board.document`: the board as a versioned document, and saving it;
- :mod:`~tabletop.app.board.views`: outlines, regions and answers for the page, from the
  command line's own code;
- :mod:`~tabletop.app.board.security`: the Host, Origin, rate and size checks;
- :mod:`~tabletop.app.board.api`: the routes (Starlette);
- :mod:`~tabletop.app.board.server`: the application and the command (uvicorn).

Only ``api`` and ``server``'s application need the ``serve`` extra (Starlette, uvicorn);
they import it when used.
"""
