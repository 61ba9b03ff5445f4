"""Shortcut cues in the NLI training mix: P(label | cue) per source against the source's label prior.

    python -m groundwatch.training.shortcut_cues --output docs/figures/shortcut-cues.json

The mix is the one the shipped model's last training run used: the options its
training_manifest.json records, given to train.training_mix, the function a
training run builds its mix with (`--manifest` names another run's). Cues are
those of training.cues. For every row (a source; the synthetic recipes pooled;
the natural sources pooled; the whole mix) and every cue seen on at least
`min_support` pairs of the row, the report gives P(label | cue), the prior
P(label) and the largest gap between them.
A cue-only baseline (a logistic regression on the cue features, no language
model) is fitted on the training mix and scored on the held-out split, against
always answering the mix's most frequent label.

The regression check (`shortcuts`) covers the rows a recipe can change: every
recipe source with more than one label, and the recipe sources pooled. A
single-label source cannot show a gap within itself; its shortcut shows once the
recipes are pooled. Natural sources carry their annotators' artifacts (SNLI's
"nobody" -> contradiction); they are reported, not checked.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from groundwatch.config.extras import exit_unless
from groundwatch.training.cues import CUES, cues
from groundwatch.training.labels import ID2LABEL, LABEL2ID, NOT_ENTAILMENT
from groundwatch.training.nli_data import Pair, is_recipe

MIN_SUPPORT = 300   # pairs with the cue in a row; at 300 the gap's standard error is under 0.03
TOLERANCE = 0.10    # largest allowed |P(label | cue) - P(label)|
RECIPES, NATURAL, MIX = "recipes (all)", "natural (all sources)", "mix (all)"
LABEL_NAMES = {**ID2LABEL, NOT_ENTAILMENT: "not_entailment"}


def default_data() -> Path:
    """../shared/data/nli-train beside the repository, where training reads it."""
    return Path(__file__).resolve().parents[1].parent / "shared" / "data" / "nli-train"


def shipped_manifest() -> Path:
    from groundwatch.scorers.nli.factory import DEFAULT_MODEL_DIR

    return DEFAULT_MODEL_DIR / "training_manifest.json"


def manifest_options(manifest: Path, data: Path | None = None, changes: list[str] = ()) -> argparse.Namespace:
    """train.py's options as a training manifest records them (train.py's defaults for any it predates),
    reading the data from `data` when given, with `changes` ("counter_shortcuts=5000") applied: a planned mix
    can be measured before anything is trained on it."""
    from groundwatch.training import train  # needs the train extra (torch)

    recorded = json.loads(manifest.read_text(encoding="utf-8"))["hyper_parameters"]
    options = train.parse_args([])
    for key, value in recorded.items():
        if hasattr(options, key):
            setattr(options, key, Path(value) if isinstance(getattr(options, key), Path) and value else value)
    if data is not None:
        options.data = data
    for change in changes:
        key, _, value = change.partition("=")
        if not hasattr(options, key) or isinstance(getattr(options, key), list):
            raise ValueError(f"--set {change}: not a single-valued option of train.py")
        current = getattr(options, key)
        setattr(options, key, value if current is None else type(current)(value))
    return options


@dataclass
class Mix:
    train: list[Pair]
    validation: list[Pair]
    options: dict


def build_mix(options: argparse.Namespace) -> Mix:
    """The training mix and its held-out split, built by train.training_mix as a training run builds them."""
    from groundwatch.training import train

    pairs, val = train.training_mix(options)
    return Mix(pairs, [p for ps in val.values() for p in ps],
               {k: str(v) if isinstance(v, Path) else v for k, v in vars(options).items()})


def rows_of(pairs: list[Pair]) -> dict[str, list[Pair]]:
    rows: dict[str, list[Pair]] = collections.defaultdict(list)
    for p in pairs:
        rows[p.source].append(p)
        rows[RECIPES if is_recipe(p.source) else NATURAL].append(p)
        rows[MIX].append(p)
    return dict(rows)


def _shares(labels: list[int]) -> dict[int, float]:
    counts = collections.Counter(labels)
    return {label: counts[label] / len(labels) for label in sorted(counts)}


def cue_table(pairs: list[Pair], features: dict[int, dict[str, bool]], min_support: int = MIN_SUPPORT) -> dict:
    """One row: its label prior, and per cue its support, P(label | cue) and the largest gap to the prior."""
    prior = _shares([p.label for p in pairs])
    out = {"n": len(pairs), "prior": {LABEL_NAMES[k]: round(v, 4) for k, v in prior.items()}, "cues": {}}
    for cue in CUES:
        labels = [p.label for p in pairs if features[id(p)][cue]]
        entry = {"n": len(labels)}
        if labels:
            given = _shares(labels)
            gaps = {label: given.get(label, 0.0) - share for label, share in prior.items()}
            label = max(gaps, key=lambda k: abs(gaps[k]))
            entry.update(p={LABEL_NAMES[k]: round(v, 4) for k, v in given.items()}, gap=round(gaps[label], 4),
                         label=LABEL_NAMES[label], checked=len(labels) >= min_support)
        out["cues"][cue] = entry
    return out


def checked_rows(table: dict[str, dict]) -> list[str]:
    """The rows the regression check covers: recipe sources with more than one label, and all recipes pooled."""
    return [name for name, row in table.items()
            if name == RECIPES or (is_recipe(name) and len(row["prior"]) > 1)]


def shortcuts(table: dict[str, dict], tolerance: float = TOLERANCE) -> list[str]:
    """Checked (row, cue) cells whose label share moves more than `tolerance` away from the row's prior."""
    out = []
    for name in checked_rows(table):
        for cue, entry in table[name]["cues"].items():
            if entry.get("checked") and abs(entry["gap"]) > tolerance:
                out.append(f"{name}: {cue} -> {entry['label']} {entry['gap']:+.2f} (n {entry['n']})")
    return out


