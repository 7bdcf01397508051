"""The web inspector: server-rendered pages over one `Memory`, for people to see it.

Two ways in. `pagemem ui` serves it alone and prints a link with a one-off token; the
token opens a session over every tenant of the database. Under `pagemem serve` it is
mounted at `/ui`, where a REST API key opens a session over that key's tenant only.

Stored text is untrusted, so every page escapes what it prints (Jinja2's autoescape; no
template marks stored text safe), and the Content-Security-Policy allows no script at
all: a note that holds `<script>` shows as text, and would not run if it slipped
through. Every change goes through the same `Memory` calls as the API, by POST forms
that carry the session's CSRF token, on a SameSite=Strict, HttpOnly cookie.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Annotated, Any, cast

from fastapi import APIRouter, Depends, FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint

from pagemem.errors import InvalidInputError, NotFoundError, PagememError
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import RetentionRule
from pagemem.ui import views

__all__ = ["create_ui"]

COOKIE = "pagemem_ui"
POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'none'"
)


@dataclass(frozen=True, slots=True)
class _Session:
    tenant: str | None  # None: every tenant (the local operator of the database)
    csrf: str


@dataclass(frozen=True, slots=True)
class _At:
    """A page's session and scope."""

    session: _Session
    me: ScopedMemory
    here: dict[str, Any]


