"""The agent loop end to end: scripted across sessions, and through a real local endpoint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pagemem import Memory
from pagemem.agent import Agent, AgentError, tool
from pagemem.llm import Completion, OpenAIChat, ScriptedLLM, TokenUsage
from pagemem.models import ToolCall
from pagemem.tools import ApprovalRequest, Tool

from .llm_endpoint import Endpoint


def call(name: str, arguments: dict[str, Any], ident: str = "c1") -> Completion:
    return Completion("", (ToolCall(ident, name, json.dumps(arguments)),), TokenUsage(100, 5))


def last_tool_result(request: Any) -> str:
    return next(m["content"] for m in reversed(request) if m["role"] == "tool")


def _tool_words() -> int:
    from pagemem import MEMORY_TOOLS, openai_tools
    from pagemem.tokens import get_counter

    return get_counter("words").count(json.dumps(openai_tools(MEMORY_TOOLS)))


def _envelope_words() -> int:
    from pagemem.guard.envelope import RULE, Envelope
    from pagemem.tokens import get_counter

    count = get_counter("words").count
    return count(RULE) + count(Envelope().wrap("", "tool archival_memory_insert"))


def test_a_fact_saved_in_one_session_is_found_in_the_next(tmp_path: Path) -> None:
    # the tools take their share of every window, and so do the envelope's rule and
    # the markers around the tool result in view
    window = 45 + _tool_words() + _envelope_words()
    path = tmp_path / "m.db"
    with Memory(path, embedder=None, tokenizer="words") as memory:
        me = memory.scope("acme", "priya")
        first = ScriptedLLM(
            [
                call("archival_memory_insert", {"content": "Priya's dog is named Miso"}),
                "Saved.",
                *["Noted."] * 6,
            ]
        )
        agent = Agent(me, first, max_tokens=window, system="You help.")
        assert agent.step("My dog is called Miso, remember that.").text == "Saved."
        for n in range(6):  # small talk pushes the first turns out of the window
            agent.step(f"filler message number {n} about the weather and trains")
        assert "Miso" not in agent.context.text()
        assert me.recall.count() > 0

    with Memory(path, embedder=None, tokenizer="words") as memory:
        me = memory.scope("acme", "priya")

        def answer(request: Any, tools: Any) -> Completion:
            found = last_tool_result(request)
            return Completion(f"From memory: {found.splitlines()[2]}")  # after the marker

        second = ScriptedLLM([call("archival_memory_search", {"query": "dog name"}), answer])
        agent = Agent(me, second, max_tokens=window, system="You help.")
        step = agent.step("What is my dog called?")
        assert "Priya's dog is named Miso" in step.text
        assert [name for name, _ in step.tool_results] == ["archival_memory_search"]
        assert [u.input_tokens for u in agent.calls] == [100, 0]
        # the second request carried the call and its result, in order
        roles = [m["role"] for m in second.requests[1]]
        assert roles[-2:] == ["assistant", "tool"]


def test_the_loop_runs_against_a_local_openai_compatible_endpoint(
    endpoint: Endpoint, tmp_path: Path
) -> None:
    tool_call = {
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
                            "id": "call_9",
                            "type": "function",
                            "function": {
                                "name": "core_memory_append",
                                "arguments": '{"label": "human", "content": "Likes trains"}',
                            },
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57},
    }
    endpoint.replies += [(200, tool_call), (200, "Noted: you like trains.")]
    memory = Memory(tmp_path / "m.db", embedder=None)
    me = memory.scope("acme", "priya")
    me.blocks.set("human", "Name: Priya.")
    agent = Agent(me, OpenAIChat("m", base_url=endpoint.url, max_retries=0))
    step = agent.step("I like trains")
    assert step.text == "Noted: you like trains."
    assert me.blocks.get("human").value == "Name: Priya.\nLikes trains"
    second = endpoint.requests[1]["messages"]
    assert second[-2]["tool_calls"][0]["id"] == "call_9"
    assert second[-1]["role"] == "tool"
    assert second[-1]["tool_call_id"] == "call_9"
    opening, result, closing = second[-1]["content"].split("\n")
    assert opening.startswith("<<untrusted ")
    assert opening.endswith(" from=tool core_memory_append>>")
    assert result == "appended to block 'human' (7/2000 tokens)"
    assert closing == f"<<end untrusted {opening.split()[1]}>>"
    assert [t["function"]["name"] for t in endpoint.requests[0]["tools"]][-1] == (
        "conversation_search"
    )


def test_user_tools_and_the_approval_hook(tmp_path: Path) -> None:
    sent: list[str] = []

    def send_email(to: str, body: str, cc: list[str] | None = None) -> str:
        """Send an email."""
        sent.append(to)
        return f"sent to {to}"

    email = tool(send_email, side_effecting=True)
    assert isinstance(email, Tool)
    assert email.json_schema()["required"] == ["to", "body"]
    me = Memory(tmp_path / "m.db", embedder=None).scope("acme", "priya")
    args = {"to": "ana@example.com", "body": "hi"}
    # the user's own value: no untrusted text holds it, so it runs with no one to ask
    direct = ScriptedLLM([call("send_email", args), "Sent."])
    step = Agent(me, direct, tools=[email]).step("email Ana at ana@example.com")
    assert sent == ["ana@example.com"]
    assert step.tool_results[0][1].ok
    # a tool made to always ask is held even then
    careful = tool(send_email, always_ask=True)
    refused = ScriptedLLM([call("send_email", args), "I could not send it."])
    step = Agent(me, refused, tools=[careful]).step("email Ana at ana@example.com")
    assert sent == ["ana@example.com"]
    assert "No approver is configured" in step.tool_results[0][1].text
    asked: list[ApprovalRequest] = []
    allowed = ScriptedLLM([call("send_email", args), "Sent."])
    approve = lambda r: asked.append(r) is None  # noqa: E731
    Agent(me, allowed, tools=[careful], approve=approve).step("email Ana")
    assert sent == ["ana@example.com", "ana@example.com"]
    assert asked[0].tool == "send_email"
    assert asked[0].traced == ()


def test_the_loop_is_bounded(tmp_path: Path) -> None:
    me = Memory(tmp_path / "m.db", embedder=None).scope("acme", "priya")
    forever = ScriptedLLM([call("conversation_search", {"query": "x"}, f"c{i}") for i in range(5)])
    with pytest.raises(AgentError, match="no answer after 3 model calls"):
        Agent(me, forever, max_steps=3).step("loop")


def test_tool_rejects_types_it_cannot_describe() -> None:
    from pagemem import PagememError

    def bad(when: float) -> str:
        return ""

    with pytest.raises(PagememError, match="must be str, int or list"):
        tool(bad)


def test_chat_command_against_a_local_endpoint(endpoint: Endpoint, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pagemem.cli import cli

    endpoint.replies += [(200, "Hello Priya!"), (200, "Bye.")]
    args = ["chat", "--db", str(tmp_path / "m.db"), "--model", "m", "--base-url", endpoint.url]
    out = CliRunner().invoke(cli, args, input="hi, I'm Priya\nbye\n\n")
    assert out.exit_code == 0, out.output
    assert "assistant> Hello Priya!" in out.output
    assert "main context:" in out.output
    with Memory(tmp_path / "m.db", embedder=None) as memory:
        assert len(memory.scope("local", "me").recall.in_context()) == 4


@pytest.mark.parametrize("failure", ["model error", "step limit"])
def test_a_failed_turn_is_taken_back_and_the_next_one_works(tmp_path: Path, failure: str) -> None:
    from pagemem.errors import LLMError

    def broken(request: Any, tools: Any) -> Completion:
        raise LLMError("endpoint down")

    looping = [call("archival_memory_search", {"query": "x"}, f"c{i}") for i in range(3)]
    replies: list[Any] = ["First answer."]
    replies += [broken] if failure == "model error" else looping
    replies += ["Second answer."]
    with Memory(tmp_path / "m.db", embedder=None) as memory:
        me = memory.scope("acme", "priya")
        agent = Agent(me, ScriptedLLM(replies), max_tokens=4000, max_steps=3)
        agent.step("hello")
        before = [(m.role, m.content) for m in me.recall.in_context()]
        with pytest.raises((LLMError, AgentError)):
            agent.step("this turn fails")
        assert [(m.role, m.content) for m in me.recall.in_context()] == before
        assert [(m.role, m.content) for m in agent.context.messages] == before
        assert all("this turn fails" not in m.content for m in me.recall.list())
        assert agent.step("again").text == "Second answer."
    with Memory(tmp_path / "m.db", embedder=None) as memory:  # and after a restart
        contents = [m.content for m in memory.scope("acme", "priya").recall.in_context()]
        assert contents == ["hello", "First answer.", "again", "Second answer."]


def test_the_agent_counts_its_tools_in_the_window(tmp_path: Path) -> None:
    with Memory(tmp_path / "m.db", embedder=None) as memory:
        agent = Agent(memory.scope("acme", "priya"), ScriptedLLM(["ok"]), max_tokens=4000)
        assert agent.context.usage().tools > 500
        with pytest.raises(Exception, match="tool definitions"):
            Agent(memory.scope("acme", "sam"), ScriptedLLM(["ok"]), max_tokens=300)
