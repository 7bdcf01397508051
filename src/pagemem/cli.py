"""The `pagemem` command: each subcommand a thin layer over the Python API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pagemem.budget import Budget
from pagemem.demo import DemoOptions, run_demo
from pagemem.errors import PagememError
from pagemem.tokens import ENCODINGS, get_counter

__all__ = ["cli", "main"]


@click.group()
@click.version_option(package_name="pagemem")
def cli() -> None:
    """pagemem: memory beyond the context window for LLM agents."""


@cli.command()
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


@cli.command()
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


@cli.command()
@click.option(
    "--db",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="The SQLite memory file.",
)
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
def reindex(db: Path, tenant: str | None) -> None:
    """Embed every note that lacks a vector of the current embedding model."""
    from pagemem.memory import Memory

    with Memory(db) as memory:
        total = 0
        for me in memory.scopes(tenant=tenant):
            count = me.reindex()
            total += count
            click.echo(f"{me.scope}: {count} notes embedded")
        click.echo(f"{total} notes embedded with {memory.ranker.embedder_id}")


@cli.command()
@click.option(
    "--sizes",
    default="10000,100000",
    show_default=True,
    help="Comma-separated note counts, e.g. 10000,100000,1000000.",
)
@click.option(
    "--layout",
    "layouts",
    type=click.Choice(["one", "spread"]),
    multiple=True,
    help="one scope, or spread over 1,000 scopes (default: both).",
)
@click.option(
    "--engine",
    "engines",
    type=click.Choice(["hybrid", "bm25"]),
    multiple=True,
    help="hybrid (default search) and/or plain BM25 (default: both).",
)
@click.option(
    "--queries",
    type=click.IntRange(min=10),
    default=200,
    show_default=True,
    help="Searches timed per configuration.",
)
@click.option(
    "--dir",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the temporary databases go (default: the system temp folder).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench(
    sizes: str,
    layouts: tuple[str, ...],
    engines: tuple[str, ...],
    queries: int,
    folder: Path | None,
    as_json: bool,
) -> None:
    """Insert throughput, search p50/p95 and peak RSS, hybrid next to plain BM25."""
    from dataclasses import asdict

    from pagemem import bench as benchmark

    try:
        counts = [int(part) for part in sizes.split(",") if part.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"not a list of numbers: {sizes!r}", param_hint="--sizes") from exc
    if not counts or min(counts) < 1000:
        raise click.BadParameter("sizes must be at least 1000 notes", param_hint="--sizes")
    if not as_json:
        click.echo(benchmark.table([]))
    results = benchmark.run_bench(
        counts,
        layouts=layouts or benchmark.LAYOUTS,
        engines=engines or benchmark.ENGINES,
        queries=queries,
        folder=str(folder) if folder else None,
        report=None if as_json else lambda r: click.echo(benchmark.row(r)),
    )
    if as_json:
        click.echo(json.dumps([asdict(r) for r in results], indent=2))


@cli.group(name="eval")
def eval_group() -> None:
    """Benchmarks measured through the public API."""


@eval_group.command(name="locomo")
@click.option(
    "--data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="Path to locomo10.json (CC BY-NC 4.0; not shipped).",
)
@click.option(
    "--split",
    type=click.Choice(["dev", "held-out", "both"]),
    default="both",
    show_default=True,
    help="dev: conv-26..44 (tune here); held-out: conv-47..50.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Keep the memory in this SQLite file instead of in memory.",
)
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="KNOB=VALUE",
    help="Override a retrieval knob, e.g. --set neighbour_weight=0 (repeatable).",
)
@click.option(
    "--dense/--no-dense",
    default=True,
    show_default=True,
    help="Fuse in the bundled embedding model (off: BM25 only).",
)
@click.option(
    "--target",
    type=click.Choice(["archive", "recall"]),
    default="archive",
    show_default=True,
    help="archive: notes via archive.search; recall: paged-out messages via "
    "recall.search(order='relevance').",
)
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
def eval_locomo(
    data: Path,
    split: str,
    db: Path | None,
    settings: tuple[str, ...],
    dense: bool,
    target: str,
    as_json: bool,
) -> None:
    """Recall@1/5/10/20 and MRR of evidence turns for LoCoMo questions (categories 1-4)."""
    from pagemem.eval import locomo
    from pagemem.memory import Memory
    from pagemem.retrieval.ranker import RetrievalConfig

    try:
        config = RetrievalConfig.with_overrides(settings)
    except PagememError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from exc

    try:
        conversations = {c.sample_id: c for c in locomo.load(data)}
    except PagememError as exc:
        raise click.ClickException(str(exc)) from exc
    splits = {"dev": locomo.DEV, "held-out": locomo.HELD_OUT}
    chosen = list(splits) if split == "both" else [split]
    results = {}
    memory = Memory(
        db if db is not None else ":memory:",
        retrieval=config,
        embedder="default" if dense else None,
    )
    for name in chosen:
        picked = [conversations[s] for s in splits[name] if s in conversations]
        total = sum(len(c.questions) for c in picked)
        with click.progressbar(length=total, label=f"LoCoMo {name}", file=sys.stderr) as bar:
            board = locomo.evaluate(
                picked,
                memory=memory,
                target="recall" if target == "recall" else "archive",
                progress=bar.update,
            )
        results[name] = board
        if not as_json:
            click.echo(board.table(f"{name} ({', '.join(c.sample_id for c in picked)})"))
            click.echo("")
    memory.close()
    if as_json:
        click.echo(json.dumps({name: board.as_dict() for name, board in results.items()}, indent=2))


def main() -> None:
    cli()
