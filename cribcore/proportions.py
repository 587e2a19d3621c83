"""A measured proportion's confidence interval, for every figure that is counted from samples.

A low module: the simulator (`cribcore.simulate`, which re-exports `wilson_interval`) and the sampled
show statistics (`cribcore.stats_any_rule`) both give their rates with it.
"""

from __future__ import annotations

import math

__all__ = ["wilson_interval"]


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default); ``(0, 1)`` when ``trials`` is 0."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
