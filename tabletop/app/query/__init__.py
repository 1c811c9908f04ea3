"""The oracle: ``tabletop query``, JSON lines in and answers out, for other implementations.

- :mod:`~tabletop.app.query.command`: the command (its arguments);
- :mod:`~tabletop.app.query.answers`: each request line answered, a chunk at a time;
- :mod:`~tabletop.app.query.decode`: request lines decoded strictly (orjson where it agrees);
- :mod:`~tabletop.app.query.stream`: request lines read in bounded chunks;
- :mod:`~tabletop.app.query.batch`, :mod:`~tabletop.app.query.fast`: a chunk's measurements
  made together, and answers written field by field;
- :mod:`~tabletop.app.query.jobs`: the lines shared out over ``--jobs`` and ``--scheduler``.
"""
