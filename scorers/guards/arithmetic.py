"""Arithmetic: a claim number that is not in the passages but follows from passage numbers by one step.

One operation on numbers of the claim's best-aligned sentences (and the
claim's own other numbers):
- conversion: weeks <-> days, per month -> per year, TB -> GB, km -> metres, 8 pm -> 20:00, a time range ->
  its duration (scorers.english.quantities), always tried; a calendar month is 28 to 31 days;
- total: the parts one sentence lists ("100 GB of photos and 100 GB of documents" -> 200 GB), always tried;
- percentage of: 1.5% of a €200 payment = €3, always tried;
- percentage change: $200M -> $230M is +15% (also a change in percentage points),
  when the claim says so ("rose", "fell", "increase", "more", "by"; "up to" is a bound, not a change);
- sum, difference, ratio: when the claim names one ("in total", "more than",
  "twice", "3x");
- an end time: a start time plus a duration ("start at 10:00 and last five hours" -> end at 15:00), tried
  when the claim says when something ends ("end", "finish", "until"); it finds, it never convicts.
A derived number within the claim's rounding (half a unit of its last digit;
5% after "about") counts as found. A claim number that an operation the claim
names should give, but does not, is an arithmetic mismatch; the guard fires with
the computation shown and caps the verdict at NOT_ENOUGH_INFO. Only a wrong
conversion of the same quantity of the same subject is a verified mismatch
(scorers.guards.mismatch) and may make the claim CONTRADICTED.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import permutations

from groundwatch.scorers.guards.evidence import EvidenceSentence, align
from groundwatch.scorers.english.lemmas import analyse
from groundwatch.scorers.english.lexicon import CUE_CHANGE, CUE_DIFFERENCE, CUE_RATIO, CUE_SUM
from groundwatch.scorers.guards.mismatch import verify
from groundwatch.scorers.english.quantities import (Quantity, format_value, is_year, passage_quantities, present,
                                                    quantities, read)
from groundwatch.scorers.english.units import PINT_UNITS, convert
from groundwatch.scorers.guards.result import CONTRADICTED, NOT_ENOUGH_INFO, GuardResult

NAME = "arithmetic"
FLAG = "arithmetic_mismatch"
_FALLING = frozenset({"fall", "drop", "decrease", "decline", "reduce", "shrink", "cut", "down", "lose", "lower",
                      "cheaper", "less", "fewer", "save", "saving", "off", "discount", "smaller", "shorter"})
# Words that name a percentage change besides the change verbs: "30% off", "a 10% discount", "a fifth bigger".
_PERCENT_CHANGE = frozenset({"by", "off", "discount", "bigger", "larger", "smaller", "longer", "shorter"})
_RISING = frozenset({"bigger", "larger", "longer", "higher"})
# Measured units and money: a bare number is not the same quantity as one of these ("40,000" is not £40,000).
_MONEY = frozenset({"usd", "eur", "gbp"})
_MEASURED = _MONEY | {"%", "pp", "clock"}
# A claim time that says when something ends: a start time plus a duration may give it.
_ENDING = frozenset({"end", "finish", "until", "over", "close", "done"})
_HOURS = Quantity(0.0, "hour", "", "", 0, 0, 0)


@dataclass(frozen=True)
class Derivation:
    # conversion | percent_of | percent_change | point_change | sum | total (every part a sentence lists) |
    # difference | ratio
    op: str
    operands: tuple[Quantity, ...]
    value: float
    expression: str
    high: float | None = None    # a conversion through a calendar unit gives a range: value .. high

    def to_record(self) -> dict:
        return {"op": self.op, "operands": [q.text for q in self.operands], "value": round(self.value, 6),
                "expression": self.expression}


def _num(v: float) -> str:
    return f"{v:,.6f}".rstrip("0").rstrip(".")


def _same_kind(a: Quantity, b: Quantity) -> bool:
    return a.unit == b.unit and a.rate == b.rate and a.unit != "%"


def _comparable(a: Quantity, b: Quantity) -> bool:
    """Two values one can take a change or ratio of: the same unit and rate, or a count and the bare number
    that leaves its noun out ("46,000 visitors in 2025, up from 40,000")."""
    if a.rate != b.rate:
        return False
    if a.unit == b.unit:
        return True
    counted = b.unit if not a.unit else a.unit if not b.unit else None
    return bool(counted) and counted not in _MEASURED and counted not in PINT_UNITS


def _conversion(target: Quantity, op: Quantity) -> Derivation | None:
    """`op` in the unit and rate of `target` (another unit or rate of one dimension; a time of day or a
    number written otherwise, "20:00" for "8 pm", when the value is the same)."""
    span = convert(op, target)
    if span is None and op.span and target.rate:  # "18:00 to 21:30" is three and a half hours each evening
        span = convert(op, replace(target, rate=""))
    if span is None or op is target:
        return None
    low, high = span
    shown = format_value(low, target.unit, target.rate)
    if high > low:
        shown = f"{format_value(low, target.unit)}–{format_value(high, target.unit, target.rate)}"
    if op.unit == target.unit and op.rate == target.rate:  # the same value written otherwise, exactly
        if op.text == target.text or abs(op.value - target.value) > 1e-9:
            return None
        return Derivation("conversion", (op,), op.value, f"{target.text} = {op.text}")
    f = (low / op.value, high / op.value) if op.value else (0.0, 0.0)
    factor = _num(f[0]) if high == low else f"{_num(round(f[0], 4))}–{_num(round(f[1], 4))}"
    return Derivation("conversion", (op,), low, f"{op.text} = {_num(op.value)} × {factor} = {shown}",
                      high if high > low else None)


def _percent_of(target: Quantity, pct: Quantity, base: Quantity) -> Derivation | None:
    # a base without a rate may give a result with one ("6% of a £45,000 salary is £2,700 a year")
    same = _same_kind(base, target) or (base.unit == target.unit and base.unit != "%" and not base.rate)
    if pct.unit != "%" or not same or base is target:
        return None
    value = pct.value / 100 * base.value
    return Derivation("percent_of", (pct, base), value,
                      f"{pct.text} of {base.text} = {_num(pct.value)} / 100 × {_num(base.value)} = "
                      f"{format_value(value, target.unit, target.rate)}")


def _binary(op: str, target: Quantity, a: Quantity, b: Quantity, falling: bool | None) -> Derivation | None:
    # a is the old value: a rise needs b > a, a fall b < a; without a direction either order.
    if op in ("percent_change", "point_change") and (falling is True and b.value > a.value
                                                     or falling is False and b.value < a.value):
        return None
    if op == "percent_change":
        if not _comparable(a, b) or not a.value:
            return None
        value = abs(b.value - a.value) / abs(a.value) * 100
        return Derivation(op, (a, b), value, f"({_num(b.value)} - {_num(a.value)}) / {_num(a.value)} × 100 = "
                          f"{_num(round(value, 4))}%")
    if op == "point_change":
        if a.unit != "%" or b.unit != "%":
            return None
        value = abs(b.value - a.value)
        return Derivation(op, (a, b), value, f"{a.text} -> {b.text}: {_num(round(value, 4))} percentage points")
    if op in ("sum", "difference") and (target.unit == "%" or not _same_kind(a, target) or not _same_kind(b, target)):
        return None
    if op == "sum":
        value = a.value + b.value
        return Derivation(op, (a, b), value, f"{a.text} + {b.text} = {format_value(value, target.unit, target.rate)}")
    if op == "difference":
        if b.value > a.value:
            return None
        value = a.value - b.value
        return Derivation(op, (a, b), value, f"{a.text} - {b.text} = {format_value(value, target.unit, target.rate)}")
    if op == "end_time":
        hours = convert(b, _HOURS)
        if a.unit != "clock" or b.unit == "clock" or b.span or hours is None or hours[0] != hours[1]:
            return None
        value = (a.value + hours[0]) % 24
        return Derivation(op, (a, b), value, f"{a.text} + {b.text} = {format_value(value, 'clock')}")
    if op == "ratio":
        if not _comparable(a, b) or not b.value or a.value < b.value:
            return None
        value = a.value / b.value
        return Derivation(op, (a, b), value, f"{a.text} / {b.text} = {_num(round(value, 4))}×")
    return None


def _named_ops(target: Quantity, claim_lemmas: frozenset[str]) -> list[str]:
    """Operations the claim's wording names for this number."""
    ops = []
    if target.unit in ("%", "pp") and claim_lemmas & (CUE_CHANGE | CUE_DIFFERENCE | _PERCENT_CHANGE):
        ops += ["percent_change", "point_change"] if target.unit == "%" else ["point_change"]
    if target.ratio or (claim_lemmas & CUE_RATIO and target.unit not in ("%", "pp")):
        ops.append("ratio")
    if target.unit not in ("%", "pp") and not target.ratio:
        # a price of one thing "with" another ("a thermostat with fitting costs £160") is their sum
        if claim_lemmas & CUE_SUM or target.unit in _MONEY and "with" in claim_lemmas:
            ops.append("sum")
        if claim_lemmas & (CUE_DIFFERENCE | CUE_CHANGE):
            ops.append("difference")
    return ops


