"""Keeping the archive current without losing a word: restatement, change, currency.

- `statement`: what a note says (subject, values, negation, markers), read without a model.
- `relation`: how two notes relate (same, change, maybe, distinct).
- `decide`: the write-time decision (`Consolidator`), `judge`: the optional LLM judge.
- `currency`: the read side, which hides restatements behind their fact and ranks the
  newer of two competing values first, marking the older.
"""

from pagemem.consolidate.currency import OUTDATED, SPARE, arrange
from pagemem.consolidate.decide import OUTCOME, TRUST, Action, Consolidator, Decision
from pagemem.consolidate.judge import LLMJudge
from pagemem.consolidate.relation import Relation, relate
from pagemem.consolidate.statement import Statement, read

__all__ = [
    "OUTCOME",
    "OUTDATED",
    "SPARE",
    "TRUST",
    "Action",
    "Consolidator",
    "Decision",
    "LLMJudge",
    "Relation",
    "Statement",
    "arrange",
    "read",
    "relate",
]
