"""Durable facts from finished conversation turns, off the hot path.

An extractor reads user messages and returns facts worth keeping, each pointing
at the messages it came from. The default needs no model: it keeps the user's
first-person statements of the shapes consolidation understands (where they
live and work, contact details, likes and dislikes, what they are or are no
longer), facts about the people and pets in their life, and instructions on how
to work ("from now on answer in French", "always give metric units") as
procedural memory. An LLM extractor plugs in through the same call: it sees
messages numbered 1..n (so it cannot invent ids), must answer JSON of a fixed
shape, and malformed answers are retried once, then skipped.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pagemem.models import Chat, Message

__all__ = ["Chat", "Extracted", "Extractor", "LLMExtractor", "RuleExtractor"]

log = logging.getLogger(__name__)

FactKind = Literal["semantic", "procedural", "episodic"]


@dataclass(frozen=True, slots=True)
class Extracted:
    """A fact to keep, and the ids of the messages it came from."""

    text: str
    kind: FactKind
    sources: tuple[str, ...]


class Extractor(Protocol):
    def __call__(self, messages: Sequence[Message]) -> list[Extracted]: ...


# First-person statements of common durable shapes: where they live and work, contact
# details, likes and dislikes, what they are (or no longer are).
_SUBJECT = (
    r"(?P<subj>I|my|me|we|our|the user|user|[A-Z][a-z]+(?:'s)?(?: [a-z]+)?|"
    r"(?:he|she|they))"
)
_CONTRACTION = r"(?:'ve|'m|'d|'s)?"
_NEG = r"(?P<neg>no longer |not |never |don't |doesn't |do not |does not |stopped |quit )?"
_VALUE = r"(?P<val>[^.;,!?\n]{1,60})"
_SHAPES: list[tuple[str, re.Pattern[str]]] = [
    (
        "home",
        re.compile(
            rf"^{_SUBJECT}{_CONTRACTION}\s+(?:(?:have|has|just|recently|now)\s+)*{_NEG}(?:live|lives|living|"
            r"am living|is living|reside|resides|am based|is based|moved|relocated|moving|"
            rf"'m based|'m living|'ve moved)\s+(?:back\s+)?(?:in|to)\s+(?:the\s+)?{_VALUE}",
            re.IGNORECASE,
        ),
    ),
    (
        "employer",
        re.compile(
            rf"^{_SUBJECT}{_CONTRACTION}\s+(?:(?:have|has|just|recently|now)\s+)*{_NEG}(?:work|works|working|"
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
_FIRST_PERSON = {"i", "i'm", "i've", "my", "me", "we", "our", "the user", "user"}


def _first_person_fact(sentence: str) -> bool:
    for attribute, pattern in _SHAPES:
        found = pattern.search(sentence.strip())
        if not found:
            continue
        value = found.group("val").strip().lower().split()
        if attribute == "is" and value and value[0] in ("going", "moving", "planning", "not"):
            continue
        return found.group("subj").lower() in _FIRST_PERSON
    return False


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_OPENER = re.compile(
    r"^(?:(?:actually|so|well|btw|also|oh|anyway|by the way|and|but|ok|okay|hi|hey|hello|yes|"
    r"yeah|no|sure|fyi|just so you know|quick update)[,!:]?\s+)+",
    re.IGNORECASE,
)
_ABOUT_THEM = re.compile(
    r"^(?:my|our)\s+(?:name|birthday|wife|husband|partner|son|daughter|kids?|children|dog|cat|"
    r"sister|brother|mother|mom|mum|father|dad|boss|manager|best friend|friend|doctor|dentist|"
    r"address|home town|hometown|anniversary|allergy|allergies)\b[^?]{0,80}\b(?:is|are|was|"
    r"named|called)\b",
    re.IGNORECASE,
)
_HAVE = re.compile(
    r"^I\s+(?:have|'ve got|have got)\s+(?:a|an|two|three|\d+)\s+[\w\s]{0,30}?"
    r"(?:named|called|who|that)\b",
    re.IGNORECASE,
)
_TRAIT = re.compile(
    r"^I(?:'m| am)\s+(?:allergic to|a vegetarian|vegetarian|vegan|pregnant|left-handed|"
    r"diabetic|lactose intolerant|afraid of|from)\b",
    re.IGNORECASE,
)
_CALL_ME = re.compile(r"^(?:please\s+)?call me\s+\w+", re.IGNORECASE)
_HOW_TO_WORK = re.compile(
    r"^(?:please\s+)?(?:from now on|always|never|don't ever|do not ever|whenever|when you|"
    r"in future|going forward)\b[^?]{3,200}$",
    re.IGNORECASE,
)
_NOT_A_FACT = re.compile(
    r"^(?:if|when|maybe|perhaps|do you|can you|could you|would you|should i|what|where|who|"
    r"how|why|is it|are you)\b|\?$",
    re.IGNORECASE,
)


class RuleExtractor:
    """The LLM-free default: the user's own statements of common shapes, verbatim."""

    def __call__(self, messages: Sequence[Message]) -> list[Extracted]:
        found: list[Extracted] = []
        seen: set[str] = set()
        for message in messages:
            if message.role != "user":
                continue
            for part in _SENTENCE.split(message.content):
                sentence = _OPENER.sub("", part.strip())
                if sentence[:1].islower():
                    sentence = sentence[0].upper() + sentence[1:]
                kind = self._kind(sentence)
                text = sentence.rstrip(" .!")
                if kind is None or text.lower() in seen:
                    continue
                seen.add(text.lower())
                found.append(Extracted(text, kind, (message.id,)))
        return found

    @staticmethod
    def _kind(sentence: str) -> FactKind | None:
        if len(sentence) < 6 or len(sentence) > 300:
            return None
        if _HOW_TO_WORK.match(sentence) and not sentence.endswith("?"):
            return "procedural"
        if _NOT_A_FACT.search(sentence):
            return None
        if _CALL_ME.match(sentence):
            return "procedural"
        if _first_person_fact(sentence):
            return "semantic"
        if _ABOUT_THEM.match(sentence) or _HAVE.match(sentence) or _TRAIT.match(sentence):
            return "semantic"
        return None


