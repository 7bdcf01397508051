"""The `--db` option every command shares: a SQLite file or a PostgreSQL URL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pagemem.store import is_postgres

__all__ = ["StoreTarget", "db_option"]

F = TypeVar("F", bound=Callable[..., Any])


class StoreTarget(click.Path):
    """A PostgreSQL URL, kept as text, or a path to a SQLite file."""

    name = "file or postgresql://url"

    def __init__(self, *, exists: bool) -> None:
        super().__init__(exists=exists, dir_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and is_postgres(value):
            return value
        return super().convert(value, param, ctx)


def db_option(*, exists: bool = False, default: Path | None = None) -> Callable[[F], F]:
    what = "The memory: a SQLite file or a postgresql:// URL"
    help_text = what + ("." if exists else " (a file is created if missing).")
    return click.option(
        "--db",
        type=StoreTarget(exists=exists),
        default=default,
        required=default is None,
        show_default=default is not None,
        help=help_text,
    )
