"""Star Wars Dogfight in files: ``tabletop dogfight``, over :mod:`tabletop.boards.dogfight`.

- :mod:`~tabletop.app.dogfight.command`: the ``dogfight`` actions (check, moves, push, play, …);
- :mod:`~tabletop.app.dogfight.gamefile`: the game file (a start position and its plays);
- :mod:`~tabletop.app.dogfight.table`: the game at the table, a play at a time.
"""
