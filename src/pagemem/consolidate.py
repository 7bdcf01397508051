"""Keeping the archive current: merge restatements, supersede facts that changed.

When a note is written, the facts of the scope closest to it are compared with
it. A restatement (same text, a near-copy, or the same preference in other
words) merges into the existing fact: no new row, its count and sources grow.
A change (same subject and attribute, another value: moved to another city,
no longer vegetarian, a new phone number, a different seat preference) closes
the old fact at the new one's start and keeps it in history. Anything else is
a new fact. Keyed writes (`key="user.home_city"`) skip the guessing: the
previous fact of the key is closed. No LLM is needed; each decision carries a
reason that goes into the history.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pagemem.models import Chat, Record
from pagemem.retrieval.analysis import Analyzer

__all__ = [
    "TRUST",
    "Chat",
    "Consolidator",
    "Decision",
    "LLMJudge",
    "Slot",
    "slot_of",
    "slot_signature",
]

# A note may only merge into or replace facts of an origin trusted no more than its own.
TRUST = {"system": 3, "user": 3, "agent": 2, "tool": 1, "web": 0}

log = logging.getLogger(__name__)

Action = Literal["insert", "merge", "supersede"]


@dataclass(frozen=True, slots=True)
class Slot:
    """What a simple fact says: subject, attribute, value, and whether it is denied."""

    subject: str
    attribute: str
    value: str
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    targets: tuple[str, ...] = ()
    reason: str = ""


_SUBJECT = (
    r"(?P<subj>I|my|me|we|our|the user|user|[A-Z][a-z]+(?:'s)?(?: [a-z]+)?|"
    r"(?:he|she|they))"
)
_HAVE = r"(?:'ve|'m|'d|'s)?"
_NEG = r"(?P<neg>no longer |not |never |don't |doesn't |do not |does not |stopped |quit )?"
_VALUE = r"(?P<val>[^.;,!?\n]{1,60})"
_SHAPES: list[tuple[str, re.Pattern[str]]] = [
    (
        "home",
        re.compile(
            rf"^{_SUBJECT}{_HAVE}\s+(?:(?:have|has|just|recently|now)\s+)*{_NEG}(?:live|lives|living|"
            r"am living|is living|reside|resides|am based|is based|moved|relocated|moving|"
            rf"'m based|'m living|'ve moved)\s+(?:back\s+)?(?:in|to)\s+(?:the\s+)?{_VALUE}",
            re.IGNORECASE,
        ),
    ),
    (
        "employer",
        re.compile(
            rf"^{_SUBJECT}{_HAVE}\s+(?:(?:have|has|just|recently|now)\s+)*{_NEG}(?:work|works|working|"
            r"am working|is working|started working|joined|got a (?:new )?job|changed jobs?|"
            rf"'m working|switched jobs?)\s+(?:at|for|to)\s+{_VALUE}",
            re.IGNORECASE,
        ),
    ),
    (
        "phone",
        re.compile(
            rf"^{_SUBJECT}\s*(?:new\s+)?(?:phone|mobile|cell)(?: number)?\s*(?:is|:|=|changed to)"
            r"\s*(?P<val>\+?[\d][\d ()./-]{5,})",
            re.IGNORECASE,
        ),
    ),
    (
        "email",
        re.compile(
            rf"^{_SUBJECT}\s*(?:new\s+)?(?:e-?mail)(?: address)?\s*(?:is|:|=|changed to)\s*"
            r"(?P<val>\S+@\S+\.\w+)",
            re.IGNORECASE,
        ),
    ),
    (
        "favorite",
        re.compile(
            rf"^{_SUBJECT}\s+favou?rite\s+(?P<what>\w+(?: \w+)?)\s+is\s+{_NEG}{_VALUE}",
            re.IGNORECASE,
        ),
    ),
    (
        "favorite-of",
        re.compile(
            r"^(?P<val>[^.;,!?\n]{1,60}?)\s+(?:is|are)\s+(?P<subj>my|our|[A-Z][a-z]+'s)\s+"
            r"(?:absolute\s+|all-time\s+)?favou?rites?\b(?P<neg>)",
            re.IGNORECASE,
        ),
    ),
    (
        "likes",
        re.compile(
            rf"^{_SUBJECT}\s+(?:(?:really|still|always|now|also)\s+)*{_NEG}(?:prefer|prefers|"
            rf"like|likes|love|loves|enjoy|enjoys|eat|eats|drink|drinks|want|wants)\s+{_VALUE}",
            re.IGNORECASE,
        ),
    ),
    (
        "is",
        re.compile(
            rf"^{_SUBJECT}(?:\s+(?:am|is|are)|'m|'s|'re)\s+{_NEG}(?:an?\s+)?{_VALUE}",
            re.IGNORECASE,
        ),
    ),
]
_POSSESSIVE = re.compile(r"'s$")
_FIRST_PERSON = {"i", "i'm", "i've", "my", "me", "we", "our", "the user", "user"}


def _subject(raw: str) -> str:
    lowered = raw.lower()
    if lowered in _FIRST_PERSON:
        return "user"
    return _POSSESSIVE.sub("", raw).lower()


def slot_of(text: str) -> Slot | None:
    """The slot a simple first- or third-person fact fills, if it has a common shape."""
    sentence = text.strip().split("\n", 1)[0]
    for attribute, pattern in _SHAPES:
        found = pattern.search(sentence)
        if not found:
            continue
        value = found.group("val").strip().rstrip(".").lower()
        value = re.sub(r"^(?:the|a|an|my)\s+", "", value)
        if attribute == "favorite":  # "my favourite colour is blue": likes "blue colour"
            what = found.group("what").lower()
            value = value if value.endswith(what) else f"{value} {what}"
            attribute = "likes"
        elif attribute == "favorite-of":  # "window seats are my favourite"
            attribute = "likes"
        negated = bool(found.groupdict().get("neg"))
        if attribute == "is" and value.split()[0] in ("going", "moving", "planning", "not"):
            continue
        return Slot(_subject(found.group("subj")), attribute, value, negated)
    return None


def slot_signature(text: str) -> str | None:
    """'subject|attribute' of a simple fact, stored so facts of a slot can be found."""
    slot = slot_of(text)
    return None if slot is None else f"{slot.subject}|{slot.attribute}"


_ANALYZER = Analyzer()


def _content(text: str) -> set[str]:
    return set(_ANALYZER.terms(text))


def _normal(text: str) -> str:
    """Words and numbers, lower-cased: punctuation and spacing do not make a new fact."""
    return " ".join(re.findall(r"\w+", text.lower()))


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,:]\d+)*", text))


_TRAILING = re.compile(
    r"\s+(?:on|in|at|for|when|during|by|with|because|if|whenever|from|over|instead|than|"
    r"best|most|anymore|any more|a lot|very much|so much|too|please|now)\b.*$"
)


def _core(value: str) -> list[str]:
    """The thing itself: 'window seats on flights' -> ['window', 'seat']."""
    return _ANALYZER.terms(_TRAILING.sub("", value)) or _ANALYZER.terms(value)


def _head(value: str) -> str:
    """The last content word of a value's core: 'window seats' -> 'seat' (stemmed)."""
    terms = _core(value)
    return terms[-1] if terms else value


