"""Operator commands on a memory file: reindex, forget, retention, quarantine, export, import."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["reindex"]


@click.command()
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
