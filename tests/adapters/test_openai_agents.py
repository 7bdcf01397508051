"""The Agents SDK session over a paged pagemem context: a scripted agent runs 200 turns
through the real `Runner` under a small budget, and nothing it said is lost."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import Agent, Model, ModelResponse, RunConfig, Runner, function_tool
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from pagemem import InvalidInputError, Memory
from pagemem.adapters.openai_agents import PagememSession

BUDGET = 700
OFFLINE = RunConfig(tracing_disabled=True)


class Scripted(Model):
    """A model that looks an order up when asked to, and otherwise says it noted the
    message; it keeps every input it was given."""

    def __init__(self) -> None:
        self.inputs: list[list[dict[str, Any]]] = []
        self.calls = 0

    async def get_response(
        self, system_instructions: str | None, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        items = [{"role": "user", "content": input}] if isinstance(input, str) else input
        self.inputs.append(copy.deepcopy(items))
        last = items[-1]
        self.calls += 1
        if last.get("type") == "function_call_output":
            return _reply(f"the order says: {last['output']}", self.calls)
        text = str(last.get("content", ""))
        if "look up order" in text:
            number = int(text.rsplit(" ", 1)[-1])
            call = ResponseFunctionToolCall(
                type="function_call",
                call_id=f"call_{self.calls}",
                name="lookup",
                arguments=json.dumps({"order": number}),
                id=f"fc_{self.calls}",
                status="completed",
            )
            return ModelResponse(output=[call], usage=Usage(), response_id=None)
        return _reply(f"noted: {text[:60]}", self.calls)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def _reply(text: str, n: int) -> ModelResponse:
    message = ResponseOutputMessage(
        id=f"msg_{n}",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )
    return ModelResponse(output=[message], usage=Usage(), response_id=None)


@function_tool
def lookup(order: int) -> str:
    """Look an order up."""
    return f"order {order} ships from depot {order % 7}"


def _said(turn: int) -> str:
    if turn % 10 == 5:
        return f"please look up order {turn}"
    return (
        f"turn {turn}: remember that locker {turn} holds the {['kite', 'atlas', 'lamp'][turn % 3]}"
    )


def test_two_hundred_turns_stay_in_budget_and_nothing_is_lost(memory: Memory) -> None:
    model = Scripted()
    agent = Agent(name="clerk", instructions="Be brief.", model=model, tools=[lookup])
    session = PagememSession("run-1", memory, max_tokens=BUDGET)
    counter = memory.counter

    used: list[int] = []

    async def run() -> None:
        for turn in range(200):
            await Runner.run(agent, _said(turn), session=session, run_config=OFFLINE)
            used.append(session.context.usage().total)

    asyncio.run(run())
    assert max(used) <= BUDGET  # the window, summary included, after every turn
    # the model never saw more than the window and the turn's new items
    window_tokens = [
        counter.count(json.dumps(items[: len(items) - 3], ensure_ascii=False))
        for items in model.inputs
    ]
    assert max(len(items) for items in model.inputs) < 40
    assert max(window_tokens) <= 3 * BUDGET  # JSON keys cost more than the counted text
    # every item the SDK added is stored, in order: 200 user turns, 20 lookups (call,
    # output, answer), 180 notes
    stored = session.all_items()
    users = [i["content"] for i in stored if i.get("role") == "user"]
    assert users == [_said(turn) for turn in range(200)]
    outputs = [i for i in stored if i.get("type") == "function_call_output"]
    assert [
        json.loads(o["output"]) if o["output"].startswith("{") else o["output"] for o in outputs
    ] == [f"order {t} ships from depot {t % 7}" for t in range(200) if t % 10 == 5]
    assert len(stored) == 200 + 20 * 3 + 180
    # the oldest turns were paged out to recall, found by search, summarised in view
    assert session.scope.recall.count() > 150
    window = asyncio.run(session.get_items())
    assert window[0]["role"] == "system"
    assert "paged out" in str(window[0]["content"])
    assert "locker 2 holds" not in json.dumps(window)
    found = session.scope.recall.search("which locker holds the atlas? locker 4", order="relevance")
    assert any("locker 4 holds the atlas" in m.content for m in found[:5])
    # the newest items, exactly as stored, for the SDK's own checks
    assert asyncio.run(session.get_items(limit=3)) == stored[-3:]
    assert asyncio.run(session.get_items(limit=len(stored) + 5)) == stored


def test_a_window_never_starts_with_an_output_whose_call_left() -> None:
    with Memory(":memory:") as memory:
        session = PagememSession("s", memory, max_tokens=200)
        call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
        output = {
            "type": "function_call_output",
            "call_id": "c1",
            "output": " ".join(f"w{i}" for i in range(300)),
        }
        asyncio.run(session.add_items([call, output]))  # type: ignore[list-item]
        asyncio.run(session.add_items([{"role": "user", "content": "next"}]))
        window = asyncio.run(session.get_items())
        assert all(item.get("type") != "function_call_output" for item in window)
        assert session.all_items()[:2] == [call, output]


def test_pop_and_clear(memory: Memory) -> None:
    session = PagememSession("s", memory, user="priya", max_tokens=400)
    first = {"role": "user", "content": "hello"}
    second = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    }
    asyncio.run(session.add_items([first, second]))  # type: ignore[list-item]
    assert asyncio.run(session.get_items()) == [first, second]
    assert asyncio.run(session.pop_item()) == second
    assert asyncio.run(session.get_items()) == [first]
    other = PagememSession("t", memory, user="priya", max_tokens=400)
    asyncio.run(other.add_items([{"role": "user", "content": "another session"}]))
    asyncio.run(session.clear_session())
    assert asyncio.run(session.get_items()) == []
    assert asyncio.run(session.pop_item()) is None
    assert asyncio.run(other.get_items()) == [{"role": "user", "content": "another session"}]
    # a session reopened later resumes where it stood
    again = PagememSession("t", memory, user="priya", max_tokens=400)
    assert asyncio.run(again.get_items()) == [{"role": "user", "content": "another session"}]


def test_bad_items_are_refused_and_nothing_is_stored(memory: Memory) -> None:
    session = PagememSession("s", memory, max_tokens=400)
    with pytest.raises(InvalidInputError, match="JSON"):
        asyncio.run(session.add_items([{"role": "user", "content": "ok"}, {"x": object()}]))  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match="mapping"):
        asyncio.run(session.add_items(["just a string"]))  # type: ignore[list-item]
    with pytest.raises(InvalidInputError, match="limit"):
        asyncio.run(session.get_items(limit=-1))
    assert session.all_items() == []