# Derivations pair every operand with every other for each claim number: cubic in the numbers of a claim and
# its best sentences. A claim of arithmetic names a few numbers; one that lists hundreds is checked on the first.
MAX_TARGETS, MAX_OPERANDS = 8, 48


def derivations(target: Quantity, operands: list[Quantity], claim_lemmas: frozenset[str]) -> tuple[
        list[Derivation], list[Derivation]]:
    """(always-tried derivations, derivations of the operations the claim names) for one claim number."""
    free: list[Derivation] = []
    for op in operands:
        d = _conversion(target, op)
        if d:
            free.append(d)
    for pct, base in permutations(operands, 2):
        d = _percent_of(target, pct, base)
        if d:
            free.append(d)
    if target.unit == "clock" and claim_lemmas & _ENDING:  # found when it checks out, never a mismatch
        free += [d for start, length in permutations(operands, 2)
                 if (d := _binary("end_time", target, start, length, None))]
    named: list[Derivation] = []
    falling = True if claim_lemmas & _FALLING else (False if claim_lemmas & (CUE_CHANGE | _RISING) else None)
    for op in _named_ops(target, claim_lemmas):
        for a, b in permutations(operands, 2):
            d = _binary(op, target, a, b, falling if op in ("percent_change", "point_change") else None)
            if d:
                named.append(d)
    return free, named


