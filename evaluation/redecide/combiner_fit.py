"""Fit the verdict combiner on scored, labelled responses (the calibration half).

The combiner decides only what nothing else decided: a claim the threshold
rule calls CONTRADICTED (contradiction >= tau_c first) or a failed check caps
is not SUPPORTED whatever the combiner says. So it is trained on the other,
"open" claims:

- every open claim of a supported response is a positive;
- an unsupported response already flagged through a closed claim teaches
  nothing (its open claims may well be supported) and is left out;
- in an unsupported response whose claims are all open at least one claim is
  unsupported, but the labels do not say which: first every claim counts (with
  weight 1/n), then only the claim the previous fit found least supported
  (two rounds; a small multiple-instance step, since most responses have one claim).

Each (set, label) gets the same total weight, so a set's share of supported
answers teaches nothing. Then a standardised logistic regression (scikit-learn,
L2, C 1) gives P(supported), and the threshold on it is chosen on the same half
for the mean balanced accuracy over the sets, among the thresholds that keep
recall on unsupported responses at or above `min_recall` over all sets together
(when any does).

Every feature is computed; the fit uses DEFAULT_FEATURES unless told otherwise.
They were chosen by 5-fold cross-validation on the calibration half of the four
dev sets (WiCE, BEGIN, QAGS, HaluEval; scores of nli-minilm-int8-weights): the
entity and number coverage, length and count features raised AUROC on BEGIN and
HaluEval but lowered it on WiCE by up to 0.18, because in a pooled fit they
learn what tells the sets apart; these seven were the best mean balanced
accuracy over the sets, and above the threshold rule on each.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from groundwatch.evaluation.metrics import confusion, rates
from groundwatch.evaluation.scored import Scored, Variant, passage_texts, premises
from groundwatch.scorers.verdicts.combiner import FEATURES, Combiner, claim_features
from groundwatch.scorers.verdicts.combiner.features import feature_vector
from groundwatch.scorers.verdicts.decide import decide
from groundwatch.scorers.guards.stage import GUARD_CHECKS, without_guards
from groundwatch.scorers.records import Verdict

C = 1.0
ROUNDS = 2
DEFAULT_FEATURES = ("ent_max_logit", "ent_max", "ent_mean", "ent_top2", "lex_cov_top", "lex_cov_all",
                    "context_words_log")
THRESHOLDS = np.round(np.arange(0.02, 0.99, 0.01), 2)


@dataclass
class ClaimTable:
    """One row per checked claim of the scored responses."""

    x: np.ndarray          # (claims, features)
    response: np.ndarray   # index of the claim's response
    open: np.ndarray       # True: neither contradicted nor capped, so the combiner decides it
    y: np.ndarray          # per response: True = unsupported
    sets: list[str]        # per response


def claim_table(scored: list[Scored], variant: Variant) -> ClaimTable:
    """Features of every checked claim, and whether the rest of the decision leaves it open."""
    ok = [s for s in scored if s.error is None]
    rows, owner, is_open = [], [], []
    for i, s in enumerate(ok):
        texts = passage_texts(s)
        for c in s.claims:
            if c.skipped:
                continue
            evidence = premises(c, variant)
            checks = c.checks if variant.free_checks else [k for k in c.checks if k.name in GUARD_CHECKS]
            checks = checks if variant.guards else without_guards(checks)
            verdict, _ = decide(evidence, checks, variant.thresholds, supported=True)
            rows.append(feature_vector(claim_features(c.text, evidence, checks, texts)))
            owner.append(i)
            is_open.append(verdict is Verdict.SUPPORTED)
    x = np.array(rows, np.float64).reshape(len(rows), len(FEATURES))
    return ClaimTable(x, np.array(owner, int), np.array(is_open, bool),
                      np.array([s.item.unsupported for s in ok], bool), [s.item.set_name for s in ok])


def response_predictions(table: ClaimTable, p: np.ndarray, threshold: float) -> np.ndarray:
    """True = unsupported: some checked claim is closed or below the threshold."""
    flagged = np.zeros(len(table.y), bool)
    bad = ~table.open | (p < threshold)
    np.logical_or.at(flagged, table.response[bad], True)
    return flagged


def response_scores(table: ClaimTable, p: np.ndarray) -> np.ndarray:
    """1 - the lowest P(supported) of the response's checked claims (0 with none), for AUROC."""
    low = np.ones(len(table.y))
    np.minimum.at(low, table.response, p)
    return 1.0 - low


