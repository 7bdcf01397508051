from __future__ import annotations

from pathlib import Path

import pytest

from pagemem.budget import Budget
from pagemem.errors import InvalidInputError

TEXTBOOK = Budget(window=8000, system=600, core=400, output=1000, reserve=500, turn=250)
PRACTICE = Budget(window=32000, system=2500, core=1500, output=4000, reserve=2000, turn=400)


def test_textbook_numbers() -> None:
    assert TEXTBOOK.message_budget == 5500
    assert TEXTBOOK.turns_kept == 22
    assert TEXTBOOK.overflow_turn == 25
    last = TEXTBOOK.costs(60)[-1]
    assert last.cumulative_keep_everything == 517_500
    assert last.cumulative_paged == 362_250


def test_textbook_sentences() -> None:
    assert TEXTBOOK.message_budget_line() == (
        "message budget = 8000 - 600 - 400 - 1000 - 500 = 5500 tokens"
    )
    assert TEXTBOOK.overflow_line() == (
        "without paging, turn 25 no longer fits (600+400+25*250 = 7250 > 7000)"
    )
    assert TEXTBOOK.cumulative_line(60) == (
        "after 60 turns: keep-everything 517,500 vs paged 362,250 input tokens"
    )


def test_practice_exercise() -> None:
    assert PRACTICE.message_budget == 22000
    assert PRACTICE.turns_kept == 55
    assert PRACTICE.overflow_turn == 61


def test_bigger_reserve_keeps_fewer_turns() -> None:
    plan = Budget(window=8000, system=600, core=400, output=1000, reserve=1500, turn=250)
    assert plan.message_budget == 4500
    assert plan.turns_kept == 18


def test_overflow_turn_is_the_first_that_does_not_fit() -> None:
    n = TEXTBOOK.overflow_turn
    limit = TEXTBOOK.window - TEXTBOOK.output
    assert TEXTBOOK.prompt_tokens(n, paged=False) > limit
    assert TEXTBOOK.prompt_tokens(n - 1, paged=False) <= limit


def test_paged_prompt_plateaus() -> None:
    costs = TEXTBOOK.costs(60)
    plateau = 600 + 400 + 500 + 22 * 250
    assert [c.paged for c in costs[21:]] == [plateau] * 39
    assert all(c.paged <= TEXTBOOK.window - TEXTBOOK.output for c in costs)
    assert costs[0].keep_everything == 600 + 400 + 250


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"turn": 0}, "turn must be at least 1"),
        ({"system": -1}, "system must be a whole number"),
        ({"window": 1.5}, "window must be a whole number"),
        ({"reserve": 7001}, "exceed the window"),
    ],
)
def test_bad_budgets(kwargs: dict[str, object], message: str) -> None:
    values: dict[str, object] = {
        "window": 8000,
        "system": 600,
        "core": 400,
        "output": 1000,
        "reserve": 500,
        "turn": 250,
    }
    values.update(kwargs)
    with pytest.raises(InvalidInputError, match=message):
        Budget(**values)  # type: ignore[arg-type]


def test_costs_need_a_turn() -> None:
    with pytest.raises(InvalidInputError):
        TEXTBOOK.costs(0)


def test_plot_writes_a_png(tmp_path: Path) -> None:
    out = TEXTBOOK.plot(60, tmp_path / "budget.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
