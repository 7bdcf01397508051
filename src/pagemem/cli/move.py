"""`pagemem migrate`: copy a whole memory between backends, verified scope by scope."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pagemem.cli.target import StoreTarget
from pagemem.errors import PagememError
from pagemem.memory.migrate import migrate as copy_memory
from pagemem.retrieval.embed import DEFAULT_MODEL
from pagemem.store import open_store

__all__ = ["migrate"]


@click.command()
@click.option(
    "--from",
    "source",
    type=StoreTarget(exists=True),
    required=True,
    help="The memory to copy: a SQLite file or a postgresql:// URL.",
)
@click.option(
    "--to",
    "target",
    type=StoreTarget(exists=False),
    required=True,
    help="Where to copy it: a postgresql:// URL or a SQLite file (its scopes must be empty).",
)
@click.option(
    "--vectors/--no-vectors",
    default=True,
    show_default=True,
    help="Copy the stored vectors of the bundled model too (else they are recomputed).",
)
def migrate(source: Path | str, target: Path | str, vectors: bool) -> None:
    """Copy every scope (notes, messages, blocks, summary, history, retention, vectors),
    the API keys and the named agents, and check counts and a checksum of each scope on
    both sides."""
    if str(source) == str(target):
        raise click.BadParameter("--from and --to name the same memory", param_hint="--to")
    try:
        origin, destination = open_store(source), open_store(target)
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        done = copy_memory(
            origin,
            destination,
            model_ids=(DEFAULT_MODEL,) if vectors else (),
            progress=lambda scope: click.echo(f"copied {scope}", err=True),
        )
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        origin.close()
        destination.close()
    click.echo(
        f"migrated {done.scopes} scopes: {done.notes} notes, {done.messages} messages, "
        f"{done.blocks} blocks, {done.history} history entries, {done.vectors} vectors, "
        f"{done.api_keys} API keys, {done.agents} agents; counts and checksums match",
        file=sys.stdout,
    )