def _matches(d: Derivation, target: Quantity) -> bool:
    """Within the claim's rounding; a conversion within 5% as well: "1 hour" rounds 1.4 hours but does not
    say 90 minutes."""
    high = d.value if d.high is None else d.high
    tolerance = target.tolerance if d.op != "conversion" else min(target.tolerance, 0.05 * abs(target.value))
    return d.value - tolerance - 1e-9 <= target.value <= high + tolerance + 1e-9


_PART_JOINS = frozenset({"and", "plus", "+"})


def _joined(gap: str, last: bool) -> bool:
    """Two listed parts: joined by "and" / "plus" within a clause ("a £20 joining fee and your first month's
    fee of £34"), or by a comma and a few words before the last part."""
    words = [t for t in analyse(gap).tokens if not t.is_punct]
    if any(t.lemma in _PART_JOINS for t in words):
        return len(words) <= 10
    return not last and "," in gap and len(words) <= 4


def _totals(target: Quantity, sentences: list[EvidenceSentence]) -> list[Derivation]:
    """The total of the parts one sentence lists ("100 GB of photos and 100 GB of documents", "£1,520 for the
    council, £260 for the police and £95 for the fire service"): every quantity of the target's kind in the
    sentence, each after the first a few words on, the last joined by "and" / "plus"."""
    out = []
    for s in sentences:
        parts = [q for q in read(s.text) if _same_kind(q, target) and not q.span and not is_year(q)]
        if len(parts) < 2:
            continue
        gaps = [s.text[a.end:b.start] for a, b in zip(parts, parts[1:])]
        if all(_joined(g, n == len(gaps) - 1) for n, g in enumerate(gaps)):
            value = sum(q.value for q in parts)
            out.append(Derivation("total", tuple(parts), value, " + ".join(q.text for q in parts) + " = "
                                  + format_value(value, target.unit, target.rate)))
    return out