class _RefusedError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Headers(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response


class _Inspector:
    """One inspector's memory, sessions and templates (kept on `app.state`)."""

    def __init__(self, memory: Memory, token: str | None) -> None:
        self.memory = memory
        self.token = token
        self.sessions: dict[str, _Session] = {}
        self.lock = threading.Lock()
        folder = resources.files("pagemem.ui") / "templates"
        # autoescape everywhere: every value a page prints is escaped, stored text above all
        env = Environment(loader=FileSystemLoader(str(folder)), autoescape=True)
        self.templates = Jinja2Templates(env=env)

    def render(self, request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        response = self.templates.TemplateResponse(
            request, name, {"local": self.token is not None, **values}, status_code=status
        )
        return cast(HTMLResponse, response)

    def session(self, request: Request) -> _Session:
        found = self.sessions.get(request.cookies.get(COOKIE, ""))
        if found is None:
            how = "open the link `pagemem ui` printed" if self.token else "sign in with an API key"
            raise _RefusedError(401, f"not signed in: {how}")
        return found

    def open(self, request: Request, tenant: str | None) -> RedirectResponse:
        key = secrets.token_urlsafe(32)
        with self.lock:
            self.sessions[key] = _Session(tenant, secrets.token_urlsafe(32))
        response = RedirectResponse(str(request.url_for("scopes")), status_code=303)
        path = request.scope.get("root_path") or "/"
        response.set_cookie(COOKIE, key, httponly=True, samesite="strict", path=path)
        return response

    def at(self, found: _Session, tenant: str, user: str, agent: str | None) -> _At:
        if found.tenant is not None and tenant != found.tenant:
            raise _RefusedError(403, "this key opens another tenant")
        me = self.memory.scope(tenant, user, agent or None)
        return _At(found, me, {"tenant": tenant, "user": user, "agent": agent or ""})


def _inspector(request: Request) -> _Inspector:
    return cast(_Inspector, request.app.state.inspector)


def _viewed(request: Request, tenant: str, user: str, agent: str | None = None) -> _At:
    """The scope a page's query names, for a signed-in session."""
    inspector = _inspector(request)
    return inspector.at(inspector.session(request), tenant, user, agent)


def _posted(
    request: Request,
    tenant: Annotated[str, Form()],
    user: Annotated[str, Form()],
    csrf: Annotated[str, Form()] = "",
    agent: Annotated[str, Form()] = "",
) -> _At:
    """The scope a form names, once its CSRF token is the session's."""
    inspector = _inspector(request)
    found = inspector.session(request)
    if not secrets.compare_digest(csrf.encode(), found.csrf.encode()):
        raise _RefusedError(403, "this form is stale or was not sent by the inspector; reload it")
    return inspector.at(found, tenant, user, agent)


Viewed = Annotated[_At, Depends(_viewed)]
Posted = Annotated[_At, Depends(_posted)]
Ui = Annotated[_Inspector, Depends(_inspector)]
pages = APIRouter(default_response_class=HTMLResponse)


def create_ui(memory: Memory, *, token: str | None = None) -> FastAPI:
    """The inspector over `memory`. With `token`, visiting `/?token=<token>` opens a
    session over every tenant; without, `/login` takes a REST API key."""
    app = FastAPI(title="pagemem inspector", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.inspector = inspector = _Inspector(memory, token)
    app.add_middleware(_Headers)
    static = resources.files("pagemem.ui") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.include_router(pages)

    @app.exception_handler(_RefusedError)
    async def refused(request: Request, exc: _RefusedError) -> HTMLResponse:
        return inspector.render(request, "error.html", exc.status, message=str(exc))

    @app.exception_handler(NotFoundError)
    async def missing(request: Request, exc: NotFoundError) -> HTMLResponse:
        return inspector.render(request, "error.html", 404, message=str(exc))

    @app.exception_handler(PagememError)
    async def invalid(request: Request, exc: PagememError) -> HTMLResponse:
        return inspector.render(request, "error.html", 400, message=str(exc))

    return app


@pages.get("/", name="scopes")
def scopes(
    request: Request, ui: Ui, token: Annotated[str | None, Query(alias="token")] = None
) -> Response:
    if ui.token is not None and token is not None:
        if not secrets.compare_digest(token.encode(), ui.token.encode()):
            raise _RefusedError(401, "that link's token is not this server's")
        return ui.open(request, None)
    if ui.token is None and request.cookies.get(COOKIE, "") not in ui.sessions:
        return RedirectResponse(str(request.url_for("login")), status_code=303)
    found = ui.session(request)
    listed = [me.scope for me in ui.memory.scopes(tenant=found.tenant)]
    return ui.render(request, "scopes.html", scopes=listed, session=found)


@pages.get("/login", name="login")
def login_form(request: Request, ui: Ui) -> Response:
    if ui.token is not None:
        raise _RefusedError(404, "this inspector opens with the link `pagemem ui` printed")
    return ui.render(request, "login.html")


@pages.post("/login")
def login(request: Request, ui: Ui, api_key: Annotated[str, Form()] = "") -> Response:
    key = api_key.strip()
    tenant = ui.memory.tenant_for_api_key(key) if key else None
    if ui.token is not None or tenant is None:
        return ui.render(request, "login.html", 401, failed=True)
    return ui.open(request, tenant)


@pages.get("/context", name="context")
def context_page(
    request: Request,
    ui: Ui,
    at: Viewed,
    max_tokens: Annotated[int, Query(ge=64, le=2_000_000)] = 8000,
    summary_tokens: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    window_tokens: Annotated[int, Query(ge=64, le=2_000_000)] = 8192,
    output: Annotated[int, Query(ge=0, le=1_000_000)] = 1024,
    tools: Annotated[int, Query(ge=0, le=1)] = 1,
) -> Response:
    shown = views.window(at.me, max_tokens, summary_tokens, tools=bool(tools))
    try:
        curve = views.budget_curve(
            at.me,
            window_tokens=window_tokens,
            output=output,
            reserve=shown.summary_tokens,
            tools=bool(tools),
        )
    except InvalidInputError as exc:
        curve, problem = None, str(exc)
    else:
        problem = ""
    settings = {
        "max_tokens": max_tokens,
        "summary_tokens": summary_tokens,
        "window_tokens": window_tokens,
        "output": output,
        "tools": tools,
    }
    return ui.render(
        request,
        "context.html",
        page="context",
        here=at.here,
        window=shown,
        curve=curve,
        problem=problem,
        settings=settings,
    )


@pages.get("/memory", name="memory")
def memory_page(
    request: Request,
    ui: Ui,
    at: Viewed,
    q: str = "",
    kind: str = "",
    origin: str = "",
    tag: str = "",
    start: str = "",
    end: str = "",
    page: Annotated[int, Query(ge=1, le=50)] = 1,
) -> Response:
    found, more = views.browse(
        at.me,
        query=q,
        kind=kind,
        origin=origin,
        tag=tag,
        start=_day(start, "start"),
        end=_day(end, "end"),
        page=page,
    )
    filters = {"q": q, "kind": kind, "origin": origin, "tag": tag, "start": start, "end": end}
    return ui.render(
        request,
        "memory.html",
        page="memory",
        here=at.here,
        found=found,
        more=more,
        number=page,
        filters=filters,
        base={**at.here, **filters},
        kinds=views.KINDS,
        origins=views.ORIGINS,
    )


@pages.get("/facts", name="facts")
def facts_page(request: Request, ui: Ui, at: Viewed, id: str = "", as_of: str = "") -> Response:
    when = _moment(as_of)
    steps = views.timeline(at.me, id, when) if id else []
    held = views.facts_as_of(at.me, when or datetime.now(UTC)) if not id else []
    return ui.render(
        request,
        "facts.html",
        page="facts",
        here=at.here,
        record_id=id,
        as_of=as_of,
        steps=steps,
        held=held,
    )


@pages.get("/review", name="review")
def review_page(request: Request, ui: Ui, at: Viewed) -> Response:
    return _review(request, ui, at)


def _review(request: Request, ui: Ui, at: _At, **extra: Any) -> HTMLResponse:
    me = at.me
    return ui.render(
        request,
        "review.html",
        page="review",
        here=at.here,
        held=[(r, views.segments(r)) for r in me.archive.quarantined(limit=200)],
        rules=me.retention.rules(),
        jobs=[j for j in ui.memory.jobs() if j.scope == me.scope and j.status != "done"],
        approvals=me.approvals(limit=100),
        csrf=at.session.csrf,
        **extra,
    )


@pages.post("/review/release", name="release")
def release(request: Request, ui: Ui, at: Posted, record_id: Annotated[str, Form()]) -> Response:
    at.me.archive.release(record_id, actor="inspector")
    return _review(request, ui, at, done=f"released {record_id}")


@pages.post("/review/hold", name="hold")
def hold(request: Request, ui: Ui, at: Posted, record_id: Annotated[str, Form()]) -> Response:
    at.me.archive.hold(record_id, actor="inspector")
    return _review(request, ui, at, done=f"held {record_id}")


@pages.post("/review/forget", name="forget")
def forget(
    request: Request,
    ui: Ui,
    at: Posted,
    phrase: Annotated[str, Form()],
    confirm: Annotated[str, Form()] = "",
) -> Response:
    plan = at.me.forget(phrase, confirm=confirm == "yes", actor="inspector")
    return _review(request, ui, at, forgetting=plan)


@pages.post("/review/retention", name="retention")
def retention(
    request: Request,
    ui: Ui,
    at: Posted,
    what: Annotated[str, Form()],
    max_age_days: Annotated[str, Form()],
    origins: Annotated[str, Form()] = "",
    remove: Annotated[str, Form()] = "",
) -> Response:
    try:
        days = float(max_age_days)
    except ValueError:
        raise InvalidInputError(f"max age must be a number of days, not {max_age_days!r}") from None
    picked = tuple(o.strip() for o in origins.split(",") if o.strip())
    rule = RetentionRule(what, days, picked)  # type: ignore[arg-type]
    kept = [r for r in at.me.retention.rules() if r != rule]
    at.me.retention.set(kept if remove == "yes" else [*kept, rule])
    return _review(request, ui, at, done="retention rules saved")


def _day(text: str, what: str) -> datetime | None:
    """A date from a form's date field (UTC midnight), or None when empty."""
    if not text.strip():
        return None
    try:
        return datetime.fromisoformat(text.strip()).replace(tzinfo=UTC)
    except ValueError:
        raise InvalidInputError(f"{what} must be a date like 2026-05-01, not {text!r}") from None


def _moment(text: str) -> datetime | None:
    """A time from a datetime-local field (read as UTC), or None when empty."""
    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInputError(
            f"as of must be a time like 2026-05-01T12:00, not {text!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
