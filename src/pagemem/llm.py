"""Language model clients: a chat function for the parts of pagemem that can use a model.

`OpenAIChat` talks to any OpenAI-compatible chat completions endpoint (OpenAI, vLLM,
llama.cpp server, Ollama, ...) through the official `openai` SDK. An instance is a
`pagemem.models.Chat`: messages in, reply text out, so it plugs into
`LLMJudge`, `LLMExtractor` and `LLMSummarizer`. Nothing here is used unless you
configure it: pagemem makes no network call by default.

Configuration comes from the arguments or the environment: `PAGEMEM_LLM_BASE_URL`,
`PAGEMEM_LLM_MODEL` and the SDK's usual `OPENAI_API_KEY`.
"""

from __future__ import annotations

import os
from typing import Any

import openai

from pagemem.errors import InvalidInputError, LLMError

__all__ = ["OpenAIChat"]


class OpenAIChat:
    """Chat completions from an OpenAI-compatible endpoint; `json=True` asks for a JSON
    object (the callers still validate what comes back)."""

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
        self.model = model or os.environ.get("PAGEMEM_LLM_MODEL") or ""
        if not self.model:
            raise InvalidInputError("no model: pass model= or set PAGEMEM_LLM_MODEL")
        base_url = base_url or os.environ.get("PAGEMEM_LLM_BASE_URL") or None
        # Local servers take any key; the SDK insists on one.
        key = api_key or os.environ.get("OPENAI_API_KEY") or ("unused" if base_url else None)
        if key is None:
            raise InvalidInputError(
                "no API key: pass api_key=, set OPENAI_API_KEY, or point base_url at a local server"
            )
        self.json = json
        self.temperature = temperature
        self._client = openai.OpenAI(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )

    def __call__(self, messages: list[dict[str, str]]) -> str:
        extra: dict[str, Any] = {"response_format": {"type": "json_object"}} if self.json else {}
        try:
            response = self._client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                **extra,
            )
        except openai.OpenAIError as exc:
            raise LLMError(f"{self.model}: {type(exc).__name__}: {exc}") from exc
        if not response.choices or not response.choices[0].message.content:
            raise LLMError(f"{self.model} answered with no text")
        return response.choices[0].message.content
