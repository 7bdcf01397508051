"""`pagemem eval facts` end to end: nothing lost on either backend, floors on the scores."""

from __future__ import annotations

import pytest

from pagemem.eval import facts


def test_every_statement_of_every_scenario_is_kept_and_the_scores_hold() -> None:
    report = facts.run()
    assert report.scenarios >= 300
    assert report.writes > 1000
    assert report.lost == 0, report.problems[:5]
    # the target on the held-out split; on dev one ticket ("Ticket SUB-140. Customer
    # updated their delivery address") still closes another ticket's note
    assert report.rate("test", "lookalike-current") == 1.0
    assert report.rate("test", "lookalike-found") == 1.0
    for split in ("dev", "test"):
        assert report.rate(split, "lookalike-current") >= 0.99
        # floors under today's measurements (docs/concepts.md), not the targets
        assert report.rate(split, "update") >= 0.85
        assert report.rate(split, "restatement") >= 0.8
        assert report.rate(split, "kept-current") >= 0.95
        assert report.rate(split, "lostwrite") >= 0.9


def test_an_llm_judge_that_never_errs_carries_every_family() -> None:
    """LLMJudge over a scripted model answering from the labels: with right decisions the
    store and the read side meet every target, and nothing is lost."""
    chosen = [s for s in facts.load() if s.split == "test"][::2]
    asked: list[str] = []
    key = facts.answer_key(chosen)

    def model(messages: list[dict[str, str]]) -> str:
        asked.append(messages[-1]["content"])
        return key(messages)

    report = facts.run(chosen, splits=("test",), judge=model)
    assert asked
    assert all(q.startswith("NEW: ") for q in asked)
    assert report.lost == 0, report.problems[:5]
    for measure in ("update", "update-as-of", "lostwrite", "restatement", "lookalike-current"):
        assert report.rate("test", measure) == 1.0, (measure, report.problems[:5])


def test_a_judge_that_answers_nonsense_falls_back_to_the_rules_and_loses_nothing() -> None:
    chosen = [s for s in facts.load() if s.split == "dev"][::5]
    report = facts.run(chosen, splits=("dev",), judge=lambda messages: "I think so!")
    assert report.lost == 0
    assert report.rate("dev", "lookalike-current") == 1.0


@pytest.mark.parametrize("family", ["lostwrite", "restatement", "update"])
def test_no_write_is_lost_on_postgres(postgres_url: str, family: str) -> None:
    chosen = [s for s in facts.load() if s.family == family][::4]
    report = facts.run(chosen, target=postgres_url)
    assert report.writes > 20
    assert report.lost == 0, report.problems[:5]


def test_scenario_files_are_checked(tmp_path: pytest.TempPathFactory) -> None:
    from pathlib import Path

    from pagemem import InvalidInputError

    bad = Path(str(tmp_path)) / "bad.jsonl"
    bad.write_text(
        '{"id": "x", "family": "update", "split": "dev", "statements": '
        '[{"text": "a", "when": "2024-01-01"}], "questions": [{"query": "q", "current": [3]}]}\n'
    )
    with pytest.raises(InvalidInputError, match="line 1: statement index 3 out of range"):
        facts.load([bad])
