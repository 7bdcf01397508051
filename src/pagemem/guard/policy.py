"""Trust per origin: what happens to a note that reads like instructions, by who wrote it.

Every note is scored by the directive detector when it is written. The policy
then decides, per origin, whether a directive-shaped note is only flagged,
flagged and down-ranked, or quarantined (stored and listed for review, never
returned by search). Notes from tools and web pages weigh less in ranking
whatever they say, and their directive threshold is lower: the user is trusted
to talk about instructions; a scraped page is not.

For origins with `learned=True` (tools and the web by default) a learned model
(`guard.learned`) gives a second, semantic opinion when an embedder is at hand;
a note it finds suspect is flagged `suspect-directive` and down-ranked by
`suspect_weight`, never quarantined on its say alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from pagemem.errors import InvalidInputError
from pagemem.guard.directives import DIRECTIVE_FLAG, detect_directives
from pagemem.guard.neutralise import neutralise
from pagemem.models import NEUTRALISED_FLAG

__all__ = [
    "ACTIONS",
    "SUSPECT_FLAG",
    "UNTRUSTED_FLAG",
    "Action",
    "OriginRule",
    "TrustPolicy",
    "Verdict",
]

Action = Literal["flag", "downrank", "quarantine"]
ACTIONS: tuple[str, ...] = get_args(Action)

UNTRUSTED_FLAG = "untrusted-origin"
SUSPECT_FLAG = "suspect-directive"
_UNTRUSTED = ("tool", "web")


@dataclass(frozen=True, slots=True)
class OriginRule:
    """How notes of one origin are treated.

    `threshold`: directive score (0-1) from which a note counts as directive-shaped.
    `action`: what a directive-shaped note gets beyond its flag.
    `weight`: ranking multiplier for every note of the origin.
    `downrank`: extra multiplier for directive-shaped notes when `action` is "downrank".
    `learned`: ask the learned model too (when the memory has its embedder).
    `suspect`: learned score from which a note is flagged suspect (0.9, chosen on the
    dev carriers: on the seven authors' 1,845 notes its flags beyond the rules' were 35
    benign notes to 9 injections at 0.8, 13 to 1 at 0.85, 1 to 0 at 0.9; on documents
    it barely tells the two apart, and every false flag teaches the reader to ignore
    flags).
    `suspect_weight`: extra multiplier for suspect notes.
    """

    action: Action = "flag"
    threshold: float = 0.5
    weight: float = 1.0
    downrank: float = 0.2
    learned: bool = False
    suspect: float = 0.9
    suspect_weight: float = 0.5

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise InvalidInputError(
                f"unknown action {self.action!r}; expected one of {', '.join(ACTIONS)}"
            )
        for name in ("threshold", "weight", "downrank", "suspect", "suspect_weight"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
                raise InvalidInputError(f"{name} must be a number from 0 to 1, got {value!r}")


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the policy made of one note: its flags, score and whether it is held."""

    flags: tuple[str, ...]
    score: float
    families: tuple[str, ...]
    quarantined: bool
    learned: float | None = None  # the learned model's score, when it was asked
    # character spans of the directive sentences, when those alone are hidden
    spans: tuple[tuple[int, int], ...] = ()


def _default_rules() -> dict[str, OriginRule]:
    return {
        "user": OriginRule("downrank", 0.5, 1.0),
        "agent": OriginRule("downrank", 0.5, 1.0),
        "system": OriginRule("downrank", 0.5, 1.0),
        "tool": OriginRule("quarantine", 0.3, 0.8, learned=True),
        "web": OriginRule("quarantine", 0.3, 0.7, learned=True),
    }


@dataclass(frozen=True, slots=True)
class TrustPolicy:
    """Rules by origin; an origin without a rule is treated like "web"."""

    rules: Mapping[str, OriginRule] = field(default_factory=_default_rules)

    @classmethod
    def uniform(cls, action: Action) -> TrustPolicy:
        """The default thresholds and weights with one action for every origin; "flag"
        also leaves suspect notes where they rank (flag only, nothing moves)."""
        return cls(
            {
                origin: OriginRule(
                    action,
                    rule.threshold,
                    rule.weight,
                    rule.downrank,
                    rule.learned,
                    rule.suspect,
                    1.0 if action == "flag" else rule.suspect_weight,
                )
                for origin, rule in _default_rules().items()
            }
        )

    def rule(self, origin: str) -> OriginRule:
        return self.rules.get(origin) or self.rules.get("web") or OriginRule("quarantine", 0.3)

    def judge(
        self, text: str, origin: str, *, learned: Callable[[str], float] | None = None
    ) -> Verdict:
        """Score a note on write: flags it carries and whether it is quarantined.

        `learned` scores the text with the learned model; it is asked only for origins
        whose rule says so, and only if the rules alone did not find the note directive.
        """
        rule = self.rule(origin)
        finding = detect_directives(text)
        directive = finding.score >= rule.threshold
        flags: list[str] = []
        if directive:
            flags.append(DIRECTIVE_FLAG)
        second = learned(text) if learned is not None and rule.learned and not directive else None
        if second is not None and second >= rule.suspect:
            flags.append(SUSPECT_FLAG)
        if origin in _UNTRUSTED:
            flags.append(UNTRUSTED_FLAG)
        quarantined = directive and rule.action == "quarantine"
        spans: tuple[tuple[int, int], ...] = ()
        if quarantined:  # hold the whole note only if its directive part is most of it
            cut = neutralise(text, rule.threshold, finding.families)
            if cut is not None and not cut.mostly:
                quarantined, spans = False, cut.spans
                flags.append(NEUTRALISED_FLAG)
        return Verdict(
            tuple(flags),
            finding.score,
            finding.families,
            quarantined=quarantined,
            learned=None if second is None else round(second, 4),
            spans=spans,
        )

    def weight(self, origin: str, flags: tuple[str, ...]) -> float:
        """Ranking multiplier of a note, from its origin and the flags it was stored with."""
        rule = self.rule(origin)
        weight = rule.weight
        if rule.action == "downrank" and DIRECTIVE_FLAG in flags:
            weight *= rule.downrank
        if SUSPECT_FLAG in flags:
            weight *= rule.suspect_weight
        return weight
