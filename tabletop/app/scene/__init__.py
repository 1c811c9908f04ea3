"""The scene commands: measure, check, fix, move, render, report, setup, list and import.

- :mod:`~tabletop.app.scene.scenefile`: the scene file (TOML or JSON) read into a scene;
- one module per command: :mod:`~tabletop.app.scene.measure`,
  :mod:`~tabletop.app.scene.check`, :mod:`~tabletop.app.scene.fix`,
  :mod:`~tabletop.app.scene.move`,
  :mod:`~tabletop.app.scene.render`, :mod:`~tabletop.app.scene.report`,
  :mod:`~tabletop.app.scene.setup`, :mod:`~tabletop.app.scene.listing` (``list``) and
  :mod:`~tabletop.app.scene.import_save` (``import``);
- :mod:`~tabletop.app.scene.xws_list`: an XWS squad list read as a table to check or lay out.

The client saves themselves are read by :mod:`tabletop.app.clients`.
"""
