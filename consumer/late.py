"""Responses that missed the scoring deadline: backpressure, not dead letters.

A deadline overrun usually says the machine was busy (a CPU squeeze, a slow
batch beside it), not that the message is bad; dead-lettering it would lose a
valid verdict that nobody replays. So the late responses of a batch are scored
again: before each try the partitions stay paused for a moment while polling
goes on (`wait`, which keeps this member in the group), each try gets a fresh
deadline, and every round scores them in groups half as large as the round
before, down to one response at a time. Only a response that misses the
deadline scored alone `tries_alone` times is dead-lettered (reason deadline):
alone, its lateness is its own. Each round takes the records smallest first and
the largest alone, last: when one outsized record made the batch late, the
others are scored without it in the first round instead of sharing its group
round after round.

Bounds: with n late responses the rounds use groups of n/2, n/4, ... 1 (about
2n tries, plus one try alone per round), then `tries_alone - 1` more rounds of
single responses at most, each try within scorer.batch_deadline_s: the batch is
committed within about 2n + (tries_alone - 1) * n deadlines in the worst case, a few seconds when the
squeeze has passed. What is settled is not held back that long: before each
try, `flush` writes the verdicts and dead letters settled so far (not
committing), so the responses scored in time, or in an earlier try, get their
documents while the late ones are still tried. Shutdown stops the retries and
leaves the batch uncommitted, to be read again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from groundwatch.config.logs import get_logger
from groundwatch.consumer.batch import Batch
from groundwatch.consumer.prepare import settle
from groundwatch.export.metrics import Metrics
from groundwatch.scorers.errors import DeadlineExceeded

log = get_logger(__name__)


@dataclass
class Late:
    message: object
    response: object  # scorers.schema.Response
    alone: int = 0    # deadline misses while scored alone


def retry_late(batch: Batch, late: list[tuple], score: Callable[[list], list], metrics: Metrics,
               tries_alone: int, wait: Callable[[], bool], flush: Callable[[], None] = lambda: None) -> None:
    """Score the late (message, response) pairs again until each is scored or dead-lettered.

    `score(responses)` returns results by position under a fresh deadline; `wait()` pauses
    between tries and returns False when the batch must stop (shutdown: left interrupted);
    `flush()` writes what is settled so far, before each try (Checkpoint.flush).
    A message whose partition a rebalance took away is no longer tried (the new owner reads it).
    """
    pending = [Late(msg, response) for msg, response in late]
    size = len(pending)
    while pending and not batch.interrupted:
        size = max(1, (size + 1) // 2)
        log.warning("deadline_backpressure", late=len(pending), group_size=size)
        again: list[Late] = []
        for group in _groups(pending, size):
            flush()
            if not wait():
                batch.interrupted = True
                return
            group = [item for item in group if batch.owns(item.message)]
            if not group:
                continue
            results = score([item.response for item in group])
            scored = []
            for item, result in zip(group, results):
                if isinstance(result, DeadlineExceeded) and len(group) == 1:
                    item.alone += 1
                outcome = settle(batch, item.message, item.response, result, metrics,
                                 late_is_final=item.alone >= tries_alone)
                if outcome == "late":
                    again.append(item)
                elif outcome == "scored":
                    scored.append(result)
                elif outcome == "interrupted":
                    return
            metrics.scored(scored)
        pending = again
    if not batch.interrupted:
        batch.prepared = True


def _groups(pending: list[Late], size: int) -> list[list[Late]]:
    """Groups of `size`, smallest records first, and the largest record alone, last."""
    ordered = sorted(pending, key=lambda item: len(item.message.value() or b""))
    rest, largest = ordered[:-1], ordered[-1:]
    return [rest[i:i + size] for i in range(0, len(rest), size)] + [largest]
