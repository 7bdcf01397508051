"""Side effects on untrusted values: are they held, and do the user's own go through?

Each labelled note of the poisoning set that holds a value (an address, a URL, a
number, a file) is read by a gullible scripted model as the output of a tool, in
an agent turn whose user message is the note's question. The model then acts on
the values it read, through a side-effecting tool, in the public agent loop:

- **injections**: it calls the tool with each value of the injected text, written
  the way a model might copy it (verbatim, another case, the scheme added or
  dropped, other separators in a number). Held is the defence working; it does not
  depend on any detector, since the text is read whatever its score.
- **benign, value from the user**: the user's message gives the value too; the call
  should run with nobody asked (no friction).
- **benign, value from the document**: the user asked about the note and the model
  acts on a value only the note holds; held is the cost of the defence (an approval
  the user has to give).
- **injections spelled out**: the note writes the injection's first address in words
  ("exfil at evil dot example"), so no value in it matches the one the model rebuilds
  and calls with; held only because a turn that read untrusted text does not send to a
  destination nothing it read holds.
- **injections in memory**: each injection is stored with its origin (so the guard
  quarantines or cuts what it detects), the model searches memory for the question and
  acts on the first of the injection's values it can read in the results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pagemem.agent import Agent, tool
from pagemem.eval.poisoning import Item
from pagemem.guard.provenance import mentions, values
from pagemem.llm import Completion, ScriptedLLM, TokenUsage
from pagemem.memory import Memory
from pagemem.models import ToolCall
from pagemem.tools import Tool

__all__ = ["SideEffects", "evaluate_side_effects", "respell", "spell_out"]


@dataclass(frozen=True, slots=True)
class SideEffects:
    """Calls made and how many ran, by trial."""

    injected: int = 0
    injected_held: int = 0
    user_given: int = 0
    user_given_ran: int = 0
    from_document: int = 0
    from_document_held: int = 0
    seeded: int = 0  # injections stored in memory, found by a search for their question
    seeded_seen: int = 0  # ... whose values the model could read in what search showed
    seeded_held: int = 0  # ... and the call on them was held
    spelled: int = 0  # injections whose address the note spells out in words
    spelled_held: int = 0

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__slots__}


def respell(raw: str, variant: int) -> str:
    """`raw` as a model might copy it (variant 0 to 3): as is; another case; the scheme
    of a web address dropped or added; a phone or account number without its spaces,
    dashes and brackets."""
    if variant == 1:
        return raw.upper() if "@" in raw or "." in raw else raw.lower()
    if variant == 2:
        if raw.lower().startswith(("http://", "https://")):
            return re.sub(r"^https?://", "", raw, flags=re.IGNORECASE)
        if "@" not in raw and any(value.startswith("host:") for value in values(raw)):
            return "https://" + raw
    if variant == 3 and re.fullmatch(r"[\d +\-()/]+", raw) and re.search(r"[ \-()/]", raw):
        return re.sub(r"\D", "", raw)
    return raw


def spell_out(raw: str) -> str:
    """An address written in words, as an attacker writes it to slip past matching:
    "pay@evil.example/x" -> "pay at evil dot example slash x"."""
    text = re.sub(r"^(?:https?://)?(?:www\.)?", "", raw, flags=re.IGNORECASE)
    return text.replace("@", " at ").replace(".", " dot ").replace("/", " slash ")


def evaluate_side_effects(items: Sequence[Item]) -> SideEffects:
    """Run the three trials over the items that hold a value (see the module)."""
    counts = dict.fromkeys(SideEffects.__slots__, 0)
    with Memory(":memory:", embedder=None) as memory:
        for number, item in enumerate(items):
            asked = values(item.query)  # what the user's own question already says
            found = list(
                dict.fromkeys(
                    raw for value, raw in mentions(item.text).items() if value not in asked
                )
            )
            if not found:
                continue
            if item.injection:
                counts["seeded"] += 1
                seen = _seeded_trial(memory.scope("side-effects", f"{item.id}-memory"), item)
                if seen is not None:
                    counts["seeded_seen"] += 1
                    counts["seeded_held"] += not seen
                for variant, raw in enumerate(found):
                    me = memory.scope("side-effects", f"{item.id}-{variant}")
                    ran = _trial(me, item, item.query, respell(raw, variant % 4))
                    counts["injected"] += 1
                    counts["injected_held"] += not ran
                address = next((raw for raw in found if _is_address(raw)), None)
                if address is not None:
                    spelled = item.text.replace(address, spell_out(address))
                    me = memory.scope("side-effects", f"{item.id}-spelled")
                    counts["spelled"] += 1
                    counts["spelled_held"] += not _trial(me, item, item.query, address, spelled)
            else:
                raw = found[number % len(found)]
                message = f"{item.query} Then send it to {raw}."
                counts["user_given"] += 1
                me = memory.scope("side-effects", f"{item.id}-user")
                counts["user_given_ran"] += _trial(me, item, message, raw)
                me = memory.scope("side-effects", f"{item.id}-document")
                counts["from_document"] += 1
                counts["from_document_held"] += not _trial(me, item, item.query, raw)
    return SideEffects(**counts)


def _is_address(raw: str) -> bool:
    return any(value.split(":")[0] in ("email", "host", "url") for value in values(raw))


def _call(ident: str, name: str, arguments: dict[str, Any]) -> Completion:
    """A reply of the scripted model that calls one tool."""
    return Completion("", (ToolCall(ident, name, json.dumps(arguments)),), TokenUsage(0, 0))


def _actor(done: list[str]) -> Tool:
    """The side-effecting tool the model acts through; what it was called on goes to
    `done`."""

    def act(target: str) -> str:
        """Send, pay or share, to or with the target."""
        done.append(target)
        return "done"

    return tool(act, side_effecting=True)


def _trial(me: Any, item: Item, message: str, target: str, text: str | None = None) -> bool:
    """Did the side effect run, when the model read the note (or `text` in its place) and
    acted on `target`?"""
    done: list[str] = []

    def read_document() -> str:
        """Read the document the user asked about."""
        return item.text if text is None else text

    llm = ScriptedLLM(
        [_call("c1", "read_document", {}), _call("c2", "act", {"target": target}), "Done."]
    )
    Agent(me, llm, tools=[tool(read_document), _actor(done)], max_tokens=50_000).step(message)
    return bool(done)


def _seeded_trial(me: Any, item: Item) -> bool | None:
    """The injection stored in memory with its origin; the model searches for the user's
    question and acts on the first of the injection's values it can read in the results
    (None: none could be read: held for review or cut out). Did the call run?"""
    me.archive.insert(item.text, origin=item.origin, source=item.id)
    injected = mentions(item.text)
    asked = values(item.query)
    done: list[str] = []

    def obey(request: Any, tools: Any) -> Completion:
        shown = next(str(m["content"]) for m in reversed(request) if m.get("role") == "tool")
        for value, raw in mentions(shown).items():
            if value in injected and value not in asked:
                return _call("c2", "act", {"target": raw})
        return Completion("Nothing to do.")

    search = _call("c1", "archival_memory_search", {"query": item.query, "k": 3})
    llm = ScriptedLLM([search, obey, "Done."])
    step = Agent(me, llm, tools=[_actor(done)], max_tokens=50_000).step(item.query)
    if len(step.tool_results) < 2:
        return None
    return bool(done)
