"""The `pagemem` command: each subcommand a thin layer over the Python API."""

from __future__ import annotations

import click

from pagemem.cli import admin, blocks, chat, measure, move, serve, textbook

__all__ = ["cli", "main"]


@click.group()
@click.version_option(package_name="pagemem")
def cli() -> None:
    """pagemem: memory beyond the context window for LLM agents."""


for _command in (
    textbook.demo,
    textbook.budget,
    chat.chat,
    blocks.blocks,
    serve.serve,
    serve.key,
    serve.mcp,
    serve.ui,
    admin.reindex,
    admin.consolidate,
    admin.jobs,
    admin.forget,
    admin.retention,
    admin.quarantine,
    admin.export,
    admin.import_,
    move.migrate,
    measure.bench,
    measure.eval_group,
):
    cli.add_command(_command)


def main() -> None:
    cli()
