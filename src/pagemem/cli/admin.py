"""Operator commands on a memory file: reindex, consolidate, forget, retention, quarantine,
export, import.

Commands that delete preview by default and act only with `--yes`.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

import click

from pagemem.cli.target import db_option
from pagemem.errors import PagememError
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import ORIGINS, Record, RetentionRule

__all__ = [
    "consolidate",
    "export",
    "forget",
    "import_",
    "jobs",
    "quarantine",
    "reindex",
    "retention",
]

_DB = db_option(exists=True)
_NEW_DB = db_option()
_USER = click.option("--user", default=None, help="Only this user (default: every user).")
_AGENT = click.option("--agent", default=None, help="The agent part of the scope, if any.")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def _duration(value: str) -> timedelta:
    found = _DURATION.match(value)
    if not found or float(found[1]) <= 0:
        raise click.BadParameter(f"{value!r} is not a duration such as 90d, 12h or 2w")
    return timedelta(seconds=float(found[1]) * _UNITS[found[2]])


@contextmanager
def _opened(db: Path | str) -> Iterator[Memory]:
    """Open the memory; a PagememError becomes a clean CLI error."""
    try:
        with Memory(db, embedder=None) as memory:
            yield memory
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None


def _selected(
    memory: Memory, tenant: str | None, user: str | None, agent: str | None
) -> list[ScopedMemory]:
    if user is not None:
        if tenant is None:
            raise click.UsageError("--user needs --tenant")
        return [memory.scope(tenant, user, agent)]
    return [me for me in memory.scopes(tenant=tenant) if agent is None or me.scope.agent == agent]


@click.command()
@_DB
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
def reindex(db: Path | str, tenant: str | None) -> None:
    """Embed every note that lacks a vector of the current embedding model."""
    with Memory(db) as memory:
        total = 0
        for me in memory.scopes(tenant=tenant):
            count = me.reindex()
            total += count
            click.echo(f"{me.scope}: {count} notes embedded")
        click.echo(f"{total} notes embedded with {memory.ranker.embedder_id}")


@click.command()
@_DB
@click.option("--tenant", required=True, help="The tenant whose data to forget.")
@_USER
@_AGENT
@click.option("--phrase", default=None, help="Forget everything that mentions this phrase.")
@click.option("--older-than", default=None, help="Forget what is older than this (90d, 12h, 2w).")
@click.option(
    "--what",
    type=click.Choice(["notes", "messages", "all"]),
    default="all",
    show_default=True,
    help="With --older-than: archival notes, evicted messages, or both.",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    type=click.Choice(ORIGINS),
    help="With --older-than: only notes of this origin (repeatable).",
)
@click.option("--everything", is_flag=True, help="Forget the whole scope (or tenant).")
@click.option("--yes", is_flag=True, help="Do it; without this only a preview is printed.")
def forget(
    db: Path | str,
    tenant: str,
    user: str | None,
    agent: str | None,
    phrase: str | None,
    older_than: str | None,
    what: str,
    origins: tuple[str, ...],
    everything: bool,
    yes: bool,
) -> None:
    """Forget by phrase, by age, or everything; previews unless --yes."""
    if (phrase is not None) + (older_than is not None) + everything != 1:
        raise click.UsageError("give exactly one of --phrase, --older-than or --everything")
    if origins and what == "messages":
        raise click.UsageError("--origin applies to notes only")
    age = _duration(older_than) if older_than is not None else None
    verb = "forgot" if yes else "would forget"
    with _opened(db) as memory:
        for me in _selected(memory, tenant, user, agent):
            if phrase is not None:
                found = me.forget(phrase, confirm=yes, actor="operator")
                click.echo(
                    f"{me.scope}: {verb} {len(found.records)} notes, {len(found.messages)} "
                    f"messages; phrase blanked in blocks: {', '.join(found.blocks) or 'none'}"
                )
            elif age is not None:
                parts = ["notes", "messages"] if what == "all" else [what]
                counts = [
                    me.retention.expire(
                        part,  # type: ignore[arg-type]
                        age,
                        origins=origins if part == "notes" else (),
                        actor="operator",
                        preview=not yes,
                    )
                    for part in parts
                ]
                notes = sum(c.notes for c in counts)
                messages = sum(c.messages for c in counts)
                click.echo(
                    f"{me.scope}: {verb} {notes} notes and {messages} evicted messages "
                    f"older than {older_than}"
                )
            elif yes:
                removed = me.forget_all(actor="operator")
                listed = ", ".join(f"{count} {table}" for table, count in removed.items())
                click.echo(f"{me.scope}: forgot {listed}")
            else:
                click.echo(
                    f"{me.scope}: would forget {me.archive.count(quarantined=None)} notes, "
                    f"{me.recall.count()} evicted messages, {len(me.blocks.list())} blocks"
                )
    if not yes:
        click.echo("preview only: add --yes to forget")


@click.group()
def retention() -> None:
    """Per-scope retention rules: show, set, and run them."""


@retention.command(name="show")
@_DB
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
@_USER
@_AGENT
def retention_show(db: Path | str, tenant: str | None, user: str | None, agent: str | None) -> None:
    """Print each scope's retention rules."""
    with _opened(db) as memory:
        for me in _selected(memory, tenant, user, agent):
            rules = me.retention.rules()
            click.echo(f"{me.scope}: {'; '.join(map(str, rules)) or 'keep everything'}")


