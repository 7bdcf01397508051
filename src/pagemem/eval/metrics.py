"""Ranking metrics over evidence ids: recall@k and reciprocal rank."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["KS", "Scoreboard", "recall_at", "reciprocal_rank"]

KS = (1, 5, 10, 20)


def recall_at(ranked: Sequence[str], evidence: set[str], k: int) -> float:
    """Share of the evidence ids found in the first k results."""
    return len(evidence.intersection(ranked[:k])) / len(evidence)


def reciprocal_rank(ranked: Sequence[str], evidence: set[str]) -> float:
    for position, item in enumerate(ranked, start=1):
        if item in evidence:
            return 1.0 / position
    return 0.0


@dataclass
class Scoreboard:
    """Running means of recall@k and MRR, overall and per group (e.g. question category)."""

    ks: tuple[int, ...] = KS
    _sums: dict[str, list[float]] = field(default_factory=dict)
    _counts: dict[str, int] = field(default_factory=dict)

    def add(self, ranked: Sequence[str], evidence: set[str], groups: Iterable[str]) -> None:
        values = [recall_at(ranked, evidence, k) for k in self.ks]
        values.append(reciprocal_rank(ranked, evidence))
        for group in ("all", *groups):
            sums = self._sums.setdefault(group, [0.0] * len(values))
            for i, value in enumerate(values):
                sums[i] += value
            self._counts[group] = self._counts.get(group, 0) + 1

    def groups(self) -> list[str]:
        return ["all", *sorted(g for g in self._sums if g != "all")]

    def count(self, group: str) -> int:
        return self._counts.get(group, 0)

    def means(self, group: str) -> dict[str, float]:
        n = self._counts.get(group, 0)
        sums = self._sums.get(group, [0.0] * (len(self.ks) + 1))
        names = [f"R@{k}" for k in self.ks] + ["MRR"]
        return {name: (total / n if n else 0.0) for name, total in zip(names, sums, strict=True)}

    def as_dict(self) -> dict[str, dict[str, float]]:
        return {g: {"n": float(self.count(g)), **self.means(g)} for g in self.groups()}

    def table(self, title: str) -> str:
        names = [f"R@{k}" for k in self.ks] + ["MRR"]
        lines = [title, f"{'group':<16}{'n':>6}" + "".join(f"{name:>8}" for name in names)]
        for group in self.groups():
            means = self.means(group)
            lines.append(
                f"{group:<16}{self.count(group):>6}"
                + "".join(f"{means[name]:>8.3f}" for name in names)
            )
        return "\n".join(lines)
