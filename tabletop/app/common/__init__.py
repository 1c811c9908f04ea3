"""What every command family shares: files, locks, readers, paths and bulk jobs.

- :mod:`~tabletop.app.common.files`: files written atomically, never over an input;
- :mod:`~tabletop.app.common.locking`: the lock a command holds on a file it rewrites;
- :mod:`~tabletop.app.common.text`: messages, numbers and terminal text;
- :mod:`~tabletop.app.common.datafile`, :mod:`~tabletop.app.common.datatext`: reading a
  TOML or JSON document and the checked values inside it;
- :mod:`~tabletop.app.common.csvfile`: CSV in and out;
- :mod:`~tabletop.app.common.paths`: input and output paths, standard input and output;
- :mod:`~tabletop.app.common.jobs`: ``--jobs`` and ``--scheduler``, work shared out;
- :mod:`~tabletop.app.common.extras`: optional dependencies and the extra that brings each;
- :mod:`~tabletop.app.common.playlog`: the play logs of the two board games.
"""
