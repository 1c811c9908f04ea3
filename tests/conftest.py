"""Shared test configuration: the hypothesis profile every property test runs under."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

#: "ci": no per-example deadline (shapely's first calls are slow to warm up) and a modest
#: example count, so the whole suite stays well under a minute.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=60,
    suppress_health_check=(HealthCheck.too_slow,),
)
#: "thorough": many more examples, for a hunt before a release
#: (``TABLETOP_HYPOTHESIS=thorough make test``).
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=(HealthCheck.too_slow,),
)
settings.load_profile(os.environ.get("TABLETOP_HYPOTHESIS", "ci"))
