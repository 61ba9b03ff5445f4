"""The pair cache on a stream with repetition: the bench's responses replayed with shuffled duplicates.

Production traffic repeats itself: the same answer is checked again (a retry, a replayed topic), and
different answers share retrieved passages. The replay (seed 0) holds every response once, and again 0 to 2
more times: either the same record, or the same answer with its passages reordered and one passage of
another response added, so a repeat shares most of its pairs and brings a few new ones. It is scored
REPLAY_BATCH responses per call by a scorer with the pair cache on (scorer.pair_cache_size's default) and
one with it off (0), interleaved, median of the repeats. The claim and embedding caches are on in both,
so the difference is the pair cache's alone.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from dataclasses import asdict

REPLAY_BATCH = 8  # responses per scorer call, a small consumer poll
SEED = 0


def replay_stream(records: list[dict], seed: int = SEED) -> list[dict]:
    """Each record once, plus 0-2 repeats (exact, or passages reordered with another record's passage added),
    shuffled; every copy gets its own request id."""
    rng = random.Random(seed)
    out = []
    for i, record in enumerate(records):
        out.append(record)
        others = [p for j, r in enumerate(records) if j != i for p in r["passages"]]
        for k in range(rng.randint(0, 2)):
            repeat = copy.deepcopy(record)
            repeat["request_id"] = f"{record.get('request_id', i)}-again-{k}"
            if others and rng.random() < 0.5:
                rng.shuffle(repeat["passages"])
                shared = dict(rng.choice(others), id=f"shared-{k}")
                repeat["passages"].append(shared)
            out.append(repeat)
    rng.shuffle(out)
    return out


def measure_replay(fresh, records: list[dict], repeats: int) -> dict:
    """Responses/s with the pair cache on and off over the same replay; the cache's lookups and the model
    inputs of each (the last repeat's; the replay is the same every time)."""
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.schema import parse_response

    stream = [parse_response(r) for r in replay_stream(records)]
    sizes = {"cache_on": ScorerConfig().pair_cache_size, "cache_off": 0}
    seconds: dict[str, list[float]] = {name: [] for name in sizes}
    counts: dict[str, dict] = {}
    for i in range(repeats):
        for name in (list(sizes) if i % 2 == 0 else list(reversed(sizes))):  # interleaved, alternating order
            scorer = fresh(pair_cache_size=sizes[name])
            start = time.perf_counter()
            for at in range(0, len(stream), REPLAY_BATCH):
                scorer.score(stream[at:at + REPLAY_BATCH])
            seconds[name].append(time.perf_counter() - start)
            scorer.close()
            counts[name] = {"model_inputs": scorer.batcher.stats.pairs, **asdict(scorer.pairs.stats)}
    on = counts["cache_on"]
    lookups = on["hits"] + on["misses"] + on["joined"]
    median = {name: statistics.median(v) for name, v in seconds.items()}
    return {"responses": len(stream), "distinct": len(records), "batch": REPLAY_BATCH, "seed": SEED,
            "repeats": repeats, "seconds": seconds,
            "responses_per_s": {name: len(stream) / m for name, m in median.items()},
            "cache_on_vs_off": median["cache_off"] / median["cache_on"],
            "hit_rate": (on["hits"] + on["joined"]) / lookups if lookups else 0.0, "lookups": counts}
