"""Wilson intervals, the ANOVA intra-cluster correlation and the design effect."""

from __future__ import annotations

import numpy as np
import pytest

from groundwatch.reports.rates import clustered_rate, design_effect, icc_anova, simple_rate, wilson


@pytest.mark.parametrize("successes, n, low, high", [
    # Newcombe (1998), Stat Med 17:857, Table II, method 3 (Wilson score, no continuity correction).
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_published_values(successes, n, low, high):
    got = wilson(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_around_one_half():
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high)
    assert low == pytest.approx(0.2366, abs=5e-5)


def test_icc_is_one_when_every_response_is_all_or_nothing():
    clusters = [(4, 4)] * 30 + [(0, 4)] * 10 + [(3, 3)] * 5 + [(0, 2)] * 5
    assert icc_anova(clusters) == pytest.approx(1.0)


def test_icc_is_near_zero_for_independent_claims():
    rng = np.random.default_rng(7)
    outcomes = rng.random((3000, 5)) < 0.8
    clusters = [(int(row.sum()), 5) for row in outcomes]
    assert abs(icc_anova(clusters)) < 0.03


def _balanced_icc(outcomes: np.ndarray) -> float:
    # Textbook one-way random-effects ICC(1) from group means, written independently.
    k, m = outcomes.shape
    grand = outcomes.mean()
    group = outcomes.mean(axis=1)
    msb = m * ((group - grand) ** 2).sum() / (k - 1)
    msw = ((outcomes - group[:, None]) ** 2).sum() / (k * (m - 1))
    return (msb - msw) / (msb + (m - 1) * msw)


def test_icc_recovers_a_beta_binomial_correlation():
    # Success probability per response ~ Beta(2, 2): true rho = 1 / (2 + 2 + 1) = 0.2.
    rng = np.random.default_rng(11)
    p = rng.beta(2.0, 2.0, size=4000)
    outcomes = (rng.random((4000, 6)) < p[:, None]).astype(float)
    clusters = [(int(row.sum()), 6) for row in outcomes]
    estimate = icc_anova(clusters)
    assert estimate == pytest.approx(_balanced_icc(outcomes), abs=1e-12)
    assert estimate == pytest.approx(0.2, abs=0.03)


def test_icc_with_unequal_sizes_by_hand():
    # k=3, N=7, Y=4, sum y^2/n = 4/2 + 1/3 + 1/2 = 17/6.
    clusters = [(2, 2), (1, 3), (1, 2)]
    msb = (17 / 6 - 16 / 7) / 2
    msw = (4 - 17 / 6) / 4
    n0 = (7 - 17 / 7) / 2
    assert icc_anova(clusters) == pytest.approx((msb - msw) / (msb + (n0 - 1) * msw))


def test_icc_is_zero_when_not_estimable():
    assert icc_anova([(3, 5)]) == 0.0  # one cluster
    assert icc_anova([(1, 1), (0, 1), (1, 1)]) == 0.0  # no within-cluster degrees of freedom
    assert icc_anova([(4, 4), (3, 3)]) == 0.0  # no variation at all


def test_design_effect():
    assert design_effect(5, 0.25) == pytest.approx(2.0)
    assert design_effect(5, 0.0) == 1.0
    assert design_effect(5, -0.2) == 1.0  # a negative estimate never narrows the interval
    assert design_effect(1, 0.9) == 1.0


def test_perfect_clustering_shrinks_n_to_the_number_of_responses():
    clusters = [(4, 4)] * 30 + [(0, 4)] * 10
    rate = clustered_rate(clusters)
    assert rate.deff == pytest.approx(4.0)
    assert rate.n_effective == pytest.approx(40.0)
    assert (rate.low, rate.high) == pytest.approx(wilson(30, 40))
    assert rate.estimate == pytest.approx(0.75)


def test_clustered_interval_is_wider_than_the_naive_one_when_claims_cluster():
    clusters = [(3, 3)] * 20 + [(1, 3)] * 10 + [(0, 3)] * 5
    rate = clustered_rate(clusters)
    naive = wilson(rate.successes, rate.n)
    assert rate.rho > 0.3
    assert rate.high - rate.low > naive[1] - naive[0]


def test_pooled_rho_is_used_when_given():
    rate = clustered_rate([(1, 2), (2, 2)], rho=1.0)
    assert rate.deff == 2.0 and rate.n_effective == 2.0


def test_empty_rates_have_no_estimate():
    assert clustered_rate([]).estimate is None
    assert simple_rate(0, 0).low is None
    assert simple_rate(3, 4).estimate == 0.75