def _part_of_listing(d: Derivation, listings: list[Derivation]) -> bool:
    """A sum of some of the parts one sentence lists is not their total ("totals £1,780" against "£1,520 for the
    council, £260 for the police and £95 for the fire service")."""
    return d.op == "sum" and any({id(q) for q in d.operands} < {id(q) for q in t.operands} for t in listings)


# "up" and "down" name a change only as one: "went up", "is up 5%", "down from", "up by"; not "sign up", "up to",
# "shut down".
_CHANGE_PARTICLES = frozenset({"up", "down"})
_PARTICLE_CHANGE_BEFORE = frozenset({"be", "go", "come", "move", "put", "push", "bring", "mark", "%"})
_PARTICLE_CHANGE_AFTER = frozenset({"by", "from"})


def _cue_lemmas(claim: str) -> frozenset[str]:
    """The claim's lemmas that may name an operation; "up" and "down" only where they name a change."""
    tokens = analyse(claim).tokens
    out = set()
    for k, t in enumerate(tokens):
        following = [x.lemma for x in tokens[k + 1:k + 3]]
        # "comes to £100", "add up to £1,349", "£580 including the crown" name a total ("adds a year" does not)
        if (t.lemma, following[:1]) == ("come", ["to"]) or (t.lemma, following) == ("add", ["up", "to"]) or (
                t.text.lower() == "including"):
            out.add("total")
        if t.lemma in _CHANGE_PARTICLES:
            before = tokens[k - 1] if k else None
            after = tokens[k + 1] if k + 1 < len(tokens) else None
            if not (before is not None and (before.lemma in _PARTICLE_CHANGE_BEFORE or before.is_number)
                    or after is not None and (after.lemma in _PARTICLE_CHANGE_AFTER or after.is_number)):
                continue
        out.add(t.lemma)
    return frozenset(out)


def _present(target: Quantity, available: list[Quantity]) -> bool:
    return any(abs(q.value - target.value) < 1e-9 and q.ratio == target.ratio for q in available)


def _values(q: Quantity) -> list[float]:
    """The claimed number as the value reader (`quantities`) may read it too ("$30M": 30000000 and 30; "8 pm": 8)."""
    return sorted({q.value, round(q.value / q.scale, 9)} | {v[1] for v in quantities(q.text) if v[0] in ("num", "pct")})


def _seen(q: Quantity, available: set[tuple]) -> bool:
    """Every number of the quantity as the value reader (`quantities`) reads it is among the passages' numbers: what the numbers
    check sees ("$30M" is a 30 there, and "$30 million" is not)."""
    return all(present(v, available) for v in quantities(q.text))


_DIGITS = re.compile(r"\d[\d,]*(?:[.:]\d+)?")


def digit_runs(texts: Iterable[str]) -> set[str]:
    """Every number written in digits in the texts, as written ("1,349" -> "1349", "10:45", "4.00")."""
    return {m.group().replace(",", "") for t in texts for m in _DIGITS.finditer(t)}


def written_as(q: Quantity, runs: set[str]) -> bool:
    """The quantity is written in digits the way the passages write it (`runs`: their digit_runs): "64
    bedrooms" is not against "sixty-four bedrooms", nor "1 hour 45 minutes" against "10:45", nor "twenty-five"
    against "25". The model reads a number by its writing, so a value written otherwise is a target for the
    arithmetic guard, which finds the passage's writing and puts it in the claim (operand_form)."""
    own = digit_runs([q.text])
    return bool(own) and own <= runs


def _premises(d: Derivation, claimed: list[Quantity]) -> list[float]:
    """Claim numbers a verified derivation used as operands ("on a £50,000 salary, the match is £3,000"): the
    claim's own premises, not facts it asserts, so the numbers check does not ask the passages for them."""
    ids = {id(q) for q in claimed}
    return [v for q in d.operands if id(q) in ids for v in _values(q)]