def cue_only_baseline(train_pairs: list[Pair], validation: list[Pair], features: dict[int, dict[str, bool]]) -> dict:
    """Logistic regression on the cue features alone, fitted on the three-way training pairs; scored per source on
    the held-out split against the majority label (a two-way "not entailment" counts as right unless entailment)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    def matrix(pairs):
        return np.array([[features[id(p)][c] for c in CUES] for p in pairs], dtype=float)

    fit_pairs = [p for p in train_pairs if p.label != NOT_ENTAILMENT]
    model = LogisticRegression(max_iter=1000).fit(matrix(fit_pairs), [p.label for p in fit_pairs])
    majority = collections.Counter(p.label for p in fit_pairs).most_common(1)[0][0]
    predicted = model.predict(matrix(validation)) if validation else []
    right = lambda p, y: y != LABEL2ID["entailment"] if p.label == NOT_ENTAILMENT else y == p.label  # noqa: E731
    scores: dict[str, list[tuple[bool, bool]]] = collections.defaultdict(list)
    for p, y in zip(validation, predicted):
        for row in (p.source, RECIPES if is_recipe(p.source) else NATURAL, MIX):
            scores[row].append((right(p, int(y)), right(p, majority)))
    return {
        "model": "logistic regression on the cue features (scikit-learn, default L2)",
        "majority_label": LABEL_NAMES[majority],
        "coefficients": {LABEL_NAMES[int(k)]: dict(zip(CUES, (round(float(w), 3) for w in row)))
                         for k, row in zip(model.classes_, model.coef_)},
        "validation": {name: {"n": len(s), "accuracy": round(sum(a for a, _ in s) / len(s), 4),
                              "majority_accuracy": round(sum(b for _, b in s) / len(s), 4)}
                       for name, s in sorted(scores.items())},
    }


def tables(pairs: list[Pair], min_support: int = MIN_SUPPORT,
           features: dict[int, dict[str, bool]] | None = None) -> dict[str, dict]:
    """The cue table of every row of `pairs`."""
    features = features or {id(p): cues(p.premise, p.hypothesis) for p in pairs}
    return {name: cue_table(rows, features, min_support) for name, rows in sorted(rows_of(pairs).items())}


def measure(mix: Mix, min_support: int = MIN_SUPPORT) -> dict:
    features = {id(p): cues(p.premise, p.hypothesis) for p in mix.train + mix.validation}
    table = tables(mix.train, min_support, features)
    report = {
        "mix": {"pairs": len(mix.train), "validation_pairs": len(mix.validation), "train_options": mix.options},
        "min_support": min_support, "tolerance": TOLERANCE, "checked_rows": checked_rows(table),
        "rows": table, "shortcuts": shortcuts(table),
    }
    report["cue_only_baseline"] = cue_only_baseline(mix.train, mix.validation, features)
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--manifest", type=Path, default=None,
                   help="the training manifest whose options build the mix (default: the shipped model's)")
    p.add_argument("--data", type=Path, default=None, help="the training data (default: as the manifest records it)")
    p.add_argument("-o", "--output", type=Path, default=Path("docs/figures/shortcut-cues.json"),
                   help="the JSON report (default: %(default)s)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", dest="changes",
                   help="change one of the manifest's train.py options, e.g. counter_shortcuts=5000 (repeatable)")
    p.add_argument("--min-support", type=int, default=MIN_SUPPORT,
                   help="pairs with a cue before its gap counts (default: %(default)s)")
    args = p.parse_args(argv)
    what = "python -m groundwatch.training.shortcut_cues"
    exit_unless("train", what)  # the mix is built by train.py
    exit_unless("eval", what)   # the cue-only baseline is a scikit-learn regression
    manifest = args.manifest or shipped_manifest()
    if not manifest.is_file():
        p.error(f"training manifest {manifest} not found")
    try:
        options = manifest_options(manifest, args.data, args.changes)
    except ValueError as exc:
        p.error(str(exc))
    report = measure(build_mix(options), args.min_support)
    report["command"] = "python -m groundwatch.training.shortcut_cues " + " ".join(argv or sys.argv[1:])
    root = Path(__file__).resolve().parents[1]
    report["manifest"] = str(manifest.resolve().relative_to(root) if manifest.resolve().is_relative_to(root)
                             else manifest)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    for line in report["shortcuts"]:
        print(line)
    print(f"{len(report['shortcuts'])} shortcut cues beyond {TOLERANCE:.2f}; report in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
