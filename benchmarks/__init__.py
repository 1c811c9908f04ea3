"""Throughput of the batch API against plain loops over shapely objects.

Run ``python -m benchmarks`` (``make bench``). It prints the machine, then one table: for
each batch function its throughput at two sizes, the same work done by a plain Python
loop over shapely objects (timed on a smaller N in the same run and scaled per item),
their ratio, and whether the targets are met; then the wall time of ``tabletop check`` on
the tournament example against a bare ``import numpy, shapely``.

The plain loop starts from the same inputs as the batch function (poses, placements,
segment ends), so it builds its shapely objects, then makes the shapely calls. Building
polygons is most of its time; the note column also gives the ratio against the calls
alone, on shapes built beforehand ("vs prebuilt shapes").

Speed is measured here and never asserted by the test suite.
"""