def _rule(text: str) -> RetentionRule:
    """'messages=90' or 'notes=30' or 'notes:web,tool=30' (days)."""
    head, _, days = text.partition("=")
    what, _, origins = head.partition(":")
    try:
        age = float(days)
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected e.g. messages=90 or notes:web=30") from None
    try:
        listed = tuple(o.strip() for o in origins.split(",") if o.strip())
        return RetentionRule(what.strip(), age, listed)  # type: ignore[arg-type]
    except PagememError as exc:
        raise click.BadParameter(f"{text!r}: {exc}") from None


@retention.command(name="set")
@_NEW_DB
@click.option("--tenant", required=True, help="The scope's tenant.")
@click.option("--user", required=True, help="The scope's user.")
@_AGENT
@click.option(
    "--rule",
    "rules",
    multiple=True,
    help="messages=DAYS, notes=DAYS or notes:ORIGIN[,ORIGIN]=DAYS (repeatable; none clears).",
)
def retention_set(
    db: Path | str, tenant: str, user: str, agent: str | None, rules: tuple[str, ...]
) -> None:
    """Replace one scope's retention rules."""
    parsed = [_rule(text) for text in rules]
    with _opened(db) as memory:
        me = memory.scope(tenant, user, agent)
        me.retention.set(parsed)
        click.echo(f"{me.scope}: {'; '.join(map(str, parsed)) or 'keep everything'}")


@retention.command(name="run")
@_DB
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
def retention_run(db: Path | str, tenant: str | None) -> None:
    """Apply every scope's retention rules now."""
    with _opened(db) as memory:
        done = memory.apply_retention(tenant=tenant)
        for scope, expired in done.items():
            click.echo(f"{scope}: {expired.notes} notes, {expired.messages} messages expired")
        click.echo(f"{len(done)} scopes changed")


@click.command()
@_DB
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
@_USER
@_AGENT
@click.option("--release", "release_id", default=None, help="Release this note (needs --user).")
@click.option("--hold", "hold_id", default=None, help="Quarantine this note (needs --user).")
@click.option("--json", "as_json", is_flag=True, help="Print the held notes as JSON lines.")
def quarantine(
    db: Path | str,
    tenant: str | None,
    user: str | None,
    agent: str | None,
    release_id: str | None,
    hold_id: str | None,
    as_json: bool,
) -> None:
    """List notes held for review; release or hold one."""
    with _opened(db) as memory:
        if release_id or hold_id:
            if user is None or tenant is None:
                raise click.UsageError("--release and --hold need --tenant and --user")
            me = memory.scope(tenant, user, agent)
            if release_id:
                me.archive.release(release_id, actor="operator")
                click.echo(f"{me.scope}: released {release_id}")
            if hold_id:
                me.archive.hold(hold_id, actor="operator")
                click.echo(f"{me.scope}: quarantined {hold_id}")
            return
        held = 0
        for me in _selected(memory, tenant, user, agent):
            offset = 0
            while page := me.archive.quarantined(limit=500, offset=offset):
                offset += len(page)
                for record in page:
                    held += 1
                    directive = record.metadata.get("directive", {})
                    if as_json:
                        click.echo(json.dumps(_held(record, directive), ensure_ascii=False))
                        continue
                    text = record.text if len(record.text) <= 160 else record.text[:157] + "..."
                    click.echo(
                        f"{me.scope} {record.id} origin={record.origin} "
                        f"src={record.source or 'unknown'} score={directive.get('score', 0)} "
                        f"[{', '.join(directive.get('families', []))}]: {text!r}"
                    )
        if not as_json:
            click.echo(f"{held} notes held for review")


