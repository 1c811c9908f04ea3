"""Pocket Battles in files: ``tabletop pocket``, over :mod:`tabletop.boards.pocket`.

- :mod:`~tabletop.app.pocket.command`: the ``pocket`` actions (check, push, play, replay, …);
- :mod:`~tabletop.app.pocket.battlefile`: the battle file (the armies and the plays).
"""
