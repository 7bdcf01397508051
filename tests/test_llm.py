"""The OpenAI-compatible chat client against a real local HTTP endpoint, and the LLM judge
switched on through it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pagemem import InvalidInputError, Memory
from pagemem.consolidate import Consolidator, LLMJudge
from pagemem.errors import LLMError
from pagemem.llm import OpenAIChat


class Endpoint:
    """A scripted chat completions server on 127.0.0.1: replies are taken in order."""

    def __init__(self) -> None:
        self.replies: list[tuple[int, str]] = []
        self.requests: list[dict[str, Any]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests.append(body)
                status, content = endpoint.replies.pop(0) if endpoint.replies else (500, "")
                payload = {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content},
                        }
                    ],
                }
                data = json.dumps(payload if status == 200 else {"error": {"message": content}})
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data.encode())

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    server = Endpoint()
    yield server
    server.close()


def test_chat_through_the_sdk_over_a_real_socket(endpoint: Endpoint) -> None:
    endpoint.replies.append((200, '{"ok": true}'))
    chat = OpenAIChat("local-model", base_url=endpoint.url, json=True, max_retries=0)
    assert chat([{"role": "user", "content": "hi"}]) == '{"ok": true}'
    (request,) = endpoint.requests
    assert request["model"] == "local-model"
    assert request["response_format"] == {"type": "json_object"}
    assert request["messages"] == [{"role": "user", "content": "hi"}]


def test_endpoint_errors_become_llm_errors(endpoint: Endpoint) -> None:
    endpoint.replies.append((500, "boom"))
    chat = OpenAIChat("m", base_url=endpoint.url, max_retries=0)
    with pytest.raises(LLMError, match="InternalServerError"):
        chat([{"role": "user", "content": "hi"}])
    endpoint.replies.append((200, ""))
    with pytest.raises(LLMError, match="no text"):
        chat([{"role": "user", "content": "hi"}])


def test_configuration_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAGEMEM_LLM_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("PAGEMEM_LLM_BASE_URL", raising=False)
    with pytest.raises(InvalidInputError, match="no model"):
        OpenAIChat()
    with pytest.raises(InvalidInputError, match="no API key"):
        OpenAIChat("m")
    monkeypatch.setenv("PAGEMEM_LLM_MODEL", "from-env")
    monkeypatch.setenv("PAGEMEM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    assert OpenAIChat().model == "from-env"


def test_the_llm_judge_switched_on_through_an_endpoint(endpoint: Endpoint, tmp_path: Path) -> None:
    endpoint.replies += [
        (200, '{"action": "supersede", "targets": [1], "reason": "moved"}'),
        (200, "I think you should merge them"),  # malformed twice: the rules decide
        (200, "still not json"),
    ]
    judge = LLMJudge(OpenAIChat("m", base_url=endpoint.url, json=True, max_retries=0))
    now = datetime(2026, 6, 1, tzinfo=UTC)
    memory = Memory(
        tmp_path / "m.db",
        embedder=None,
        clock=lambda: now,
        consolidator=Consolidator(judge=judge),
    )
    me = memory.scope("acme", "priya")
    first = me.archive.insert(
        "Base: Seattle", origin="user", valid_from=datetime(2024, 1, 1, tzinfo=UTC)
    )
    second = me.archive.insert(
        "Base: Austin", origin="user", valid_from=datetime(2025, 1, 1, tzinfo=UTC)
    )
    assert me.archive.get(first).superseded_by == second
    third = me.archive.insert("Base: Denver", origin="user")
    assert third not in (first, second)
    assert me.archive.get(second).expired_at is None  # rules: different words, no slot
    assert "EXISTING" in endpoint.requests[0]["messages"][1]["content"]
