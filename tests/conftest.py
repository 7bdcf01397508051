from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta

import pytest

from pagemem import Memory, ScopedMemory

from .llm_endpoint import Endpoint

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def ticking_clock(step: timedelta = timedelta(seconds=1)) -> Callable[[], datetime]:
    """A clock that advances one step per call, so every write has its own time."""
    state = {"now": START}

    def tick() -> datetime:
        state["now"] += step
        return state["now"]

    return tick


@pytest.fixture
def memory() -> Iterator[Memory]:
    mem = Memory(":memory:", clock=ticking_clock())
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
