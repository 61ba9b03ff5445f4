"""Caches bounded in bytes (scorers/byte_cache.py): eviction, estimates, and memory under a stream
of huge distinct texts.

    python -m tests.unit.test_byte_cache --records 120   # RSS per record with the shipped budgets
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from groundwatch.scorers import byte_cache
from groundwatch.scorers.byte_cache import MB, ByteLRU, byte_cached, deep_size

ROOT = Path(__file__).resolve().parents[2]


def test_least_recently_used_entries_leave_until_the_budget_fits():
    cache = ByteLRU(1000, max_entry=1.0, sizer=lambda key, value: 300)
    for key in "abc":
        cache.put(key, key)
    assert cache.get("a") == "a"  # a is now the most recent
    cache.put("d", "d")
    assert "b" not in cache and all(k in cache for k in "acd")
    assert cache.nbytes == 900 and cache.nbytes <= cache.budget


def test_an_entry_over_its_share_of_the_budget_is_not_kept():
    cache = ByteLRU(1000, sizer=lambda key, value: len(value))
    cache.put("small", "x" * 100)
    assert cache.put("huge", "x" * 251) is False
    assert "huge" not in cache and "small" in cache  # the small one was not evicted for it


def test_replacing_a_key_counts_its_bytes_once():
    cache = ByteLRU(1000, sizer=lambda key, value: len(value))
    cache.put("k", "x" * 200)
    cache.put("k", "x" * 100)
    assert cache.nbytes == 100 and len(cache) == 1


def test_resize_evicts_at_once():
    cache = ByteLRU(1000, sizer=lambda key, value: 200)
    for key in range(5):
        cache.put(key, key)
    cache.resize(500)
    assert cache.nbytes <= 500 and list(k for k in range(5) if k in cache) == [3, 4]


def test_byte_cached_returns_the_stored_result_and_does_not_cache_errors():
    calls = []

    @byte_cached(MB)
    def f(text: str, n: int = 0) -> list[str]:
        calls.append((text, n))
        if text == "bad":
            raise ValueError(text)
        return [text]

    assert f("a") is f("a") and calls == [("a", 0)]
    assert f("a", 1) is not f("a")  # two arguments: their own key
    for _ in range(2):
        with pytest.raises(ValueError):
            f("bad")
    assert calls.count(("bad", 0)) == 2
    assert f.cache_info().hits == 2
    f.cache_clear()
    f("a")
    assert calls.count(("a", 0)) == 2


def test_deep_size_counts_contents_and_each_object_once():
    text = "x" * 10_000
    assert deep_size(text) == sys.getsizeof(text)
    assert deep_size((text, text, [text])) < 2 * sys.getsizeof(text)
    assert deep_size({"k": [text, "y" * 5000]}) > sys.getsizeof(text) + 5000


# Caches keyed by something other than request text, bounded by count.
BOUNDED_BY_COUNT = {"scorers/verdicts/calibration.py _contradicts"}  # model directory paths from the settings, 32


def test_every_scorer_cache_is_bounded_in_bytes():
    """No lru_cache / functools.cache in scorers/ but the maxsize=1 loaders (of no argument)."""
    found = []
    for path in sorted((ROOT / "scorers").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for dec in node.decorator_list:
                name = ast.unparse(dec)
                where = f"{path.relative_to(ROOT)} {node.name}"
                if ("lru_cache" in name or name in ("cache", "functools.cache")) and (
                        name != "lru_cache(maxsize=1)" or node.args.args) and where not in BOUNDED_BY_COUNT:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {name}")
    assert not found, found


def _texts() -> list[str]:
    from groundwatch.scorers.english.sentences import sentence_spans

    out = []
    for line in (ROOT / "examples" / "responses.jsonl").read_text().splitlines():
        record = json.loads(line)
        out.append(record["answer"])
        for p in record["passages"]:
            out.append(p["text"])
            out.extend(p["text"][s:e] for s, e in sentence_spans(p["text"]))
    for unit in ("a b ", "word ", "x", "1. ", "$5, ", "un-able ", "U.S. ", "Ünïcödé ", "😀 ", ". ", "not "):
        out.append(unit * (20_000 // len(unit)))
    return out + ["", " ", "a"]


def test_analysis_estimates_are_not_below_what_the_analysis_holds():
    from groundwatch.scorers.english.clauses import clauses_of
    from groundwatch.scorers.english.lemmas import analyse, analysed_bytes

    for text in _texts():
        analysed = analyse.__wrapped__(text)
        analysed.content, analysed.lemmas, analysed.antonym_aware  # noqa: B018 - the lemma sets, computed later
        assert analysed_bytes(text, len(analysed.tokens)) >= deep_size((text, analysed)), text[:40]
        clauses = clauses_of.__wrapped__(text)
        estimate = analysed_bytes(text, sum(len(c.tokens) for c in clauses), len(clauses))
        assert estimate >= deep_size((text, clauses)), text[:40]


# -- memory under a stream of huge distinct texts -----------------------------------------------------------------

def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def stream(records: int, scale: float, passage_chars: int, embeddings: bool = False) -> None:
    """Score `records` responses of distinct unpunctuated walls of words (one passage, a 4 kB answer)
    with every cache budget times `scale`; print one JSON line per record (RSS, cached bytes)."""
    from groundwatch.config.scorer import ScorerConfig
    from groundwatch.scorers.pipeline import Scorer
    from groundwatch.scorers.schema import Passage, Response

    rng = random.Random(0)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
             for _ in range(20_000)]

    def wall(chars: int) -> str:
        return " ".join(rng.choice(words) for _ in range(chars // 7))

    scorer = Scorer.from_config(ScorerConfig(backend="fake", use_embeddings=embeddings))
    byte_cache.scale_budgets(scale)
    print(json.dumps({"record": -1, "rss_mb": _rss_mb(), "budget_mb": byte_cache.total_budget() / MB}), flush=True)
    for i in range(records):
        response = Response(request_id=f"r{i}", answer=f"Plan {i} costs 30 dollars a month and " + wall(4000),
                            passages=[Passage(id="p1", text=wall(passage_chars) + " Refunds take 12 days.")])
        scorer.score([response])
        print(json.dumps({"record": i, "rss_mb": _rss_mb(), "cached_mb": byte_cache.total_bytes() / MB}),
              flush=True)
    scorer.close()


def run_stream(records: int, scale: float, passage_chars: int, embeddings: bool = False) -> list[dict]:
    code = (f"from tests.unit.test_byte_cache import stream; "
            f"stream({records}, {scale}, {passage_chars}, {embeddings})")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


# RSS growth allowed after the first record beyond the (scaled) cache budgets: the allocator's slack
# and the scorer's own structures. Once the caches are full, memory stays flat: the second half of
# the stream may add at most FLAT_MB. Measured: 21 MB over the stream and 2 MB in its second half;
# with unbounded caches (scale 1000) the same stream grew 87 MB, 39 MB of it in the second half.
SLACK_MB = 16
FLAT_MB = 10


def test_a_stream_of_huge_distinct_texts_keeps_rss_under_the_cache_budget():
    start, *rows = run_stream(records=40, scale=1 / 8, passage_chars=30_000)
    rss = [r["rss_mb"] for r in rows]
    assert max(r["cached_mb"] for r in rows) <= start["budget_mb"]
    assert max(rss) - rss[0] < start["budget_mb"] + SLACK_MB, rss
    assert max(rss[20:]) - rss[19] < FLAT_MB, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=120)
    parser.add_argument("--scale", type=float, default=1.0, help="times every cache budget")
    parser.add_argument("--passage-chars", type=int, default=99_000)
    parser.add_argument("--embeddings", action="store_true", help="also the embedder (its cache included)")
    args = parser.parse_args()
    stream(args.records, args.scale, args.passage_chars, args.embeddings)


if __name__ == "__main__":
    main()
