"""Organized play in files: ``tabletop event``, over the engine in :mod:`tabletop.tournament`.

- :mod:`~tabletop.app.event.command`: the ``event`` actions (new, pair, result, standings, …);
- :mod:`~tabletop.app.event.eventfile`: the event file read and written;
- :mod:`~tabletop.app.event.playersfile`: the players' list (CSV or TOML) of ``event new``;
- :mod:`~tabletop.app.event.console`: the TO's console of the terminal;
- :mod:`~tabletop.app.event.reports`: standings, pending tables and exports;
- :mod:`~tabletop.app.event.printables`: pairings, slips and standings to print;
- :mod:`~tabletop.app.event.seats`: who plays: players named by id, name or prefix, drops,
  returns and a round unpaired;
- :mod:`~tabletop.app.event.server`: ``event serve``, the event in the browser, on the
  shared web layer (:mod:`tabletop.app.web`).
"""
