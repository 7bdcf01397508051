"""The model options `pagemem chat` and `pagemem serve` share, and the client they make."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from pagemem.llm import LLM

__all__ = ["make_llm", "model_configured", "model_options"]

F = TypeVar("F", bound=Callable[..., Any])


def model_options(*, what: str) -> Callable[[F], F]:
    """--provider, --model, --base-url; `what` says what the model is for."""

    def decorate(command: F) -> F:
        command = click.option(
            "--base-url", default=None, help="The endpoint (default: $PAGEMEM_LLM_BASE_URL)."
        )(command)
        command = click.option(
            "--model", default=None, help=f"The model {what} (default: $PAGEMEM_LLM_MODEL)."
        )(command)
        return click.option(
            "--provider",
            type=click.Choice(["openai", "anthropic"]),
            default="openai",
            show_default=True,
            help="openai: any OpenAI-compatible endpoint; anthropic: the Messages API.",
        )(command)

    return decorate


def make_llm(provider: str, model: str | None, base_url: str | None) -> LLM:
    """The client for these options (raises InvalidInputError naming what is missing)."""
    from pagemem.llm import AnthropicChat, OpenAIChat

    if provider == "openai":
        return OpenAIChat(model, base_url=base_url)
    return AnthropicChat(model, base_url=base_url)


def model_configured(model: str | None) -> bool:
    return bool(model or os.environ.get("PAGEMEM_LLM_MODEL"))
