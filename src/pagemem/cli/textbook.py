"""`pagemem demo` and `pagemem budget`: the textbook scenario and its arithmetic."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pagemem.budget import Budget
from pagemem.demo import DemoOptions, run_demo
from pagemem.errors import PagememError
from pagemem.tokens import ENCODINGS, get_counter

__all__ = ["budget", "demo"]


@click.command()
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=45,
    show_default=True,
    help="Main context size in words (the textbook's unit).",
)
@click.option(
    "--evict",
    type=click.Choice(["oldest", "newest"]),
    default="oldest",
    show_default=True,
    help="Which messages leave the window first.",
)
@click.option(
    "--summary/--no-summary",
    default=False,
    show_default=True,
    help="Fold evicted turns into a running summary kept in the window.",
)
@click.option(
    "--search",
    "query",
    default=None,
    metavar="TEXT",
    help="Also rank every archival note for this query.",
)
@click.option(
    "--engine/--no-engine",
    default=True,
    show_default=True,
    help="After the textbook part, run the script on the real engine.",
)
def demo(budget: int, evict: str, summary: bool, query: str | None, engine: bool) -> None:
    """Run the textbook's paging scenario end to end with a scripted agent (no LLM)."""
    options = DemoOptions(
        budget=budget,
        evict="newest" if evict == "newest" else "oldest",
        summary=summary,
        search=query,
        engine=engine,
    )
    run_demo(options, out=click.echo)


def _measured(value: int | None, path: Path | None, tokenizer: str, what: str) -> int:
    if path is None:
        return value if value is not None else 0
    if value is not None:
        raise click.UsageError(f"give --{what} or --{what}-file, not both")
    return get_counter(tokenizer).count(path.read_text(encoding="utf-8"))


@click.command()
@click.option(
    "-W",
    "--window",
    type=click.IntRange(min=1),
    default=8000,
    show_default=True,
    help="W: the model's context window.",
)
@click.option(
    "-S",
    "--system",
    type=click.IntRange(min=0),
    default=None,
    help="S: system prompt tokens [default: 600].",
)
@click.option(
    "--system-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Measure S from this file with --tokenizer.",
)
@click.option(
    "-K",
    "--core",
    type=click.IntRange(min=0),
    default=None,
    help="K: core memory tokens [default: 400].",
)
@click.option(
    "--core-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Measure K from this file with --tokenizer.",
)
@click.option(
    "-O",
    "--output",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="O: tokens reserved for the reply.",
)
@click.option(
    "-R",
    "--reserve",
    type=click.IntRange(min=0),
    default=500,
    show_default=True,
    help="R: tokens reserved for retrieved memory and the summary.",
)
@click.option(
    "-t",
    "--turn",
    type=click.IntRange(min=1),
    default=250,
    show_default=True,
    help="t: tokens per conversational turn.",
)
@click.option(
    "-n",
    "--turns",
    type=click.IntRange(min=1, max=1_000_000),
    default=60,
    show_default=True,
    help="Horizon for the cumulative bill.",
)
@click.option(
    "--every",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Row spacing of the per-turn table.",
)
@click.option(
    "--tokenizer",
    type=click.Choice(sorted([*ENCODINGS, "words"])),
    default="o200k_base",
    show_default=True,
    help="Counter for --*-file.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write a PNG: prompt per turn and cumulative bill.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
def budget(
    window: int,
    system: int | None,
    system_file: Path | None,
    core: int | None,
    core_file: Path | None,
    output: int,
    reserve: int,
    turn: int,
    turns: int,
    every: int,
    tokenizer: str,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Work out the message budget M = W - S - K - O - R and what paging saves."""
    s = _measured(system, system_file, tokenizer, "system") if system_file else system
    k = _measured(core, core_file, tokenizer, "core") if core_file else core
    try:
        plan = Budget(
            window=window,
            system=600 if s is None else s,
            core=400 if k is None else k,
            output=output,
            reserve=reserve,
            turn=turn,
        )
        costs = plan.costs(turns)
    except PagememError as exc:
        raise click.UsageError(str(exc)) from exc
    if as_json:
        last = costs[-1]
        click.echo(
            json.dumps(
                {
                    "W": plan.window,
                    "S": plan.system,
                    "K": plan.core,
                    "O": plan.output,
                    "R": plan.reserve,
                    "t": plan.turn,
                    "M": plan.message_budget,
                    "turns_kept": plan.turns_kept,
                    "overflow_turn": plan.overflow_turn,
                    "turns": turns,
                    "cumulative_keep_everything": last.cumulative_keep_everything,
                    "cumulative_paged": last.cumulative_paged,
                },
                indent=2,
            )
        )
    else:
        rows = [
            ("W", "context window", plan.window),
            ("S", "system prompt", plan.system),
            ("K", "core memory", plan.core),
            ("O", "output reserve", plan.output),
            ("R", "retrieval and summary reserve", plan.reserve),
            ("M", "message budget", plan.message_budget),
            ("t", "tokens per turn", plan.turn),
        ]
        click.echo(f"{'symbol':<7}{'meaning':<32}{'tokens':>8}")
        for symbol, meaning, value in rows:
            click.echo(f"{symbol:<7}{meaning:<32}{value:>8}")
        click.echo("")
        click.echo(plan.message_budget_line())
        click.echo(f"turns kept = floor({plan.message_budget} / {plan.turn}) = {plan.turns_kept}")
        if plan.turns_kept == 0:
            click.echo("warning: not even one turn fits; paging cannot keep the current turn")
        click.echo(plan.overflow_line())
        click.echo(plan.cumulative_line(turns))
        click.echo("")
        click.echo(
            f"{'turn':>6}{'keep-everything':>17}{'paged':>9}{'cum. keep':>14}{'cum. paged':>14}"
        )
        for row in costs:
            if row.turn == 1 or row.turn % every == 0 or row.turn == turns:
                click.echo(
                    f"{row.turn:>6}{row.keep_everything:>17,}{row.paged:>9,}"
                    f"{row.cumulative_keep_everything:>14,}{row.cumulative_paged:>14,}"
                )
    if plot is not None:
        try:
            written = plan.plot(turns, plot)
        except PagememError as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"plot written to {written}", err=as_json)
