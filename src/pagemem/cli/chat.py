"""`pagemem chat`: a terminal chat with memory, against any configured model endpoint."""

from __future__ import annotations

from pathlib import Path

import click

from pagemem.cli.model import make_llm, model_options
from pagemem.cli.target import db_option
from pagemem.errors import PagememError

__all__ = ["chat"]


@click.command()
@db_option(default=Path("memory.db"))
@click.option("--tenant", default="local", show_default=True, help="The scope's tenant.")
@click.option("--user", default="me", show_default=True, help="The scope's user.")
@model_options(what="to chat with")
@click.option(
    "--max-tokens", default=8000, show_default=True, help="The paged window's token budget."
)
@click.option("--system", default=None, help="The system prompt (default: pagemem's).")
def chat(
    db: Path | str,
    tenant: str,
    user: str,
    provider: str,
    model: str | None,
    base_url: str | None,
    max_tokens: int,
    system: str | None,
) -> None:
    """Chat with memory in the terminal; the context usage bar follows every answer.

    Type a message and press enter; an empty line or end of input ends the chat. The
    bar shows the window in prompt order: S system prompt, T tool definitions, K core
    memory, U summary, M messages, . free. A turn the model fails is not kept.
    """
    from pagemem.agent import Agent
    from pagemem.context import DEFAULT_SYSTEM
    from pagemem.memory import Memory

    try:
        client = make_llm(provider, model, base_url)
        with Memory(db) as memory:
            agent = Agent(
                memory.scope(tenant, user),
                client,
                system=system or DEFAULT_SYSTEM,
                max_tokens=max_tokens,
            )
            while True:
                text = click.prompt("you", default="", show_default=False, prompt_suffix="> ")
                if not text.strip():
                    break
                try:
                    step = agent.step(text)
                except PagememError as exc:  # the model failed or kept calling tools
                    click.echo(f"  error: {exc}", err=True)
                    click.echo("  (that turn was not kept; try again)", err=True)
                    continue
                for name, result in step.tool_results:
                    click.echo(f"  [{name}] {result.text.splitlines()[0] if result.text else ''}")
                click.echo(f"assistant> {step.text}")
                usage = agent.context.usage()
                tokens = sum(u.input_tokens for u in step.usage)
                click.echo(f"  {usage.bar()}  {usage.line()}; {tokens} input tokens this turn")
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None
    except click.Abort:
        pass