def _change_wording(claimed: str, old: str, new: str, text: str) -> tuple[str, str] | None:
    """A change by a percentage written as its two values: "rises by 12.5%" -> "rises from £320 to £360",
    "dropped 15%" -> "dropped from £140 to £119", "30% off" -> "reduced from £500 to £350", "50% up" -> "up
    from ...". Other wordings ("a fifth bigger") are left as written."""
    values = f"from {old} to {new}"
    if f"by {claimed}" in text:
        return f"by {claimed}", values
    for particle, said in (("off", "reduced"), ("up", "up"), ("down", "down")):
        if f"{claimed} {particle}" in text:
            return f"{claimed} {particle}", f"{said} {values}"
    before = text[:text.find(claimed)].split()
    verb = analyse(before[-1]).tokens[:1] if before else ()
    if verb and verb[0].lemma in CUE_CHANGE | _FALLING:  # "dropped 15%"
        return claimed, values
    return None


def _operand_wording(d: dict, text: str) -> tuple[str, str] | None:
    """(what the claim writes, the same written with the passage operands) for one verified derivation."""
    ops, claimed = d["operands"], d["claimed"]
    if d["op"] == "conversion":
        return claimed, ops[0]
    if d["op"] == "percent_of":
        return claimed, f"{ops[0]} of {ops[1]}"
    if d["op"] in ("percent_change", "point_change") and claimed in text:
        return _change_wording(claimed, ops[0], ops[1], text)
    if d["op"] in ("total", "sum", "end_time"):  # "costs £54" -> "costs £20 plus £34"
        return claimed, " plus ".join(ops)
    return None


def operand_form(claim: str, result: GuardResult | None) -> str | None:
    """The claim with each verified derivation written as its passage operands ("Partners receive 42 days of
    paid leave" -> "... 6 weeks of ..."; "£285,000" -> "95% of £300,000"; "rises by 12.5%" -> "rises from £320
    to £360"; "costs £54" -> "costs £20 plus £34", the total of the parts one sentence lists), or None.
    Equivalent to the claim by the derivation the guard checked, so the NLI judges the rest of the claim
    instead of the arithmetic it cannot do (a derived number reads to it as a different number:
    contradiction). Differences and ratios have no such wording and
    are left as written, and so is a sum of two numbers the claim names ("together"): they may be two of three
    parts."""
    if result is None or result.fired:
        return None
    out = claim
    for d in result.found.get("derived", []):
        wording = _operand_wording(d, out)
        if wording is None or wording[0] not in out:
            continue
        out = out.replace(wording[0], wording[1], 1)
    return out if out != claim else None


def derived_values(result: GuardResult) -> dict[float, str]:
    """claimed value -> the operation and its computation ("conversion: 20 weeks = 20 × 7 = 140 day"), for the
    numbers check (a correct derived number counts as found, and its detail says how)."""
    return {v: f"{d['op']}: {d['expression']}" for d in result.found.get("derived", [])
            for v in d.get("claimed_values", [])}


def _coverage(claim: str, target: Quantity, sentences: list[EvidenceSentence]) -> float:
    wanted = analyse(claim).antonym_aware - {t.lemma for t in analyse(target.text).tokens}
    got = frozenset().union(*(s.analysed.antonym_aware for s in sentences)) if sentences else frozenset()
    return len(wanted & got) / max(len(wanted), 1)


