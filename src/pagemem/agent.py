"""The tool loop: one user turn in, the model's answer out, memory tools run in between.

`Agent.step(text)` appends the user's message to the paged window (evicting the
oldest turns to recall as needed), compiles the window for the model's API, and
calls the model. Tool calls are run with `dispatch` (memory tools, and the
user's own tools made with `tool(...)`) and their results spliced back in after
each call; the loop ends when the model answers without calling a tool, or with
`AgentError` after `max_steps` model calls. A turn that fails (the model's error,
or the step limit) is taken back: its messages leave the window and the store, so
the next turn starts where the last good one ended (what its tools wrote to memory
stays).

Each turn keeps a `Ledger` of what the model has read, labelled by where it came
from: the application's system prompt, the user's messages and core memory
(trusted), tool output and the notes and messages memory tools showed (trusted or
not by origin). A side-effecting call (or a write to core memory) whose argument
values appear only in untrusted text, or that names a destination nothing read holds
once untrusted text was read, is held until the `approve` callback agrees, and the
request names the text each value came from; calls on the user's own values run at
once. Token usage of every call is recorded in `calls`, so the plateau of a paged
prompt is visible.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

from pagemem.budget import Budget
from pagemem.context import DEFAULT_SYSTEM, Context
from pagemem.errors import PagememError
from pagemem.guard.provenance import Ledger, Source
from pagemem.llm import LLM, TokenUsage
from pagemem.memory import ScopedMemory
from pagemem.models import Role
from pagemem.tools import MEMORY_TOOLS, Approver, CallContext, Param, Tool, ToolResult, dispatch

__all__ = ["Agent", "AgentError", "Step", "tool"]


class AgentError(PagememError):
    """The loop could not finish a turn (the model kept calling tools)."""


@dataclass(slots=True)
class Step:
    """One user turn: the answer, every tool call with its result, and token usage."""

    text: str
    tool_results: list[tuple[str, ToolResult]] = field(default_factory=list)
    usage: list[TokenUsage] = field(default_factory=list)


_TYPES: dict[Any, str] = {str: "string", int: "integer"}


def tool(
    function: Callable[..., Any],
    *,
    side_effecting: bool = False,
    always_ask: bool = False,
    name: str | None = None,
    description: str | None = None,
) -> Tool:
    """A plain typed Python function as a tool: parameters from its signature (`str`,
    `int` and `list[str]`; a default makes one optional), description from its
    docstring. Its return value is shown to the model as text (and is untrusted
    input to later calls). `side_effecting`: held for approval when an argument value
    came only from untrusted text; `always_ask`: every call held."""
    hints = typing.get_type_hints(function)
    params = []
    for parameter in inspect.signature(function).parameters.values():
        hint = hints.get(parameter.name, str)
        optional = parameter.default is not inspect.Parameter.empty
        if get_origin(hint) in (types.UnionType, typing.Union):
            hint = next(a for a in get_args(hint) if a is not type(None))
        if get_origin(hint) is list and get_args(hint) == (str,):
            kind = "array"
        elif hint in _TYPES:
            kind = _TYPES[hint]
        else:
            raise PagememError(
                f"tool {function.__name__}: parameter {parameter.name!r} must be str, int or "
                f"list[str], not {hint!r}"
            )
        params.append(Param(parameter.name, kind, parameter.name, required=not optional))  # type: ignore[arg-type]

    def run(me: ScopedMemory, args: dict[str, Any], ctx: CallContext) -> str:
        return str(function(**args))

    doc = inspect.getdoc(function) or function.__name__
    return Tool(
        name or function.__name__,
        description or doc.split("\n\n")[0],
        tuple(params),
        run,
        side_effecting=side_effecting,
        always_ask=always_ask,
    )


class Agent:
    """A memory-backed agent over any `LLM` client."""

    def __init__(
        self,
        memory: ScopedMemory,
        llm: LLM,
        *,
        system: str = DEFAULT_SYSTEM,
        max_tokens: int = 8000,
        budget: Budget | None = None,
        tools: Sequence[Tool] = (),
        approve: Approver | None = None,
        max_steps: int = 8,
    ) -> None:
        if max_steps < 1:
            raise PagememError("max_steps must be at least 1")
        self.memory = memory
        self.llm = llm
        self.tools: tuple[Tool, ...] = (*MEMORY_TOOLS, *tools)
        self.context = (
            Context.from_budget(memory, budget, system=system, tools=self.tools)
            if budget is not None
            else Context(memory, max_tokens=max_tokens, system=system, tools=self.tools)
        )
        self.approve = approve
        self.max_steps = max_steps
        self.calls: list[TokenUsage] = []  # every model call of this agent, in order

    def step(self, text: str) -> Step:
        """Run one user turn to the model's answer; on failure the turn is taken back
        and the error raised."""
        written: list[str] = []
        try:
            return self._turn(text, written)
        except Exception:
            self.context.retract(written)
            raise

    def _append(self, written: list[str], role: Role, content: str, **kwargs: Any) -> None:
        self.context.append(role, content, **kwargs)
        written.append(self.context.messages[-1].id)  # the newest is never evicted

    def _ledger(self) -> Ledger:
        """What the model sees before any tool runs: the application's system prompt, the
        window's user messages and core memory (trusted) and the tool output still in the
        window (not)."""
        ledger = Ledger([Source(self.context.system, "system prompt", trusted=True)])
        ledger.extend(
            Source(block.value, f"core memory {block.label}", trusted=True)
            for block in self.memory.blocks.list()
        )
        for message in self.context.messages:
            if message.role in ("user", "tool"):
                label = f"{message.role} message {message.id}"
                ledger.add(message.content, label, trusted=message.role == "user")
        return ledger

    def _turn(self, text: str, written: list[str]) -> Step:
        self._append(written, "user", text)
        result = Step("")
        untrusted: list[str] = []
        ledger = self._ledger()
        ledger.add(text, "this user message", trusted=True)  # as typed, before redaction
        memory_tools = {t.name for t in MEMORY_TOOLS}
        for number in range(1, self.max_steps + 1):
            request = self.context.compile(self.llm.provider)
            completion = self.llm.complete(request, self.tools)
            self.calls.append(completion.usage)
            result.usage.append(completion.usage)
            if not completion.tool_calls:
                self._append(written, "assistant", completion.text)
                result.text = completion.text
                return result
            self._append(written, "assistant", completion.text, tool_calls=completion.tool_calls)
            for call in completion.tool_calls:
                outcome = dispatch(
                    self.memory,
                    call.name,
                    call.arguments,
                    tools=self.tools,
                    approve=self.approve,
                    context=CallContext(
                        source=f"agent turn, call {number}",
                        untrusted=tuple(untrusted),
                        ledger=ledger,
                    ),
                )
                untrusted += outcome.untrusted
                ledger.extend(outcome.read)
                if call.name not in memory_tools and outcome.ok:  # output of the world
                    ledger.add(outcome.text, f"output of {call.name}", trusted=False)
                result.tool_results.append((call.name, outcome))
                self._append(written, "tool", outcome.text, tool_call_id=call.id, name=call.name)
        raise AgentError(
            f"no answer after {self.max_steps} model calls; the model kept calling tools"
        )
