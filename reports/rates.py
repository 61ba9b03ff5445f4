"""Rates with 95% intervals for claims clustered in responses.

Claims of one response are not independent: one bad retrieval sinks all its claims.
A plain binomial interval over claims is then too narrow, so claim-level rates use
Kish's design effect

    DEFF = 1 + (m - 1) * rho

with m the mean number of (non-skipped) claims per response and rho the
intra-response correlation of the binary outcome, estimated with the one-way ANOVA
estimator for binary data (Fleiss 1981; Ridout, Demetrio & Firth 1999, Biometrics 55):
for k responses with n_i claims, y_i of them "successes", N = sum n_i, Y = sum y_i,

    MSB = (sum y_i^2 / n_i - Y^2 / N) / (k - 1)            between responses
    MSW = (Y - sum y_i^2 / n_i) / (N - k)                  within responses
    n0  = (N - sum n_i^2 / N) / (k - 1)
    rho = (MSB - MSW) / (MSB + (n0 - 1) * MSW)

The estimator can fall below zero; it is truncated at 0 so that clustering never makes
an interval narrower than the independent-claims one. The effective sample size is
n_eff = N / DEFF and the interval is Wilson's score interval on (p_hat, n_eff).
Response-level rates use Wilson's interval on the plain count of responses.

Why not scipy or statsmodels: scipy's binomtest().proportion_ci needs integer counts and
n_eff above is fractional; statsmodels would be a large dependency for a six-line interval.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Sequence

Z95 = 1.959963984540054  # standard normal quantile for a two-sided 95% interval


@dataclass(frozen=True)
class Rate:
    successes: int
    n: int
    estimate: float | None
    low: float | None
    high: float | None
    n_effective: float | None = None
    rho: float | None = None
    deff: float | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial share; n may be an effective (non-integer) size."""
    if n <= 0:
        raise ValueError("Wilson interval needs n > 0")
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def icc_anova(clusters: Sequence[tuple[int, int]]) -> float:
    """ANOVA estimate of the intra-cluster correlation of a binary outcome.

    `clusters` holds (successes, size) per cluster; empty clusters are ignored.
    Returns 0.0 where rho is not estimable (fewer than two clusters, no within-cluster
    degrees of freedom, or no variation at all); the raw estimate may be negative.
    """
    clusters = [(y, n) for y, n in clusters if n > 0]
    k = len(clusters)
    total = sum(n for _, n in clusters)
    if k < 2 or total - k < 1:
        return 0.0
    successes = sum(y for y, _ in clusters)
    sum_sq_ratio = sum(y * y / n for y, n in clusters)
    msb = (sum_sq_ratio - successes * successes / total) / (k - 1)
    msw = (successes - sum_sq_ratio) / (total - k)
    n0 = (total - sum(n * n for _, n in clusters) / total) / (k - 1)
    denominator = msb + (n0 - 1.0) * msw
    if denominator <= 0.0:
        return 0.0
    return (msb - msw) / denominator


def design_effect(mean_cluster_size: float, rho: float) -> float:
    """Kish's DEFF = 1 + (m - 1) * rho, with rho truncated to [0, 1]."""
    rho = min(1.0, max(0.0, rho))
    return 1.0 + max(0.0, mean_cluster_size - 1.0) * rho


def clustered_rate(clusters: Sequence[tuple[int, int]], rho: float | None = None,
                   z: float = Z95) -> Rate:
    """Share of successes over clustered trials, Wilson interval on the effective n.

    Pass `rho` to reuse a pooled estimate (small time buckets give noisy ones).
    """
    clusters = [(y, n) for y, n in clusters if n > 0]
    total = sum(n for _, n in clusters)
    successes = sum(y for y, _ in clusters)
    if total == 0:
        return Rate(0, 0, None, None, None)
    if rho is None:
        rho = icc_anova(clusters)
    rho = min(1.0, max(0.0, rho))
    deff = design_effect(total / len(clusters), rho)
    n_eff = total / deff
    low, high = wilson(successes / total * n_eff, n_eff, z)
    return Rate(successes, total, successes / total, low, high, n_eff, rho, deff)


def simple_rate(successes: int, n: int, z: float = Z95) -> Rate:
    """Share of independent units (responses) with Wilson's interval."""
    if n == 0:
        return Rate(0, 0, None, None, None)
    low, high = wilson(successes, n, z)
    return Rate(successes, n, successes / n, low, high, float(n), None, 1.0)