class Consolidator:
    """Decides, for a new note and the scope's closest current facts, what to do.

    With a `judge` (an `LLMJudge`), the model decides whenever there are candidates; a
    missing or malformed verdict falls back to the rules.
    """

    def __init__(
        self,
        *,
        duplicate_cosine: float = 0.95,
        restate_cosine: float = 0.8,
        judge: LLMJudge | None = None,
    ) -> None:
        self.duplicate_cosine = duplicate_cosine
        self.restate_cosine = restate_cosine
        self.judge = judge

    def decide(
        self,
        text: str,
        candidates: Sequence[Record],
        cosines: Sequence[float | None] | None = None,
    ) -> Decision:
        """`candidates`: current facts of the scope, closest first; `cosines`: their
        embedding similarity to `text` (None without an embedder)."""
        if self.judge is not None and candidates:
            verdict = self.judge(text, candidates)
            if verdict is not None:
                return verdict
        return self._rules(text, candidates, cosines)

    def _rules(
        self,
        text: str,
        candidates: Sequence[Record],
        cosines: Sequence[float | None] | None,
    ) -> Decision:
        normal = _normal(text)
        numbers = _numbers(text)
        new_slot = slot_of(text)
        new_terms = _content(text)
        changed: list[str] = []
        reasons: list[str] = []
        for position, record in enumerate(candidates):
            cosine = cosines[position] if cosines is not None else None
            old_slot = slot_of(record.text)
            if normal and normal == _normal(record.text):
                return Decision("merge", (record.id,), f"same fact as {record.id}")
            if (
                new_slot
                and old_slot
                and (new_slot.subject, new_slot.attribute)
                == (
                    old_slot.subject,
                    old_slot.attribute,
                )
            ):
                verdict = self._same_slot(new_slot, old_slot, record.id, cosine)
                if verdict.action == "merge":
                    return verdict
                if verdict.action == "supersede":
                    changed.append(record.id)
                    reasons.append(verdict.reason)
                continue
            if new_slot and old_slot:
                continue  # different subjects or attributes: two facts, however alike
            if numbers != _numbers(record.text):
                continue  # "gate 12" and "gate 14" are different facts, not copies
            overlap = len(new_terms & _content(record.text)) / max(
                1, len(new_terms | _content(record.text))
            )
            if cosine is not None and cosine >= self.duplicate_cosine and overlap >= 0.5:
                return Decision(
                    "merge", (record.id,), f"near-copy of {record.id} (cosine {cosine:.2f})"
                )
            if cosine is None and overlap >= 0.9:
                return Decision(
                    "merge", (record.id,), f"near-copy of {record.id} (word overlap {overlap:.2f})"
                )
        if changed:
            return Decision("supersede", tuple(changed), "; ".join(reasons))
        return Decision("insert")

    @staticmethod
    def keyed(text: str, key: str, current: Sequence[Record]) -> Decision:
        """A keyed write: the same text again merges, anything else replaces every current
        fact of the key."""
        same = [r for r in current if _normal(r.text) == _normal(text)]
        if same:
            return Decision("merge", (same[0].id,), f"same fact for key {key}")
        ids = tuple(r.id for r in current)
        return Decision("supersede" if ids else "insert", ids, f"new {key}")

    def _same_slot(self, new: Slot, old: Slot, record_id: str, cosine: float | None) -> Decision:
        what = f"{new.subject} {new.attribute}"
        if new.negated != old.negated:
            if new.value == old.value or _head(new.value) == _head(old.value):
                state = "no longer" if new.negated else "now"
                return Decision("supersede", (record_id,), f"{what}: {state} {new.value}")
            return Decision("insert")
        if new.value == old.value:
            return Decision("merge", (record_id,), f"{what} restated ({new.value})")
        if new.attribute in ("likes", "is"):
            # Likes and traits can hold together ("likes sushi", "likes tea"): the same thing
            # said again is a restatement; the same kind of thing with other qualities
            # ("aisle seats" after "window seats") is a change; anything else is new.
            new_core, old_core = _core(new.value), _core(old.value)
            if new_core == old_core:
                return Decision("merge", (record_id,), f"{what} restated ({old.value})")
            if new_core and old_core and new_core[-1] == old_core[-1]:
                new_mods, old_mods = set(new_core[:-1]), set(old_core[:-1])
                if new_mods & old_mods or not new_mods or not old_mods:
                    return Decision("merge", (record_id,), f"{what} restated ({old.value})")
                if new.attribute == "likes":
                    return Decision(
                        "supersede", (record_id,), f"{what}: {old.value} -> {new.value}"
                    )
                return Decision("insert")
            if (
                set(new_core) & set(old_core)
                and cosine is not None
                and cosine >= self.restate_cosine - 0.1
            ):
                return Decision("merge", (record_id,), f"{what} restated ({old.value})")
            return Decision("insert")
        return Decision("supersede", (record_id,), f"{what}: {old.value} -> {new.value}")


