"""Shared test configuration: the hypothesis profile every property test runs under."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

#: "ci": no per-example deadline (shapely's first calls are slow to warm up) and a modest
#: example count, so the whole suite stays well under a minute.
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=60,
    suppress_health_check=(HealthCheck.too_slow,),
)
settings.load_profile("ci")
