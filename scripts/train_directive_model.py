"""Train the learned directive model shipped in src/pagemem/data/guard/.

Logistic regression over the hashed n-grams of `pagemem.guard.learned.features`,
trained on the carriers set's dev split and the poisoning set's non-test splits (the
test splits are never trained on). Before the final fit it is trained once per dev
author with that author left out and scored on them: those scores, on authors the
model never saw, are what the trust policy's thresholds are chosen on; it prints them,
and what the default policy makes of each author's notes with that author's model.

Needs scikit-learn: pip install -e '.[train]'.
Run: python scripts/train_directive_model.py [--c 8]
Then pin the printed sha256 in src/pagemem/guard/learned.py.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import math
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from pagemem.eval import poisoning
from pagemem.guard import DIRECTIVE_FLAG, SUSPECT_FLAG
from pagemem.guard.learned import BITS, MODEL_PATH, LearnedDirectives, features
from pagemem.guard.policy import TrustPolicy, Verdict

ROOT = Path(__file__).resolve().parent.parent


def counts(items: list[poisoning.Item]) -> sparse.csr_matrix:
    rows, cols, values = [], [], []
    for row, item in enumerate(items):
        grams = features(item.text)
        rows += [row] * len(grams)
        cols += list(grams)
        values += [1.0 + math.log(c) for c in grams.values()]
    return sparse.csr_matrix((values, (rows, cols)), shape=(len(items), 1 << BITS))


def idf_of(tf: sparse.csr_matrix) -> np.ndarray:
    seen = np.asarray((tf > 0).sum(axis=0)).ravel()
    return np.log((1 + tf.shape[0]) / (1 + seen)) + 1.0


def weighed(tf: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    x = tf @ sparse.diags(idf)
    norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
    return sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ x


def fit(
    tf: sparse.csr_matrix, labels: np.ndarray, c: float
) -> tuple[np.ndarray, LogisticRegression]:
    idf = idf_of(tf)
    model = LogisticRegression(C=c, max_iter=5000, class_weight="balanced")
    return idf, model.fit(weighed(tf, idf), labels)


_OUTCOMES = ("held", "cut", "flagged", "passed")


def _outcome(verdict: Verdict) -> str:
    if verdict.quarantined:
        return "held"
    if verdict.spans:
        return "cut"
    return (
        "flagged" if DIRECTIVE_FLAG in verdict.flags or SUSPECT_FLAG in verdict.flags else "passed"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--c", type=float, default=8.0, help="inverse L2 strength")
    parser.add_argument("--out", type=Path, default=ROOT / "src" / "pagemem" / MODEL_PATH)
    args = parser.parse_args()
    carriers = [i for i in poisoning.load(shipped="carriers") if i.split == "dev"]
    extra = [i for i in poisoning.load(shipped="poisoning") if i.split != "test"]
    items = carriers + extra
    tf = counts(items)
    labels = np.array([i.injection for i in items])
    author = np.array([i.id.split("-")[0] for i in carriers] + ["" for _ in extra])

    held_out = np.zeros(len(carriers))
    trust = TrustPolicy()
    policy, rules = Counter[tuple[str, str]](), Counter[tuple[str, str]]()
    directive_by_id: dict[str, bool] = {}
    for name in sorted(set(author) - {""}):
        out = author == name
        idf, model = fit(tf[~out], labels[~out], args.c)
        held_out[out[: len(carriers)]] = model.predict_proba(weighed(tf[out], idf))[:, 1]
        unseen = LearnedDirectives(idf, model.coef_[0], float(model.intercept_[0]))
        for item in (i for i in carriers if i.id.startswith(f"{name}-")):
            alone = trust.judge(item.text, item.origin)
            directive_by_id[item.id] = alone.score >= trust.rule(item.origin).threshold
            rules[item.label, _outcome(alone)] += 1
            policy[item.label, _outcome(trust.judge(item.text, item.origin, learned=unseen))] += 1
    directive = np.array([directive_by_id[i.id] for i in carriers])
    injection = labels[: len(carriers)]
    missed = ~directive
    print("carriers dev, each author scored by a model trained without them:")
    print(f"  AUC {roc_auc_score(injection, held_out):.4f}", end="")
    print(f", where the rules are blind {roc_auc_score(injection[missed], held_out[missed]):.4f}")
    print("  default policy, rules alone -> with the model (held, cut, flagged, passed):")
    for label in ("injection", "benign"):
        before = [rules[label, o] for o in _OUTCOMES]
        after = [policy[label, o] for o in _OUTCOMES]
        print(f"    {label}: {before} -> {after}")
    print("  where the rules are blind, notes scored at least:")
    for cut in (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9):
        more = (held_out >= cut) & missed
        print(f"    {cut}: {int((more & injection).sum())} injections", end="")
        print(f", {int((more & ~injection).sum())} benign")

    idf, model = fit(tf, labels, args.c)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        idf=idf.astype(np.float32),
        weights=model.coef_[0].astype(np.float32),
        bias=np.float32(model.intercept_[0]),
    )
    args.out.write_bytes(buffer.getvalue())
    digest = hashlib.sha256(buffer.getvalue()).hexdigest()
    print(f"wrote {args.out} ({len(buffer.getvalue())} bytes), sha256 {digest}")


if __name__ == "__main__":
    main()
