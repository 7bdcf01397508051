"""Schemathesis against the OpenAPI document: generated requests never make the server fail."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from pagemem import Memory
from pagemem.llm import Completion
from pagemem.server.rest import create_app

_FOLDER = tempfile.mkdtemp(prefix="pagemem-schema-")
_MEMORY = Memory(Path(_FOLDER) / "m.db", embedder=None)
_KEY = _MEMORY.issue_api_key("acme")
_MEMORY.scope("acme", "priya").archive.insert("Priya's dog is Miso")


@pytest.fixture(autouse=True, scope="module")
def _remove_folder() -> Iterator[None]:
    """The module's memory lives in a folder of its own: gone when its tests are."""
    yield
    _MEMORY.close()
    shutil.rmtree(_FOLDER, ignore_errors=True)


class _Echo:
    """A model that always answers, so the agent endpoint is exercised too."""

    provider = "openai"

    def complete(self, request: Any, tools: Any = ()) -> Completion:
        return Completion("ok")

    def __call__(self, messages: list[dict[str, str]]) -> str:
        return "ok"


schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(_MEMORY, llm=_Echo()))


@schema.parametrize()
@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case) -> None:
    response = case.call(headers={"Authorization": f"Bearer {_KEY}"})
    assert response.status_code < 500, (case.method, case.path, response.text)
