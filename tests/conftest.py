"""Test configuration: hypothesis runs deterministically in CI, exploratory elsewhere."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# CI must never fail by chance: derandomize there. On a developer's machine the
# "explore" profile draws new examples each run; pin every failure it finds as an
# @example in the test that found it.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", max_examples=300, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "explore"))
