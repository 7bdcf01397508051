"""Language model clients: one small protocol, OpenAI-compatible, Anthropic, and scripted.

`LLM.complete(request, tools)` takes a request in the client's own format (what
`Context.compile(client.provider)` produces) and the tools on offer, and returns
a `Completion`: text, tool calls, and token usage. Every client is also a
`pagemem.models.Chat` (messages in, reply text out) for the judge, the extractor
and the summarizer.

- `OpenAIChat`: any OpenAI-compatible chat completions endpoint (OpenAI, vLLM,
  llama.cpp server, Ollama) through the official `openai` SDK.
- `AnthropicChat`: Anthropic's Messages API through the official `anthropic` SDK.
- `ScriptedLLM`: replies written in advance, for tests and demos.

Nothing here is used unless you configure it: pagemem makes no network call by
default. Configuration comes from arguments or the environment:
`PAGEMEM_LLM_BASE_URL`, `PAGEMEM_LLM_MODEL`, and the SDKs' usual `OPENAI_API_KEY`
and `ANTHROPIC_API_KEY`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import anthropic
import openai

from pagemem.errors import InvalidInputError, LLMError
from pagemem.models import ToolCall
from pagemem.tools import Tool, anthropic_tools, openai_tools

__all__ = [
    "LLM",
    "AnthropicChat",
    "Completion",
    "OpenAIChat",
    "ScriptedLLM",
    "TokenUsage",
    "ToolCall",
]

Provider = Literal["openai", "anthropic"]


@dataclass(frozen=True, slots=True)
class TokenUsage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    usage: TokenUsage = field(default_factory=TokenUsage)


class LLM(Protocol):
    provider: Provider

    def complete(self, request: Any, tools: Sequence[Tool] = ()) -> Completion: ...

    def __call__(self, messages: list[dict[str, str]]) -> str: ...


def _setting(value: str | None, variable: str) -> str | None:
    return value or os.environ.get(variable) or None


class OpenAIChat:
    """Chat completions from an OpenAI-compatible endpoint; `json=True` asks for a JSON
    object when no tools are offered (the callers still validate what comes back)."""

    provider: Provider = "openai"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        json: bool = False,
        temperature: float = 0.0,
        timeout: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        self.model = _setting(model, "PAGEMEM_LLM_MODEL") or ""
        if not self.model:
            raise InvalidInputError(
                "no model: give one (--model on the command line, model= in Python) or set "
                "PAGEMEM_LLM_MODEL"
            )
        base_url = _setting(base_url, "PAGEMEM_LLM_BASE_URL")
        # Local servers take any key; the SDK insists on one.
        key = _setting(api_key, "OPENAI_API_KEY") or ("unused" if base_url else None)
        if key is None:
            raise InvalidInputError(
                "no API key: set OPENAI_API_KEY (api_key= in Python), or point --base-url "
                "(base_url= in Python) at a local server"
            )
        self.json = json
        self.temperature = temperature
        self._client = openai.OpenAI(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def complete(self, request: Any, tools: Sequence[Tool] = ()) -> Completion:
        extra: dict[str, Any] = {}
        if tools:
            extra["tools"] = openai_tools(tools)
        elif self.json:
            extra["response_format"] = {"type": "json_object"}
        try:
            response = self._client.chat.completions.create(
                model=self.model, messages=request, temperature=self.temperature, **extra
            )
        except openai.OpenAIError as exc:
            raise LLMError(f"{self.model}: {type(exc).__name__}: {exc}") from exc
        if not response.choices:
            raise LLMError(f"{self.model} answered with no choices")
        message = response.choices[0].message
        calls = tuple(
            ToolCall(call.id, call.function.name, call.function.arguments or "{}")
            for call in message.tool_calls or ()
            if call.type == "function"
        )
        usage = response.usage
        return Completion(
            message.content or "",
            calls,
            TokenUsage(usage.prompt_tokens, usage.completion_tokens) if usage else TokenUsage(),
        )

    def __call__(self, messages: list[dict[str, str]]) -> str:
        text = self.complete(messages).text
        if not text:
            raise LLMError(f"{self.model} answered with no text")
        return text


class AnthropicChat:
    """Anthropic's Messages API; the request is `Context.compile("anthropic")`:
    `{"system": ..., "messages": [...]}`."""

    provider: Provider = "anthropic"

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        max_tokens: int = 1024,
        timeout: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        self.model = _setting(model, "PAGEMEM_LLM_MODEL") or ""
        if not self.model:
            raise InvalidInputError(
                "no model: give one (--model on the command line, model= in Python) or set "
                "PAGEMEM_LLM_MODEL"
            )
        base_url = _setting(base_url, "PAGEMEM_LLM_BASE_URL")
        key = _setting(api_key, "ANTHROPIC_API_KEY") or ("unused" if base_url else None)
        if key is None:
            raise InvalidInputError(
                "no API key: set ANTHROPIC_API_KEY (api_key= in Python), or point --base-url "
                "(base_url= in Python) at a local server"
            )
        self.max_tokens = max_tokens
        self._client = anthropic.Anthropic(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def complete(self, request: Any, tools: Sequence[Tool] = ()) -> Completion:
        extra: dict[str, Any] = {"tools": anthropic_tools(tools)} if tools else {}
        if request.get("system"):
            extra["system"] = request["system"]
        try:
            response = self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                messages=request["messages"],
                **extra,
            )
        except anthropic.AnthropicError as exc:
            raise LLMError(f"{self.model}: {type(exc).__name__}: {exc}") from exc
        text = "".join(block.text for block in response.content if block.type == "text")
        calls = tuple(
            ToolCall(block.id, block.name, json.dumps(block.input))
            for block in response.content
            if block.type == "tool_use"
        )
        usage = response.usage
        return Completion(text, calls, TokenUsage(usage.input_tokens, usage.output_tokens))

    def __call__(self, messages: list[dict[str, str]]) -> str:
        system = "\n".join(m["content"] for m in messages if m["role"] == "system")
        rest = [m for m in messages if m["role"] != "system"]
        text = self.complete({"system": system, "messages": rest}).text
        if not text:
            raise LLMError(f"{self.model} answered with no text")
        return text


Script = Completion | str | Callable[[Any, Sequence[Tool]], Completion]


class ScriptedLLM:
    """Replies given in advance, in order: a `Completion`, a text, or a function of the
    request and tools. Every request is kept in `requests`."""

    def __init__(self, replies: Iterable[Script], *, provider: Provider = "openai") -> None:
        self.provider = provider
        self._replies = list(replies)
        self.requests: list[Any] = []

    def complete(self, request: Any, tools: Sequence[Tool] = ()) -> Completion:
        self.requests.append(request)
        if not self._replies:
            raise LLMError("the script has no more replies")
        reply = self._replies.pop(0)
        if isinstance(reply, Completion):
            return reply
        if isinstance(reply, str):
            return Completion(reply)
        return reply(request, tools)

    def __call__(self, messages: list[dict[str, str]]) -> str:
        return self.complete(messages).text
