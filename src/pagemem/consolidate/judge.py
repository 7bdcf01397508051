"""An LLM's verdict on restatement and change, checked before it is used."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from pagemem.consolidate.decide import Decision
from pagemem.models import Chat, Record

__all__ = ["LLMJudge"]

log = logging.getLogger(__name__)

_JUDGE_PROMPT = """You keep a user's memory current. Given a NEW statement and numbered
EXISTING facts, decide one action and answer JSON only, exactly this shape:
{"action": "insert" | "merge" | "supersede", "targets": [numbers], "reason": "short"}
- merge: NEW says the same as one existing fact, values included (targets: that one number).
  NEW is still kept, as a restatement of that fact.
- supersede: NEW replaces existing facts about the same subject and attribute that are no
  longer true (targets: their numbers).
- insert: NEW is a different fact (targets: []).
Different facts that share words are insert, not merge. A second value of something that
can have several (a second allergy, another pet) is insert."""


class LLMJudge:
    """A model's verdict on restatement or change, checked; None when it cannot be
    trusted. Whatever it says, the new note is stored: "merge" makes it a restatement."""

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
        mapped = {"merge": "restate", "supersede": "supersede", "insert": "add"}[action]
        return Decision(mapped, ids, f"judge: {note[:200]}".strip())  # type: ignore[arg-type]
