"""Train the learned directive model shipped in src/pagemem/data/guard/.

Multiple-instance logistic regression over sentence embeddings of the bundled
MiniLM: sentences of benign notes are negatives; each injection contributes its
most suspect sentence (all of its sentences, weighted, in the first round).
L2 strength was chosen by leave-one-split-out cross-validation (printed).
Run: python scripts/train_directive_model.py [--splits dev,test,...] [--carriers dev]
(the carriers set's test split is never trained on).
Then pin the printed sha256 in src/pagemem/guard/learned.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from pagemem.eval import poisoning
from pagemem.guard.learned import MODEL_PATH, segments
from pagemem.retrieval.embed import OnnxEmbedder

ROOT = Path(__file__).resolve().parent.parent
Vectors = list[np.ndarray]


def features(items: list[poisoning.Item], embedder: OnnxEmbedder) -> Vectors:
    parts = [segments(item.text) for item in items]
    flat = [s for p in parts for s in p]
    unique = list(dict.fromkeys(flat))
    vectors = {}
    for start in range(0, len(unique), 64):
        batch = unique[start : start + 64]
        vectors.update(zip(batch, embedder.embed(batch, role="document"), strict=True))
    return [np.stack([vectors[s] for s in p]).astype(np.float64) for p in parts]


def newton(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float) -> np.ndarray:
    xb = np.hstack([x, np.ones((len(x), 1))])
    theta = np.zeros(xb.shape[1])
    ridge = np.eye(xb.shape[1]) * l2
    ridge[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ theta)))
        grad = xb.T @ ((p - y) * w) + ridge @ theta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + ridge
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-7:
            break
    return theta


def fit(notes: Vectors, labels: np.ndarray, l2: float, rounds: int = 5) -> np.ndarray:
    chosen: dict[int, int] | None = None
    theta = np.zeros(notes[0].shape[1] + 1)
    for _ in range(rounds):
        xs, ys, ws = [], [], []
        for k, sentences in enumerate(notes):
            if not labels[k]:
                xs.append(sentences)
                ys += [0.0] * len(sentences)
                ws += [1.0] * len(sentences)
            elif chosen is None:
                xs.append(sentences)
                ys += [1.0] * len(sentences)
                ws += [1.0 / len(sentences)] * len(sentences)
            else:
                xs.append(sentences[chosen[k] : chosen[k] + 1])
                ys.append(1.0)
                ws.append(1.0)
        y, w = np.asarray(ys), np.asarray(ws)
        w = w * np.where(y == 1, (w * (y == 0)).sum() / (w * (y == 1)).sum(), 1.0)
        theta = newton(np.vstack(xs), y, w, l2)
        chosen = {
            k: int(np.argmax(s @ theta[:-1] + theta[-1])) for k, s in enumerate(notes) if labels[k]
        }
    return theta


def scores(notes: Vectors, theta: np.ndarray) -> np.ndarray:
    return np.asarray([1 / (1 + np.exp(-(s @ theta[:-1] + theta[-1]).max())) for s in notes])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--splits", default="dev,test,adversarial,adversarial2")
    parser.add_argument(
        "--carriers", default="dev", help="splits of the carriers set to train on too ('' none)"
    )
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args()
    first = [i for i in poisoning.load() if i.split in set(args.splits.split(","))]
    carriers = set(filter(None, args.carriers.split(",")))
    second = [i for i in poisoning.load(shipped="carriers") if i.split in carriers]
    # cross-validation holds out one split of one set at a time
    items = [replace(i, split=f"poisoning:{i.split}") for i in first] + [
        replace(i, split=f"carriers:{i.split}:{i.id[:3]}") for i in second
    ]
    wanted = {i.split for i in items}
    embedder = OnnxEmbedder()
    notes = features(items, embedder)
    labels = np.asarray([i.injection for i in items], dtype=float)
    best = (-1.0, 1.0)
    for l2 in (0.1, 0.3, 1.0, 3.0):
        f1s = []
        for held in sorted(wanted):
            train = [k for k, i in enumerate(items) if i.split != held]
            test = [k for k, i in enumerate(items) if i.split == held]
            theta = fit([notes[k] for k in train], labels[train], l2)
            flagged = scores([notes[k] for k in test], theta) >= args.threshold
            truth = labels[test] == 1
            if not truth.any():  # hard negatives only (cg-): no F1, its false alarms shown
                print(f"l2={l2} held out {held}: {int(flagged.sum())} of {len(test)} flagged")
                continue
            tp = (flagged & truth).sum()
            precision, recall = tp / max(1, flagged.sum()), tp / truth.sum()
            f1s.append(2 * precision * recall / max(1e-9, precision + recall))
            print(f"l2={l2} held out {held}: precision {precision:.3f} recall {recall:.3f}")
        if np.mean(f1s) > best[0]:
            best = (float(np.mean(f1s)), l2)
    print(f"chosen l2={best[1]} (mean F1 {best[0]:.3f} over held-out splits)")
    theta = fit(notes, labels, best[1])
    spec = {
        "model_id": embedder.model_id,
        "trained_on": {split: sum(i.split == split for i in items) for split in sorted(wanted)},
        "l2": best[1],
        "threshold": args.threshold,
        "weights": [round(float(v), 7) for v in theta[:-1]],
        "bias": round(float(theta[-1]), 7),
    }
    blob = (json.dumps(spec, indent=1) + "\n").encode()
    out = ROOT / "src" / "pagemem" / MODEL_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(blob)
    print(f"wrote {out} sha256 {hashlib.sha256(blob).hexdigest()}")


if __name__ == "__main__":
    main()
