"""`pagemem serve` and `pagemem key`: the REST server and the keys that open it."""

from __future__ import annotations

from pathlib import Path

import click

from pagemem.cli.model import make_llm, model_configured, model_options
from pagemem.cli.target import db_option
from pagemem.errors import PagememError

__all__ = ["key", "mcp", "serve", "ui"]

_DB = db_option(default=Path("memory.db"))


@click.command()
@_DB
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, help="Port to listen on.")
@model_options(what="for the agent endpoints; without one they answer 501")
def serve(
    db: Path | str, host: str, port: int, provider: str, model: str | None, base_url: str | None
) -> None:
    """Serve the REST API (OpenAPI document at /openapi.json, docs at /docs)."""
    import uvicorn

    from pagemem.memory import Memory
    from pagemem.server.rest import create_app
    from pagemem.ui import create_ui

    try:
        llm = make_llm(provider, model, base_url) if model_configured(model) else None
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None
    with Memory(db) as memory:
        app = create_app(memory, llm=llm)
        app.mount("/ui", create_ui(memory))
        uvicorn.run(app, host=host, port=port, log_level="info")


@click.command()
@_DB
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8081, show_default=True, help="Port to listen on.")
def ui(db: Path | str, host: str, port: int) -> None:
    """Serve the web inspector for a database: context window, memory browser, facts
    timeline and review queue. Opens with the link it prints (a one-off token)."""
    import secrets

    import uvicorn

    from pagemem.memory import Memory
    from pagemem.ui import create_ui

    token = secrets.token_urlsafe(24)
    with Memory(db) as memory:
        click.echo(f"pagemem inspector: http://{host}:{port}/?token={token}")
        uvicorn.run(create_ui(memory, token=token), host=host, port=port, log_level="warning")


@click.command()
@_DB
@click.option("--tenant", default=None, help="The tenant the key opens (to issue; filters --list).")
@click.option("--label", default="", help="A note to remember the key by.")
@click.option("--list", "listing", is_flag=True, help="List the keys by id (never the keys).")
@click.option(
    "--revoke", "revoke_key", default=None, help="Revoke this key, given in full or by its id."
)
def key(
    db: Path | str, tenant: str | None, label: str, listing: bool, revoke_key: str | None
) -> None:
    """Issue an API key for a tenant (shown once; only its hash is stored), list the keys
    by their short ids, or revoke one."""
    from pagemem.memory import Memory

    try:
        with Memory(db, embedder=None) as memory:
            if listing:
                for k in memory.api_keys(tenant=tenant):
                    state = f"revoked {k.revoked_at:%Y-%m-%d}" if k.revoked_at else "live"
                    created = f"{k.created_at:%Y-%m-%d}"
                    click.echo(f"{k.id}  {k.tenant}  {created}  {state}  {k.label}")
                return
            if revoke_key is not None:
                if (
                    tenant is not None
                    and revoke_key.startswith("pm_")
                    and memory.tenant_for_api_key(revoke_key) != tenant
                ):
                    raise click.ClickException(f"no live key of tenant {tenant!r} matches")
                memory.revoke_api_key(revoke_key)
                click.echo("revoked")
                return
            if tenant is None:
                raise click.UsageError("give --tenant to issue a key (or --list, --revoke)")
            click.echo(memory.issue_api_key(tenant, label=label))
    except PagememError as exc:
        raise click.ClickException(str(exc)) from None


@click.command(name="mcp")
@_DB
@click.option("--tenant", required=True, help="The scope's tenant.")
@click.option("--user", required=True, help="The scope's user.")
@click.option("--agent", default=None, help="The agent part of the scope, if any.")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "streamable-http"]),
    default="stdio",
    show_default=True,
    help="stdio for a local client; streamable-http to serve over HTTP.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP address.")
@click.option("--port", default=8765, show_default=True, help="HTTP port.")
def mcp(
    db: Path | str, tenant: str, user: str, agent: str | None, transport: str, host: str, port: int
) -> None:
    """Serve the memory tools of one scope to MCP clients."""
    from pagemem.memory import Memory
    from pagemem.server.mcp import create_server

    with Memory(db) as memory:
        server = create_server(memory, tenant, user, agent)
        if transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
