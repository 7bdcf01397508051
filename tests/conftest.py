from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pagemem import Memory, ScopedMemory

from .kept import Ledger, watch
from .llm_endpoint import Endpoint
from .pg import PostgresServer

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def ticking_clock(step: timedelta = timedelta(seconds=1)) -> Callable[[], datetime]:
    """A clock that advances one step per call, so every write has its own time."""
    state = {"now": START}

    def tick() -> datetime:
        state["now"] += step
        return state["now"]

    return tick


@pytest.fixture(autouse=True)
def acknowledged_writes_are_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[Ledger]:
    """Every test: no id an insert handed back may lose its text (see tests/kept.py)."""
    ledger = watch(monkeypatch)
    yield ledger
    ledger.verify_open()
    assert not ledger.lost, "acknowledged writes lost:\n" + "\n".join(ledger.lost)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    server = PostgresServer(tmp_path_factory.mktemp("postgres"))
    yield server
    server.close()


@pytest.fixture
def postgres_url(
    postgres_server: PostgresServer, acknowledged_writes_are_kept: Ledger
) -> Iterator[str]:
    """An empty PostgreSQL database (pgvector available) for one test."""
    url = postgres_server.database()
    yield url
    acknowledged_writes_are_kept.verify_open()  # before the database goes
    postgres_server.drop(url)


BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Runs a test once per store backend; `store_target` gives where to open it."""
    return str(request.param)


@pytest.fixture
def store_target(backend: str, request: pytest.FixtureRequest) -> str:
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return ":memory:"


@pytest.fixture
def db_target(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A durable memory on each backend in turn: a SQLite file, or a PostgreSQL database."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "m.db")


@pytest.fixture
def memory(store_target: str) -> Iterator[Memory]:
    """A fresh memory on each backend in turn."""
    mem = Memory(store_target, clock=ticking_clock())
    yield mem
    mem.close()


@pytest.fixture
def me(memory: Memory) -> ScopedMemory:
    return memory.scope(tenant="acme", user="priya")


@pytest.fixture
def words_memory() -> Iterator[Memory]:
    mem = Memory(":memory:", tokenizer="words", clock=ticking_clock())
    yield mem
    mem.close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A scripted OpenAI-compatible (and Anthropic-shaped) endpoint on 127.0.0.1."""
    server = Endpoint()
    yield server
    server.close()