def check(claim: str, sentences: list[EvidenceSentence], clear_coverage: float = 0.5,
          top: int = 3) -> GuardResult:
    claimed = [q for q in read(claim) if not is_year(q) and not q.span]
    if not claimed:
        return GuardResult(NAME, False, detail="the claim states no number")
    everything = [q for s in sentences for q in read(s.text)]
    runs, seen = digit_runs(s.text for s in sentences), passage_quantities([s.text for s in sentences])
    # A claim number is checked when its value is not in the passages, or is there only written otherwise.
    targets = [q for q in claimed if not _present(q, everything) or not _seen(q, seen) or not written_as(q, runs)]
    targets = targets[:MAX_TARGETS]
    if not targets:
        return GuardResult(NAME, False, detail="every claim number is in the passages")
    ranked = align(claim, sentences)[:top]
    lemmas = _cue_lemmas(claim)
    derived, mismatched = [], []
    bases: set[int] = set()  # claim amounts a passage percentage is applied to: premises, not results
    for target in targets:
        in_sentences = [(s, q) for s in ranked for q in read(s.text) if not is_year(q)]
        own = [q for q in claimed if q is not target]
        mine = {id(q) for q in own}
        operands = ([q for _, q in in_sentences] + own)[:MAX_OPERANDS]
        free, named = derivations(target, operands, lemmas)
        listings = _totals(target, ranked)
        free += listings
        partial = [d for d in named if _part_of_listing(d, listings)]
        # a named sum of some listed parts is checked against the total of all of them
        named = [d for d in named if d not in partial] + (listings if partial else [])
        hit = next((d for d in named + free if _matches(d, target)), None)
        if hit:
            derived.append((target, hit))
            continue
        if _present(target, everything):
            continue  # the value is there, only written otherwise: nothing to find wrong
        home = {id(q): s for s, q in in_sentences}
        # An unnamed conversion is a mismatch only on a sentence about the same thing ("20 weeks of leave").
        conversions = [d for d in free if d.op == "conversion" and id(d.operands[0]) in home
                       and _coverage(claim, target, [home[id(d.operands[0])]]) >= clear_coverage]
        # A passage percentage applied to the claim's own amount ("a £500 withdrawal costs £12 in fees" against
        # "a 2% fee applies"): the claim names both the base and the result.
        applied = [d for d in free if d.op == "percent_of" and id(d.operands[0]) in home
                   and id(d.operands[1]) in mine and target.value < d.operands[1].value
                   and _coverage(claim, target, [home[id(d.operands[0])]]) >= clear_coverage / 2]
        bases |= {id(d.operands[1]) for d in applied}
        candidates = sorted(named, key=lambda d: abs(d.value - target.value)) or conversions or applied
        if not candidates:
            continue
        # Verified: a conversion of the one quantity of that dimension in a sentence about the same subject.
        found, via = None, candidates[0]
        for d in conversions:
            found = verify(claim, target, home[id(d.operands[0])].text, d.operands[0])
            if found is not None:
                via = d
                break
        mismatched.append((target, via, found, home.get(id(via.operands[0]))))
    premises = {id(q) for _, d in derived for q in d.operands} | bases
    mismatched = [m for m in mismatched if id(m[0]) not in premises]  # an operand of a verified derivation
    if mismatched:
        target, d, found, sentence = next((m for m in mismatched if m[2] is not None), mismatched[0])
        detail = f"claim says {target.text}, but {d.expression}"
        record = {"claimed": target.text, "computation": d.to_record(),
                  "derived": [h.to_record() for _, h in derived]}
        if found is not None:
            record["mismatch"] = found.to_record()
        return GuardResult(NAME, True, CONTRADICTED if found else NOT_ENOUGH_INFO, FLAG, detail,
                           sentence or (ranked[0] if ranked else None), found=record)
    if derived:
        detail = "derived: " + "; ".join(_equation(t.text, d.expression) for t, d in derived)
        return GuardResult(NAME, False, detail=detail, sentence=ranked[0] if ranked else None,
                           found={"derived": [d.to_record() | {"claimed": t.text, "claimed_values": _values(t)
                                                                   + _premises(d, claimed)}
                                              for t, d in derived]})
    return GuardResult(NAME, False, detail="claim numbers absent from the passages follow from no single operation")


def _equation(claimed: str, expression: str) -> str:
    """`claimed = expression`, without saying the claimed words twice when the expression starts with them
    (a value written otherwise is derived as "three days a week = 3 days per week")."""
    if expression.casefold().startswith(f"{claimed} = ".casefold()):
        return expression
    return f"{claimed} = {expression}"
