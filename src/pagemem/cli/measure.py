"""`pagemem bench` and `pagemem eval`: measurements through the public API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pagemem.cli.target import StoreTarget
from pagemem.errors import PagememError
from pagemem.guard.learned import LearnedDirectives
from pagemem.store import is_postgres

__all__ = ["bench", "eval_group"]


@click.command()
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
@click.option(
    "--store",
    "postgres",
    default=None,
    metavar="URL",
    help="Also run every configuration on this PostgreSQL database (postgresql://...).",
)
@click.option(
    "--writers",
    type=click.IntRange(min=1, max=16),
    default=1,
    show_default=True,
    help="Other processes writing to the scope while searches are timed (last line).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench(
    sizes: str,
    layouts: tuple[str, ...],
    engines: tuple[str, ...],
    queries: int,
    folder: Path | None,
    postgres: str | None,
    writers: int,
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
    if postgres is not None and not is_postgres(postgres):
        raise click.BadParameter(f"{postgres!r} is not a postgresql:// URL", param_hint="--store")
    if not as_json:
        click.echo(benchmark.table([]))
    results = benchmark.run_bench(
        counts,
        layouts=layouts or benchmark.LAYOUTS,
        engines=engines or benchmark.ENGINES,
        queries=queries,
        folder=str(folder) if folder else None,
        report=None if as_json else lambda r: click.echo(benchmark.row(r)),
        postgres=postgres,
    )
    adding = benchmark.add_latency(folder=str(folder) if folder else None)
    rest = benchmark.rest_latency(folder=str(folder) if folder else None)
    batch = benchmark.batch_consolidation(folder=str(folder) if folder else None)
    foreign = benchmark.foreign_writes(folder=str(folder) if folder else None, writers=writers)
    if as_json:
        rows = [asdict(r) for r in results]
        click.echo(
            json.dumps(
                {
                    "search": rows,
                    "add": asdict(adding),
                    "rest": asdict(rest),
                    "batch": asdict(batch),
                    "foreign": asdict(foreign),
                },
                indent=2,
            )
        )
    else:
        click.echo(adding.line())
        click.echo(rest.line())
        click.echo(batch.line())
        click.echo(foreign.line())


@click.group(name="eval")
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
    type=StoreTarget(exists=False),
    default=None,
    help="Keep the memory in this SQLite file or postgresql:// database instead of in "
    "memory (it must not hold LoCoMo scopes already).",
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
@click.option(
    "--plain",
    is_flag=True,
    help="Insert each turn as text only, no metadata, as a user would (archive target).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
def eval_locomo(
    data: Path,
    split: str,
    db: Path | str | None,
    settings: tuple[str, ...],
    dense: bool,
    target: str,
    plain: bool,
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
    clock = locomo.ReplayClock()  # recall's messages are said at their session's time
    try:
        memory = Memory(
            db if db is not None else ":memory:",
            retrieval=config,
            embedder="default" if dense else None,
            clock=clock,
        )
    except PagememError as exc:
        raise click.ClickException(str(exc)) from exc
    tenant = "locomo-recall" if target == "recall" else "locomo"
    if memory.scopes(tenant=tenant):
        memory.close()
        raise click.ClickException(
            f"{db} already holds tenant {tenant!r} from an earlier run; ingesting again would "
            "count every turn twice: use a new database"
        )
    for name in chosen:
        picked = [conversations[s] for s in splits[name] if s in conversations]
        total = sum(len(c.questions) for c in picked)
        with click.progressbar(length=total, label=f"LoCoMo {name}", file=sys.stderr) as bar:
            board = locomo.evaluate(
                picked,
                memory=memory,
                clock=clock,
                target="recall" if target == "recall" else "archive",
                plain=plain,
                progress=bar.update,
            )
        results[name] = board
        if not as_json:
            click.echo(board.table(f"{name} ({', '.join(c.sample_id for c in picked)})"))
            click.echo("")
    memory.close()
    if as_json:
        click.echo(json.dumps({name: board.as_dict() for name, board in results.items()}, indent=2))


@eval_group.command(name="poisoning")
@click.option(
    "--data",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="A labelled JSON-lines set (default: the one shipped with pagemem).",
)
@click.option(
    "--set",
    "shipped",
    type=click.Choice(["poisoning", "carriers"]),
    default="poisoning",
    show_default=True,
    help="Which shipped set (without --data): notes of every origin, or realistic carriers.",
)
@click.option(
    "--split",
    "splits",
    multiple=True,
    help="Only these splits (repeatable; default: each split, then all together).",
)
@click.option(
    "--dense/--no-dense",
    default=True,
    show_default=True,
    help="Rank with the bundled embedding model fused in (off: BM25 only).",
)
@click.option("--k", default=3, show_default=True, help="The top k an injection must not reach.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def eval_poisoning(
    data: Path | None,
    shipped: str,
    splits: tuple[str, ...],
    dense: bool,
    k: int,
    as_json: bool,
) -> None:
    """Directive detector precision/recall, and top-k reach of injections under each policy."""
    from pagemem.eval import poisoning

    try:
        items = poisoning.load(data, shipped=shipped)
    except PagememError as exc:
        raise click.ClickException(str(exc)) from exc
    known = sorted({item.split for item in items})
    unknown = sorted(set(splits) - set(known))
    if unknown:
        raise click.BadParameter(f"no split {unknown[0]!r}; splits: {', '.join(known)}")
    chosen = {name: [i for i in items if i.split == name] for name in (splits or known)}
    if not splits:
        chosen["all"] = items
    detection = {name: poisoning.evaluate_detector(group) for name, group in chosen.items()}
    embedder = poisoning.default_embedder(dense)
    model = LearnedDirectives.bundled()
    combined = {n: poisoning.evaluate_detector(g, learned=model) for n, g in chosen.items()}
    reach: dict[str, dict[str, poisoning.Reach]] = {}
    for name, group in chosen.items():
        if name != "all" and len(chosen) > 1 and not splits:
            continue  # reach is measured once, over the whole set
        injections = sum(item.injection for item in group)
        reach[name] = {}
        for policy, make in poisoning.POLICIES.items():
            label = f"reach {name}/{policy}"
            with click.progressbar(length=injections, label=label, file=sys.stderr) as bar:
                reach[name][policy] = poisoning.evaluate_reach(
                    group, make(), k=k, embedder=embedder, progress=bar.update
                )
    from pagemem.eval.exposure import evaluate_exposure
    from pagemem.eval.side_effects import evaluate_side_effects

    effects = {name: evaluate_side_effects(group) for name, group in chosen.items()}
    exposure = {
        name: evaluate_exposure(group, embedder=embedder, k=k) for name, group in chosen.items()
    }
    if as_json:
        click.echo(
            json.dumps(
                {
                    "side_effects": {n: e.as_dict() for n, e in effects.items()},
                    "exposure": {n: e.as_dict() for n, e in exposure.items()},
                    "detector": {n: d.as_dict() for n, d in detection.items()},
                    "detector_with_learned": {n: d.as_dict() for n, d in combined.items()},
                    "reach": {
                        n: {p: r.as_dict() for p, r in by.items()} for n, by in reach.items()
                    },
                },
                indent=2,
            )
        )
        return
    benign = sum(not i.injection for i in items)
    click.echo(f"{len(items)} labelled notes: {benign} benign, {len(items) - benign} injections")
    tables = [("directive-shaped (rules, each origin's threshold)", detection)]
    tables.append(("directive-shaped or suspect (rules + learned model for tool/web)", combined))
    for title, results in tables:
        click.echo(f"\n{title}")
        click.echo(f"{'split':<13} {'notes':>5} {'inj':>4} {'precision':>9} {'recall':>7}  missed")
        for name, found in results.items():
            missed = ", ".join(i.id for i in found.missed) or "-"
            click.echo(
                f"{name:<13} {len(chosen[name]):>5} {found.tp + found.fn:>4} "
                f"{found.precision:>9.3f} {found.recall:>7.3f}  {missed}"
            )
    overall = detection.get("all") or next(iter(detection.values()))
    for axis in ("style", "lang", "origin"):
        groups = overall.recall_by.get(axis, {})
        cells = ", ".join(f"{key} {hit}/{total}" for key, (hit, total) in sorted(groups.items()))
        click.echo(f"recall by {axis}: {cells}")
    for axis in ("category", "lang", "origin"):
        groups = overall.false_alarms_by.get(axis, {})
        cells = ", ".join(
            f"{key} {hit}/{total}" for key, (hit, total) in sorted(groups.items()) if hit
        )
        click.echo(f"benign flagged by {axis} (where any): {cells or '-'}")
    for name, by_policy in reach.items():
        origins = sorted({o for r in by_policy.values() for o in r.total})
        click.echo(f"\ninjections in the top {k} for a query aimed at them ({name})")
        head = "".join(f"{o:>10}" for o in origins)
        click.echo(f"{'policy':<11}{head}{'all':>10}{'cut':>6}{'held':>8}{'benign web/tool':>17}")
        for policy, result in by_policy.items():
            cells = "".join(f"{f'{result.reached[o]}/{result.total[o]}':>10}" for o in origins)
            total = f"{sum(result.reached.values())}/{sum(result.total.values())}"
            kept = sum(result.benign_found[o] for o in ("web", "tool"))
            cost = f"{kept}/{sum(result.benign_total[o] for o in ('web', 'tool'))}"
            cut = sum(result.neutralised.values())
            quarantined = sum(result.held.values())
            click.echo(f"{policy:<11}{cells}{total:>10}{cut:>6}{quarantined:>8}{cost:>17}")
        click.echo(
            "(cut: of those in the top k, shown with their directive sentences replaced by a "
            "marker; held: quarantined; benign web/tool: benign web and tool notes in the top "
            f"{k} for their own question, the cost of distrust)"
        )
    click.echo("\nwhat the model reads of each note, default policy (written one by one)")
    click.echo(
        f"{'split':<13}{'injections':>11}{'held':>6}{'cut':>6}{'flagged':>8}{'missed':>7}"
        f"{'stopped':>8}{'benign':>8}{'held':>6}{'cut':>6}{'flagged':>8}"
        f"{'pairs: clean/poisoned in top k':>32}{'cut, injection left':>21}"
    )
    for name, read in exposure.items():
        pair = f"{read.clean_found}/{read.poisoned_found} of {read.pairs}" if read.pairs else "-"
        left = f"{read.pairs_residue} of {read.pairs_cut}" if read.pairs else "-"
        click.echo(
            f"{name:<13}{read.injections:>11}{read.held:>6}{read.cut:>6}{read.flagged_only:>8}"
            f"{read.missed:>7}{read.stopped:>8.3f}{read.benign:>8}{read.benign_held:>6}"
            f"{read.benign_cut:>6}{read.benign_flagged:>8}{pair:>32}{left:>21}"
        )
    click.echo(
        "(stopped: held for review or cut; flagged: shown whole with a flag; pairs: a carrier "
        f"clean and with an injection added, each in the top {k} for its question; injection "
        "left: poisoned carriers cut that still show more than 15 characters their clean "
        "version does not, compared without the detector)"
    )
    click.echo("\nside effects on values a gullible model read in the note (agent loop)")
    click.echo(
        f"{'split':<13}{'injected held':>15}{'user-given ran':>16}{'from note held':>16}"
        f"{'in memory: seen':>17}{'held':>8}{'spelled out held':>18}"
    )
    for name, effect in effects.items():
        injected = f"{effect.injected_held}/{effect.injected}"
        user = f"{effect.user_given_ran}/{effect.user_given}"
        document = f"{effect.from_document_held}/{effect.from_document}"
        seen = f"{effect.seeded_seen}/{effect.seeded}"
        held = f"{effect.seeded_held}/{effect.seeded_seen}"
        spelled = f"{effect.spelled_held}/{effect.spelled}"
        click.echo(
            f"{name:<13}{injected:>15}{user:>16}{document:>16}{seen:>17}{held:>8}{spelled:>18}"
        )
    click.echo(
        "(from note held: benign values only the note holds, the cost: an approval to give;\n"
        " in memory: injections stored with their origin, whose values a search for their "
        "question showed the model, and the calls on them held;\n"
        " spelled out: the note writes the injection's address in words, 'pay at evil dot "
        "example', and the model calls with the address)"
    )


@eval_group.command(name="facts")
@click.option(
    "--dense/--no-dense",
    default=True,
    show_default=True,
    help="Consolidate and rank with the bundled embedding model (off: words alone).",
)
@click.option(
    "--split",
    "splits",
    type=click.Choice(["dev", "test"]),
    multiple=True,
    help="Which split to run (default: both, reported apart).",
)
@click.option(
    "--data",
    "paths",
    type=click.Path(exists=True, dir_okay=False),
    multiple=True,
    help="Scenario files (JSON lines) instead of the shipped ones.",
)
@click.option(
    "--judge",
    type=click.Choice(["rules", "answer-key", "openai", "anthropic"]),
    default="rules",
    show_default=True,
    help="Who decides what a write does: the built-in rules, an LLMJudge over a scripted "
    "model answering from the scenarios' labels, or an LLMJudge over a real model.",
)
@click.option("--model", default=None, help="The judge's model (default: $PAGEMEM_LLM_MODEL).")
@click.option(
    "--base-url", default=None, help="The judge's endpoint (default: $PAGEMEM_LLM_BASE_URL)."
)
@click.option("--problems", is_flag=True, help="List every question that failed.")
@click.option("--json", "as_json", is_flag=True, help="Print the scores as JSON.")
def eval_facts(
    dense: bool,
    splits: tuple[str, ...],
    paths: tuple[str, ...],
    judge: str,
    model: str | None,
    base_url: str | None,
    problems: bool,
    as_json: bool,
) -> None:
    """Updates, look-alikes, restatements and lost writes over the fact scenarios."""
    from pagemem.eval import facts
    from pagemem.llm import AnthropicChat, OpenAIChat
    from pagemem.models import Chat

    scenarios = facts.load(paths or None)
    chat: Chat | None = None
    if judge == "answer-key":
        chat = facts.answer_key(scenarios)
    elif judge == "openai":
        chat = OpenAIChat(model, base_url=base_url, json=True)
    elif judge == "anthropic":
        chat = AnthropicChat(model, base_url=base_url)
    report = facts.run(
        scenarios,
        splits=splits or ("dev", "test"),
        embedder="default" if dense else None,
        judge=chat,
    )
    if as_json:
        click.echo(json.dumps(report.as_dict(), indent=2))
        return
    click.echo(f"{report.scenarios} scenarios, {report.writes} writes, {report.lost} lost")
    rows = (
        ("update: current ranks above stale (top 5)", "update"),
        ("update as of a past date", "update-as-of"),
        ("lost-write chains: latest ranks first", "lostwrite"),
        ("look-alike found in the top 5", "lookalike-found"),
        ("look-alike asked for ranks first", "lookalike-first"),
        ("look-alike still current", "lookalike-current"),
        ("look-alike not marked outdated", "lookalike-unmarked"),
        ("restatement fills at most 2 of the top 5", "restatement"),
        ("restated fact found in the top 5", "restatement-found"),
        ("other facts still current", "kept-current"),
    )
    chosen = [s for s in ("dev", "test") if not splits or s in splits]
    click.echo(f"{'':<44}" + "".join(f"{s:>16}" for s in chosen))
    for label, measure in rows:
        cells = []
        for split in chosen:
            tally = report.tally(split, measure)
            cells.append(f"{tally.rate:>7.3f} ({tally.passed:>3}/{tally.total:<3})")
        click.echo(f"{label:<44}" + "".join(f"{c:>16}" for c in cells))
    if problems:
        for problem in report.problems:
            click.echo(f"  {problem}")