def _training_set(table: ClaimTable, p: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, labels (1 = supported) and weights for one round."""
    idx, labels, weights = [], [], []
    for r in range(len(table.y)):
        mine = np.flatnonzero(table.response == r)
        if not len(mine):
            continue
        if not table.y[r]:
            chosen = mine[table.open[mine]]
            idx += list(chosen)
            labels += [1] * len(chosen)
            weights += [1.0] * len(chosen)
            continue
        if not table.open[mine].all():
            continue
        if p is None:
            idx += list(mine)
            labels += [0] * len(mine)
            weights += [1.0 / len(mine)] * len(mine)
        else:
            idx.append(mine[np.argmin(p[mine])])
            labels.append(0)
            weights.append(1.0)
    return np.array(idx, int), np.array(labels, int), np.array(weights)


def _balanced(weights: np.ndarray, labels: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """Reweight so every (set, label) cell holds the same total weight (mean weight 1)."""
    out = weights.astype(np.float64).copy()
    for name in np.unique(sets):
        for label in (0, 1):
            cell = (sets == name) & (labels == label)
            if cell.any():
                out[cell] /= out[cell].sum()
    return out * len(out) / out.sum()


def _fit_lr(x: np.ndarray, y: np.ndarray, w: np.ndarray):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=5000))
    model.fit(x, y, logisticregression__sample_weight=w)
    return model


def _set_rates(table: ClaimTable, flagged: np.ndarray) -> dict[str, dict]:
    out = {}
    sets = np.array(table.sets)
    for name in sorted(set(table.sets)):
        mask = sets == name
        out[name] = rates(confusion(table.y[mask], flagged[mask]))
    return out


def choose_threshold(table: ClaimTable, p: np.ndarray, min_recall: float) -> tuple[float, bool]:
    """The best mean balanced accuracy over sets among thresholds with pooled recall >= min_recall."""
    best, best_key = 0.5, None
    for t in THRESHOLDS:
        flagged = response_predictions(table, p, t)
        bal = [r["balanced_accuracy"] for r in _set_rates(table, flagged).values()
               if r["balanced_accuracy"] is not None]
        recall = rates(confusion(table.y, flagged))["recall"]
        key = (recall is None or recall >= min_recall, float(np.mean(bal)) if bal else 0.0, -abs(t - 0.5))
        if best_key is None or key > best_key:
            best, best_key = float(t), key
    return best, bool(best_key and best_key[0])


def feature_names(spec: str | None) -> tuple[str, ...]:
    """`default` (or None), `all`, or comma-separated names from FEATURES."""
    if spec in (None, "", "default"):
        return DEFAULT_FEATURES
    if spec == "all":
        return tuple(FEATURES)
    names = tuple(n.strip() for n in spec.split(",") if n.strip())
    unknown = [n for n in names if n not in FEATURES]
    if unknown or not names:
        raise ValueError(f"combiner features {unknown or spec!r}: choose from {', '.join(FEATURES)}")
    return names


def fit_combiner(scored: list[Scored], variant: Variant, model: str, fitted_on: dict,
                 min_recall: float = 0.75, features: tuple[str, ...] = DEFAULT_FEATURES) -> Combiner:
    """Fit on these responses (pass the calibration half only) for NLI model `model` (name@digest)."""
    import sklearn

    table = claim_table(scored, variant)
    if not len(table.x):
        raise ValueError("no checked claims to fit a combiner on")
    columns = [FEATURES.index(n) for n in features]
    x = table.x[:, columns]
    sets = np.array(table.sets)
    p = None
    for _ in range(ROUNDS):
        idx, labels, weights = _training_set(table, p)
        if len(set(labels.tolist())) < 2:
            raise ValueError("fitting a combiner needs both supported and unsupported responses whose claims "
                             "are left open by contradiction and the checks")
        lr = _fit_lr(x[idx], labels, _balanced(weights, labels, sets[table.response[idx]]))
        p = lr.predict_proba(x)[:, 1]
    threshold, floors_met = choose_threshold(table, p, min_recall)
    scaler, reg = lr[0], lr[-1]
    flagged = response_predictions(table, p, threshold)
    pooled = rates(confusion(table.y, flagged))
    metrics = {"half": "calibration", "pooled": pooled, "sets": _set_rates(table, flagged),
               "min_recall": min_recall, "pooled_recall_floor_met": floors_met}
    counts = Counter(table.sets)
    fitted_on = {**fitted_on, "responses": len(table.y), "claims": int(len(table.x)),
                 "training_claims": int(len(idx)), "sets": dict(sorted(counts.items())),
                 "C": C, "rounds": ROUNDS, "weights": "equal total per (set, label)", "sklearn": sklearn.__version__,
                 "thresholds": {"tau_contradiction": variant.thresholds.tau_contradiction,
                                "threshold_mode": variant.thresholds.mode, "pivot": variant.thresholds.pivot},
                 "free_checks": variant.free_checks, "pairs": variant.pairs, "top_k": variant.top_k,
                 "pair_top": variant.pair_top}
    return Combiner(tuple(features), tuple(float(v) for v in scaler.mean_), tuple(float(v) for v in scaler.scale_),
                    tuple(float(v) for v in reg.coef_[0]), float(reg.intercept_[0]), threshold, model,
                    fitted_on, metrics)


def describe(combiner: Combiner, top: int = 10) -> str:
    """A few lines: threshold, calibration-half figures, the largest standardised coefficients."""
    m = combiner.metrics.get("pooled", {})
    lines = [f"combiner for {combiner.model}: P(supported) >= {combiner.threshold:.2f} -> SUPPORTED "
             f"(contradiction and failed checks first)",
             f"fitted on {combiner.fitted_on.get('responses')} responses / {combiner.fitted_on.get('claims')} claims "
             f"of the calibration half {combiner.fitted_on.get('sets')}, C {combiner.fitted_on.get('C')}",
             f"calibration half: balanced accuracy {m.get('balanced_accuracy', 0):.3f}, "
             f"recall (unsupported) {m.get('recall', 0):.3f}, precision {m.get('precision', 0):.3f}"]
    order = sorted(range(len(combiner.coef)), key=lambda i: -abs(combiner.coef[i]))[:top]
    lines.append("largest coefficients (per standard deviation): "
                 + ", ".join(f"{combiner.features[i]} {combiner.coef[i]:+.2f}" for i in order))
    return "\n".join(lines)