_JUDGE_PROMPT = """You keep a user's memory current. Given a NEW statement and numbered
EXISTING facts, decide one action and answer JSON only, exactly this shape:
{"action": "insert" | "merge" | "supersede", "targets": [numbers], "reason": "short"}
- merge: NEW says the same as one existing fact (targets: that one number).
- supersede: NEW replaces existing facts about the same subject and attribute that are no
  longer true (targets: their numbers).
- insert: NEW is a different fact (targets: []).
Different facts that share words are insert, not merge."""


class LLMJudge:
    """A model's verdict on merge or supersede, checked; None when it cannot be trusted."""

    def __init__(self, chat: Chat, *, attempts: int = 2) -> None:
        self.chat = chat
        self.attempts = attempts

    def __call__(self, text: str, candidates: Sequence[Record]) -> Decision | None:
        numbered = dict(enumerate(candidates, start=1))
        facts = "\n".join(f"[{n}] {record.text}" for n, record in numbered.items())
        request = [
            {"role": "system", "content": _JUDGE_PROMPT},
            {"role": "user", "content": f"NEW: {text}\nEXISTING:\n{facts}"},
        ]
        for attempt in range(1, self.attempts + 1):
            try:
                reply = self.chat(request)
            except Exception as exc:  # the model is down: the rules decide
                log.warning("judge unavailable: %s", exc)
                return None
            try:
                return self._parse(reply, numbered)
            except ValueError as exc:
                log.warning("judge answer %d/%d rejected: %s", attempt, self.attempts, exc)
                request = [
                    *request,
                    {"role": "assistant", "content": reply[:2000]},
                    {"role": "user", "content": f"That was not valid: {exc}. Answer JSON only."},
                ]
        return None

    @staticmethod
    def _parse(reply: str, numbered: dict[int, Record]) -> Decision:
        body = reply.strip()
        if body.startswith("```"):
            body = body.strip("`").removeprefix("json").strip()
        try:
            data = json.loads(body)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        action, targets, reason = data.get("action"), data.get("targets", []), data.get("reason")
        if action not in ("insert", "merge", "supersede"):
            raise ValueError(f"action must be insert, merge or supersede, not {action!r}")
        if not isinstance(targets, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) and t in numbered for t in targets
        ):
            raise ValueError("targets must be numbers of the existing facts")
        if action == "merge" and len(targets) != 1:
            raise ValueError("merge needs exactly one target")
        if action == "supersede" and not targets:
            raise ValueError("supersede needs targets")
        if action == "insert" and targets:
            raise ValueError("insert takes no targets")
        note = reason if isinstance(reason, str) else ""
        ids = tuple(numbered[t].id for t in dict.fromkeys(targets))
        return Decision(action, ids, f"judge: {note[:200]}".strip())
