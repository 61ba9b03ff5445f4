"""The store probe (consumer/store_probe.py): asks only when due, jittered, and never raises."""

from __future__ import annotations

from groundwatch.consumer.store_probe import StoreProbe


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_asks_only_when_due_and_reports_the_first_answer():
    clock, asked, answers = Clock(), [], iter([False, True])

    def answer() -> bool:
        asked.append(clock.now)
        return next(answers)

    probe = StoreProbe(answer, interval_s=2.0, jitter=0.0, clock=clock)
    assert probe.answers() is False and asked == [], "not due right after the failure"
    assert probe.due_in() == 2.0
    clock.now += 2.0
    assert probe.answers() is False and asked == [102.0]
    clock.now += 1.0
    assert probe.answers() is False and asked == [102.0]
    clock.now += 1.0
    assert probe.answers() is True and asked == [102.0, 104.0]


def test_intervals_are_jittered_within_bounds():
    clock = Clock()
    gaps = {round(StoreProbe(lambda: True, interval_s=2.0, jitter=0.2, clock=clock).due_in(), 6) for _ in range(50)}
    assert len(gaps) > 1 and all(1.6 <= g <= 2.4 for g in gaps)


def test_a_probe_that_raises_counts_as_no_answer():
    clock = Clock()

    def broken() -> bool:
        raise ConnectionError("down")

    probe = StoreProbe(broken, interval_s=1.0, jitter=0.0, clock=clock)
    clock.now += 1.0
    assert probe.answers() is False
