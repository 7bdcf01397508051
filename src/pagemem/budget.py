"""Budget arithmetic for a paged context window.

    M = W - S - K - O - R        message budget
    turns kept = floor(M / t)
    overflow turn: first n with S + K + n*t > W - O   (no paging)

A paged prompt costs S + K + R + min(n, turns kept) * t at turn n: it plateaus.
A keep-everything prompt costs S + K + n * t and grows until it overflows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pagemem.errors import InvalidInputError

__all__ = ["Budget", "TurnCost"]


@dataclass(frozen=True, slots=True)
class TurnCost:
    """Input tokens of one turn, and the running totals, with and without paging."""

    turn: int
    keep_everything: int
    paged: int
    cumulative_keep_everything: int
    cumulative_paged: int


@dataclass(frozen=True, slots=True)
class Budget:
    """The symbols of the budget equation, all in tokens of one tokenizer."""

    window: int  # W: the model's context window
    system: int  # S: system prompt
    core: int  # K: core memory blocks
    output: int  # O: reserved for the reply
    reserve: int  # R: reserved for retrieved memory and the running summary
    turn: int  # t: tokens per conversational turn

    def __post_init__(self) -> None:
        for name in ("window", "system", "core", "output", "reserve", "turn"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidInputError(f"{name} must be a whole number >= 0, got {value!r}")
        if self.turn == 0:
            raise InvalidInputError("turn must be at least 1 token")
        if self.message_budget < 0:
            fixed = self.system + self.core + self.output + self.reserve
            raise InvalidInputError(
                f"the fixed sections S+K+O+R = {fixed} exceed the window W = {self.window}"
            )

    @property
    def message_budget(self) -> int:
        """M = W - S - K - O - R."""
        return self.window - self.system - self.core - self.output - self.reserve

    @property
    def turns_kept(self) -> int:
        """How many whole turns fit in the message budget."""
        return self.message_budget // self.turn

    @property
    def overflow_turn(self) -> int:
        """The first turn at which a prompt that keeps every turn no longer fits."""
        room = self.window - self.output - self.system - self.core
        return room // self.turn + 1  # room >= R >= 0 is checked on creation

    def prompt_tokens(self, n: int, *, paged: bool) -> int:
        """Input tokens sent at turn n (1-based)."""
        if paged:
            return self.system + self.core + self.reserve + min(n, self.turns_kept) * self.turn
        return self.system + self.core + n * self.turn

    def costs(self, turns: int) -> list[TurnCost]:
        """Per-turn and cumulative input tokens for turns 1..`turns`."""
        if turns < 1:
            raise InvalidInputError(f"turns must be at least 1, got {turns}")
        rows, keep_total, paged_total = [], 0, 0
        for n in range(1, turns + 1):
            keep, paged = self.prompt_tokens(n, paged=False), self.prompt_tokens(n, paged=True)
            keep_total += keep
            paged_total += paged
            rows.append(TurnCost(n, keep, paged, keep_total, paged_total))
        return rows

    # The sentences the demo and `pagemem budget` print.

    def message_budget_line(self) -> str:
        w, s, k, o, r = self.window, self.system, self.core, self.output, self.reserve
        return f"message budget = {w} - {s} - {k} - {o} - {r} = {self.message_budget} tokens"

    def overflow_line(self) -> str:
        n = self.overflow_turn
        used = self.system + self.core + n * self.turn
        return (
            f"without paging, turn {n} no longer fits "
            f"({self.system}+{self.core}+{n}*{self.turn} = {used} > {self.window - self.output})"
        )

    def cumulative_line(self, turns: int) -> str:
        last = self.costs(turns)[-1]
        return (
            f"after {turns} turns: keep-everything {last.cumulative_keep_everything:,} "
            f"vs paged {last.cumulative_paged:,} input tokens"
        )

    def plot(self, turns: int, path: str | Path) -> Path:
        """Write a PNG: prompt tokens per turn (top) and the cumulative bill (bottom)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError as exc:
            raise InvalidInputError("--plot needs matplotlib: pip install 'pagemem[plot]'") from exc
        rows = self.costs(turns)
        xs = [row.turn for row in rows]
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
        top.plot(xs, [row.keep_everything for row in rows], label="keep everything")
        top.plot(xs, [row.paged for row in rows], label="paged")
        top.axhline(self.window - self.output, color="grey", linestyle="--", label="W - O")
        top.set_ylabel("prompt tokens")
        top.set_title("Prompt size per turn")
        top.legend()
        bottom.plot(xs, [row.cumulative_keep_everything for row in rows], label="keep everything")
        bottom.plot(xs, [row.cumulative_paged for row in rows], label="paged")
        bottom.set_xlabel("turn")
        bottom.set_ylabel("cumulative input tokens")
        bottom.set_title("Cumulative bill")
        bottom.legend()
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out, dpi=100)
        plt.close(fig)
        return out
