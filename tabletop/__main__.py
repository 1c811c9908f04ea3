"""``python -m tabletop``: the same as the ``tabletop`` command."""

import sys

from tabletop.app.cli import program

if __name__ == "__main__":
    sys.exit(program())
