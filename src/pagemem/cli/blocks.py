"""`pagemem blocks`: the core memory of one scope, listed and written by hand."""

from __future__ import annotations

from pathlib import Path

import click

from pagemem.cli.target import db_option
from pagemem.errors import PagememError

__all__ = ["blocks"]


@click.group()
def blocks() -> None:
    """Core memory blocks of one scope: list them, create or overwrite one."""


_SCOPE = (
    click.option("--tenant", default="local", show_default=True, help="The scope's tenant."),
    click.option("--user", default="me", show_default=True, help="The scope's user."),
    click.option("--agent", default=None, help="The agent part of the scope, if any."),
)


@blocks.command(name="list")
@db_option(default=Path("memory.db"))
@_SCOPE[0]
@_SCOPE[1]
@_SCOPE[2]
def blocks_list(db: Path | str, tenant: str, user: str, agent: str | None) -> None:
    """Print every block: label, tokens used of its cap, description, value."""
    from pagemem.memory import Memory

    try:
        with Memory(db, embedder=None) as memory:
            me = memory.scope(tenant, user, agent)
            for block in me.blocks.list():
                used = me.blocks.tokens(block.label)
                click.echo(f"{block.label} ({used}/{block.limit} tokens) {block.description}")
                for line in block.value.splitlines():
                    click.echo(f"  {line}")
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None


@blocks.command(name="set")
@db_option(default=Path("memory.db"))
@_SCOPE[0]
@_SCOPE[1]
@_SCOPE[2]
@click.argument("label")
@click.argument("value", default="")
@click.option("--limit", type=int, default=None, help="Its cap in tokens (new blocks: 2,000).")
@click.option("--description", default=None, help="What the block is for (shown to you).")
def blocks_set(
    db: Path | str,
    tenant: str,
    user: str,
    agent: str | None,
    label: str,
    value: str,
    limit: int | None,
    description: str | None,
) -> None:
    """Create a block or overwrite its value (refused, unchanged, over its cap)."""
    from pagemem.memory import Memory

    try:
        with Memory(db, embedder=None) as memory:
            block = memory.scope(tenant, user, agent).blocks.set(
                label, value, limit=limit, description=description
            )
            click.echo(f"{block.label}: {len(block.value)} characters, cap {block.limit} tokens")
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None
