"""The OpenAI-compatible chat client against a real local HTTP endpoint, and the LLM judge
switched on through it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pagemem import InvalidInputError, Memory
from pagemem.consolidate import Consolidator, LLMJudge
from pagemem.errors import LLMError
from pagemem.llm import OpenAIChat

from .llm_endpoint import Endpoint


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


def test_openai_tool_calls_and_usage(endpoint: Endpoint) -> None:
    from pagemem import MEMORY_TOOLS

    endpoint.replies.append(
        (
            200,
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls",
                        "message": {
                            "role": "assistant",
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {
                                        "name": "archival_memory_search",
                                        "arguments": '{"query": "dog"}',
                                    },
                                }
                            ],
                        },
                    }
                ],
                "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129},
            },
        )
    )
    client = OpenAIChat("m", base_url=endpoint.url, max_retries=0)
    done = client.complete([{"role": "user", "content": "my dog?"}], MEMORY_TOOLS)
    assert done.text == ""
    assert [(c.id, c.name, c.arguments) for c in done.tool_calls] == [
        ("call_1", "archival_memory_search", '{"query": "dog"}')
    ]
    assert (done.usage.input_tokens, done.usage.output_tokens) == (120, 9)
    sent = endpoint.requests[0]
    assert [t["function"]["name"] for t in sent["tools"]][:2] == [
        "core_memory_append",
        "core_memory_replace",
    ]


def test_anthropic_messages_with_tool_use(endpoint: Endpoint) -> None:
    from pagemem import MEMORY_TOOLS
    from pagemem.llm import AnthropicChat

    endpoint.replies.append(
        (
            200,
            {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [
                    {"type": "text", "text": "Let me look."},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "archival_memory_search",
                        "input": {"query": "dog"},
                    },
                ],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": 200, "output_tokens": 15},
            },
        )
    )
    client = AnthropicChat("claude-test", base_url=endpoint.url.removesuffix("/v1"), max_retries=0)
    done = client.complete(
        {"system": "You help.", "messages": [{"role": "user", "content": "my dog?"}]},
        MEMORY_TOOLS,
    )
    assert done.text == "Let me look."
    assert [(c.id, c.name, json.loads(c.arguments)) for c in done.tool_calls] == [
        ("toolu_1", "archival_memory_search", {"query": "dog"})
    ]
    assert (done.usage.input_tokens, done.usage.output_tokens) == (200, 15)
    assert endpoint.paths == ["/v1/messages"]
    sent = endpoint.requests[0]
    assert sent["system"] == "You help."
    assert "input_schema" in sent["tools"][0]
    endpoint.replies.append((500, "boom"))
    with pytest.raises(LLMError, match="claude-test"):
        client([{"role": "user", "content": "hi"}])


def test_scripted_llm_replays_and_records() -> None:
    from pagemem.llm import Completion, ScriptedLLM, ToolCall

    call = ToolCall("t1", "archival_memory_search", '{"query": "x"}')
    llm = ScriptedLLM(["hello", Completion("", (call,)), lambda request, tools: Completion("fn")])
    assert llm([{"role": "user", "content": "a"}]) == "hello"
    assert llm.complete([]).tool_calls == (call,)
    assert llm.complete(["r"]).text == "fn"
    assert llm.requests[-1] == ["r"]
    with pytest.raises(LLMError, match="no more replies"):
        llm.complete([])