def _held(record: Record, directive: dict[str, Any]) -> dict[str, Any]:
    return {
        "scope": str(record.scope),
        "id": record.id,
        "origin": record.origin,
        "source": record.source,
        "created_at": record.created_at.isoformat(),
        "score": directive.get("score", 0),
        "families": directive.get("families", []),
        "text": record.text,
    }


@click.command()
@_DB
@click.option("--tenant", required=True, help="The scope's tenant.")
@click.option("--user", required=True, help="The scope's user.")
@_AGENT
@click.option(
    "--out",
    "-o",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="Write here (default: standard output).",
)
def export(db: Path | str, tenant: str, user: str, agent: str | None, out: IO[str]) -> None:
    """Everything stored about one user, as JSON lines."""
    with _opened(db) as memory:
        lines = memory.scope(tenant, user, agent).export_jsonl(out)
    click.echo(f"{lines} lines exported", err=True)


@click.command(name="import")
@_NEW_DB
@click.option("--tenant", required=True, help="The scope's tenant.")
@click.option("--user", required=True, help="The scope's user.")
@_AGENT
@click.argument("source", type=click.File("r", encoding="utf-8"))
def import_(db: Path | str, tenant: str, user: str, agent: str | None, source: IO[str]) -> None:
    """Restore an export into an empty scope (all or nothing)."""
    with _opened(db) as memory:
        done = memory.scope(tenant, user, agent).restore(source)
    click.echo(
        f"imported {done.notes} notes, {done.messages} messages, {done.blocks} blocks, "
        f"{done.history} history entries",
        file=sys.stdout,
    )


@click.command()
@_DB
@click.option("--tenant", default=None, help="Only this tenant's scopes.")
@click.option("--dry-run", is_flag=True, help="Report what would change; change nothing.")
def consolidate(db: Path | str, tenant: str | None, dry_run: bool) -> None:
    """Retire restatements behind the facts they repeat, close facts a later one changed,
    link possible changes; nothing is deleted."""
    with Memory(db) as memory:
        done = memory.consolidate(tenant=tenant, dry_run=dry_run)
        for scope, result in done.items():
            for copy, kept in result.merged:
                click.echo(f"{scope}: {copy} restates {kept} ({result.reasons[copy]})")
            for old, new in result.superseded:
                click.echo(f"{scope}: {old} superseded by {new} ({result.reasons[old]})")
            for new, old in result.linked:
                click.echo(f"{scope}: {new} kept beside {old} ({result.reasons[new]})")
        merged = sum(len(r.merged) for r in done.values())
        closed = sum(len(r.superseded) for r in done.values())
        linked = sum(len(r.linked) for r in done.values())
        would = "would " if dry_run else ""
        click.echo(
            f"{would}retire {merged} restatements, {would}close {closed}, {would}link {linked}"
            if dry_run
            else f"retired {merged} restatements, closed {closed}, linked {linked}"
        )


@click.command()
@_DB
@click.option("--run", "run_now", is_flag=True, help="Do every ready job now, then report.")
@click.option(
    "--status",
    type=click.Choice(["pending", "running", "done", "failed"]),
    default=None,
    help="List the jobs in this state.",
)
def jobs(db: Path | str, run_now: bool, status: str | None) -> None:
    """The background job queue: counts by kind and state; run the ready jobs."""
    from pagemem.jobs import JobRunner

    with Memory(db) as memory:
        if run_now:
            runner = JobRunner(memory)
            count = runner.run_pending()
            click.echo(f"ran {count} jobs: {runner.done} done, {runner.failed} failed")
        queue = memory.jobs()
        counts: dict[tuple[str, str], int] = {}
        for job in queue:
            counts[(job.kind, job.status)] = counts.get((job.kind, job.status), 0) + 1
        for (kind, state), count in sorted(counts.items()):
            click.echo(f"{kind:<12} {state:<8} {count}")
        if not counts:
            click.echo("no jobs")
        for job in queue:
            if status is not None and job.status == status:
                error = f" error: {job.error}" if job.error else ""
                click.echo(
                    f"  #{job.id} {job.scope} {job.kind} attempts={job.attempts} "
                    f"{job.payload}{error}"
                )