_PROMPT = """You extract durable facts about the user from a conversation.
Messages are numbered. Return JSON only, exactly this shape:
{"facts": [{"text": "...", "kind": "semantic" | "procedural" | "episodic", "messages": [1, 2]}]}
- text: one self-contained fact in the user's words or third person, at most 300 characters.
- kind: semantic for facts and preferences, procedural for instructions on how to work with
  the user, episodic for events with a date.
- messages: the numbers of the messages the fact comes from.
Keep only what will still matter in a month. Return {"facts": []} if nothing qualifies."""


class LLMExtractor:
    """Asks a model; validates its JSON; retries once on a malformed answer, then skips."""

    def __init__(self, chat: Chat, *, attempts: int = 2, max_facts: int = 50) -> None:
        self.chat = chat
        self.attempts = attempts
        self.max_facts = max_facts

    def __call__(self, messages: Sequence[Message]) -> list[Extracted]:
        numbered = dict(enumerate(messages, start=1))
        if not numbered:
            return []
        transcript = "\n".join(f"[{n}] {m.role}: {m.content}" for n, m in numbered.items())
        request = [
            {"role": "system", "content": _PROMPT},
            {"role": "user", "content": transcript},
        ]
        for attempt in range(1, self.attempts + 1):
            reply = self.chat(request)
            try:
                return self._parse(reply, numbered)
            except ValueError as exc:
                log.warning("extraction answer %d/%d rejected: %s", attempt, self.attempts, exc)
                request = [
                    *request,
                    {"role": "assistant", "content": reply[:2000]},
                    {"role": "user", "content": f"That was not valid: {exc}. Answer JSON only."},
                ]
        return []

    def _parse(self, reply: str, numbered: dict[int, Message]) -> list[Extracted]:
        body = reply.strip()
        if body.startswith("```"):
            body = body.strip("`").removeprefix("json").strip()
        try:
            data: Any = json.loads(body)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not JSON ({exc.msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("facts"), list):
            raise ValueError('expected an object with a "facts" list')
        found = []
        for item in data["facts"][: self.max_facts]:
            if not isinstance(item, dict):
                continue  # one bad item does not spoil the rest
            text, kind, refs = item.get("text"), item.get("kind"), item.get("messages")
            if not isinstance(text, str) or not text.strip() or len(text) > 300:
                continue
            if kind not in ("semantic", "procedural", "episodic"):
                continue
            if not isinstance(refs, list) or not refs:
                continue
            ids = [numbered[r].id for r in refs if isinstance(r, int) and r in numbered]
            if len(ids) != len(refs):
                continue  # a number that is not one of ours: drop the fact, not the answer
            found.append(Extracted(text.strip(), kind, tuple(dict.fromkeys(ids))))
        return found
