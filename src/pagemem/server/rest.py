"""The REST server: pagemem's Python API over HTTP, for any language.

Every request carries `Authorization: Bearer <key>`; the key maps to one tenant
(keys are stored hashed, see `Memory.issue_api_key`), and users of that tenant
are path parameters. The tenant comes from the key and only from it, so a valid
key of one tenant reaches another tenant's data by no path: the same user id
under another key is another scope, and its records are not found (404).
Every error, whatever produced it (a route, validation, an unknown path, a failure), has
one machine-readable body: `{"error": {"type": ..., "message": ...}}`. Request bodies
are typed strictly: a string is not a number, a number is not a boolean. The OpenAPI
document at `/openapi.json` is the contract.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, BeforeValidator, Field, StrictBool, StrictInt, StrictStr
from starlette.exceptions import HTTPException

from pagemem.agent import Agent, Step
from pagemem.context import DEFAULT_SYSTEM, Context
from pagemem.errors import InvalidInputError, NotFoundError, PagememError
from pagemem.llm import LLM
from pagemem.memory import Memory, ScopedMemory
from pagemem.memory.transfer import jsonl
from pagemem.models import Hit, Record
from pagemem.server.asgi import RequestGuard

__all__ = ["UnauthorizedError", "create_app"]

MAX_BODY = 2 * 1024 * 1024


class ErrorBody(BaseModel):
    type: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody


def _iso_time(value: object) -> object:
    """Times come as ISO 8601 strings (a bare number would be read as Unix seconds)."""
    if not isinstance(value, str | datetime):
        raise ValueError("must be an ISO 8601 time string")
    return value


IsoTime = Annotated[datetime, BeforeValidator(_iso_time)]


class NoteIn(BaseModel):
    text: StrictStr = Field(min_length=1)
    source: StrictStr = ""
    origin: Literal["user", "agent", "tool", "web", "system"] = "agent"
    kind: Literal["semantic", "episodic", "procedural"] = "semantic"
    tags: list[StrictStr] = []
    metadata: dict[str, Any] = {}
    key: StrictStr | None = None
    valid_from: IsoTime | None = None


class NoteOut(BaseModel):
    id: str
    text: str
    kind: str
    origin: str
    source: str
    created_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    expired_at: datetime | None
    superseded_by: str | None
    tags: list[str]
    metadata: dict[str, Any]
    flags: list[str]
    quarantined: bool
    mentions: int
    consolidation: ConsolidationOut | None


class ConsolidationOut(BaseModel):
    """What consolidation did when the note was written."""

    action: str  # added | restated | superseded | kept-both
    other: str | None  # the fact it restated, closed or was kept beside


class Created(BaseModel):
    id: str
    consolidation: ConsolidationOut | None = None


class NoteUpdate(BaseModel):
    text: StrictStr = Field(min_length=1)


class AgentIn(BaseModel):
    name: StrictStr = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    system: StrictStr = DEFAULT_SYSTEM
    max_tokens: StrictInt = Field(8000, ge=256, le=2_000_000)


class AgentOut(BaseModel):
    name: str
    system: str
    max_tokens: int


class TurnIn(BaseModel):
    text: StrictStr = Field(min_length=1)


class StepIn(BaseModel):
    text: StrictStr = Field(min_length=1)
    max_tokens: StrictInt = Field(8000, ge=256, le=2_000_000)


class StepOut(BaseModel):
    text: str
    tools: list[str]
    usage: list[dict[str, int]]


class SearchIn(BaseModel):
    query: StrictStr
    k: StrictInt = Field(5, ge=1, le=100)
    tags: list[StrictStr] | None = None
    origins: list[Literal["user", "agent", "tool", "web", "system"]] | None = None
    as_of: IsoTime | None = None


class HitOut(BaseModel):
    note: NoteOut
    score: float
    flags: list[str]


class BlockIn(BaseModel):
    value: StrictStr
    limit: StrictInt | None = Field(None, ge=1, le=1_000_000)
    description: StrictStr | None = None


class BlockOut(BaseModel):
    label: str
    value: str
    limit: int
    description: str
    updated_at: datetime


class RecallIn(BaseModel):
    query: StrictStr
    limit: StrictInt = Field(10, ge=1, le=100)
    order: Literal["newest", "relevance"] = "newest"


class MessageOut(BaseModel):
    id: str
    role: str
    content: str
    created_at: datetime


class ContextIn(BaseModel):
    max_tokens: StrictInt = Field(ge=64, le=2_000_000)
    format: Literal["openai", "anthropic"] = "openai"
    system: StrictStr = DEFAULT_SYSTEM


class ForgetIn(BaseModel):
    phrase: StrictStr = Field(min_length=1)
    confirm: StrictBool = False


class ForgetOut(BaseModel):
    notes: list[str]
    messages: list[str]
    blocks: list[str]
    done: bool


class VersionOut(BaseModel):
    note: NoteOut
    replaced_by: str | None
    reasons: list[str]


def _note(record: Record) -> NoteOut:
    return NoteOut(
        id=record.id,
        text=record.text,
        kind=record.kind,
        origin=record.origin,
        source=record.source,
        created_at=record.created_at,
        valid_from=record.valid_from,
        valid_to=record.valid_to,
        expired_at=record.expired_at,
        superseded_by=record.superseded_by,
        tags=list(record.tags),
        metadata=record.metadata,
        flags=list(record.flags),
        quarantined=record.quarantined,
        mentions=record.mentions,
        consolidation=_consolidation(record),
    )


def _consolidation(record: Record) -> ConsolidationOut | None:
    if record.consolidation is None:
        return None
    return ConsolidationOut(action=record.consolidation, other=record.consolidated_with)


def _hit(hit: Hit) -> HitOut:
    return HitOut(note=_note(hit.record), score=hit.score, flags=list(hit.flags))


def _error(status: int, kind: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status)


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Invalid input"},
    401: {"model": ErrorResponse, "description": "Missing or unknown API key"},
    404: {"model": ErrorResponse, "description": "Not found in this tenant"},
    413: {"model": ErrorResponse, "description": "Body too large"},
    500: {"model": ErrorResponse, "description": "The server failed on this request"},
}

# what an HTTP error status is called in the error body
_KINDS = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def _tenant(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    """The tenant of the request's API key; the only source of a request's tenant."""
    scheme, _, key = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        raise UnauthorizedError
    key = key.strip()
    memory: Memory = request.app.state.memory
    found = memory.tenant_for_api_key(key) if key else None
    if found is None:
        raise UnauthorizedError
    return found


Tenant = Annotated[str, Depends(_tenant)]


def create_app(memory: Memory, *, max_body: int = MAX_BODY, llm: LLM | None = None) -> FastAPI:
    """The FastAPI application over one Memory; `llm` enables the agent endpoint."""
    app = FastAPI(title="pagemem", version="1", responses=_ERRORS)
    app.state.memory = memory

    app.add_middleware(RequestGuard, max_body=max_body)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        kind = _KINDS.get(exc.status_code, "invalid_request" if exc.status_code == 400 else "http")
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        if detail == "There was an error parsing the body":
            detail = "the body is not a JSON document pagemem can read (UTF-8, nested < 1000)"
        return _error(exc.status_code, kind, detail)

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, exc: NotFoundError) -> JSONResponse:
        return _error(404, "not_found", str(exc.args[0] if exc.args else exc))

    @app.exception_handler(PagememError)
    async def invalid(request: Request, exc: PagememError) -> JSONResponse:
        return _error(400, "invalid_input", str(exc))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()))
        return _error(400, "invalid_request", f"{where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(UnauthorizedError)
    async def unauthorized(request: Request, exc: UnauthorizedError) -> JSONResponse:
        response = _error(401, "unauthorized", "missing, unknown or revoked API key")
        response.headers["WWW-Authenticate"] = "Bearer"
        return response

    def scope(tenant: str, user: str) -> ScopedMemory:
        try:
            return memory.scope(tenant, user)
        except InvalidInputError as exc:
            raise InvalidInputError(f"user: {exc}") from None

    @app.post("/v1/users/{user}/memories", status_code=201, response_model=Created)
    def insert(user: str, note: NoteIn, tenant: Tenant) -> Created:
        me = scope(tenant, user)
        rid = me.archive.insert(
            note.text,
            source=note.source,
            origin=note.origin,
            kind=note.kind,
            tags=note.tags,
            metadata=note.metadata,
            key=note.key,
            valid_from=note.valid_from,
        )
        return Created(id=rid, consolidation=_consolidation(me.archive.get(rid)))

    @app.get("/v1/users/{user}/memories", response_model=list[NoteOut])
    def list_notes(
        user: str,
        tenant: Tenant,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        offset: Annotated[int, Query(ge=0, le=10**12)] = 0,
    ) -> list[NoteOut]:
        return [_note(r) for r in scope(tenant, user).archive.list(limit=limit, offset=offset)]

    @app.get("/v1/users/{user}/memories/{note_id}", response_model=NoteOut)
    def get(user: str, note_id: str, tenant: Tenant) -> NoteOut:
        return _note(scope(tenant, user).archive.get(note_id))

    @app.patch("/v1/users/{user}/memories/{note_id}", response_model=Created)
    def update(user: str, note_id: str, body: NoteUpdate, tenant: Tenant) -> Created:
        """A new version of the note; the old one stays in its history."""
        me = scope(tenant, user)
        rid = me.archive.update(note_id, body.text, actor="api")
        return Created(id=rid, consolidation=_consolidation(me.archive.get(rid)))

    @app.post("/v1/users/{user}/agent/step", response_model=StepOut)
    def step(user: str, body: StepIn, tenant: Tenant) -> Any:
        """One turn of the memory agent (needs a model configured on the server)."""
        if llm is None:
            return _error(501, "not_configured", "this server has no model for the agent")
        agent = Agent(scope(tenant, user), llm, max_tokens=body.max_tokens)
        return _turn(agent.step(body.text))

    @app.post("/v1/users/{user}/agents", status_code=201, response_model=AgentOut)
    def create_agent(user: str, body: AgentIn, tenant: Tenant) -> AgentOut:
        """A named agent of the user: its own memory (scope tenant/user/name) and settings."""
        made = memory.agents(tenant, user).create(
            body.name, system=body.system, max_tokens=body.max_tokens
        )
        return AgentOut(name=made.name, system=made.system, max_tokens=made.max_tokens)

    @app.get("/v1/users/{user}/agents/{name}", response_model=AgentOut)
    def get_agent(user: str, name: str, tenant: Tenant) -> AgentOut:
        found = memory.agents(tenant, user).get(name)
        return AgentOut(name=found.name, system=found.system, max_tokens=found.max_tokens)

    @app.post("/v1/users/{user}/agents/{name}/step", response_model=StepOut)
    def agent_step(user: str, name: str, body: TurnIn, tenant: Tenant) -> Any:
        """One turn of a named agent, in its own memory (needs a model on the server)."""
        found = memory.agents(tenant, user).get(name)
        if llm is None:
            return _error(501, "not_configured", "this server has no model for the agent")
        me = memory.scope(tenant, user, name)
        agent = Agent(me, llm, system=found.system, max_tokens=found.max_tokens)
        return _turn(agent.step(body.text))

    @app.delete("/v1/users/{user}/memories/{note_id}", status_code=204)
    def delete(user: str, note_id: str, tenant: Tenant) -> Response:
        scope(tenant, user).archive.delete(note_id, actor="api")
        return Response(status_code=204)

    @app.get("/v1/users/{user}/memories/{note_id}/history", response_model=list[VersionOut])
    def history(user: str, note_id: str, tenant: Tenant) -> list[VersionOut]:
        versions = scope(tenant, user).archive.history(note_id)
        return [
            VersionOut(note=_note(v.record), replaced_by=v.replaced_by, reasons=list(v.reasons))
            for v in versions
        ]

    @app.post("/v1/users/{user}/memories/search", response_model=list[HitOut])
    def search(user: str, body: SearchIn, tenant: Tenant) -> list[HitOut]:
        hits = scope(tenant, user).archive.search(
            body.query, body.k, tags=body.tags, origins=body.origins, as_of=body.as_of
        )
        return [_hit(h) for h in hits]

    @app.get("/v1/users/{user}/blocks", response_model=list[BlockOut])
    def blocks(user: str, tenant: Tenant) -> list[BlockOut]:
        return [BlockOut(**_block(b)) for b in scope(tenant, user).blocks.list()]

    @app.put("/v1/users/{user}/blocks/{label}", response_model=BlockOut)
    def set_block(user: str, label: str, body: BlockIn, tenant: Tenant) -> BlockOut:
        block = scope(tenant, user).blocks.set(
            label, body.value, limit=body.limit, description=body.description, actor="api"
        )
        return BlockOut(**_block(block))

    @app.post("/v1/users/{user}/recall/search", response_model=list[MessageOut])
    def recall(user: str, body: RecallIn, tenant: Tenant) -> list[MessageOut]:
        found = scope(tenant, user).recall.search(body.query, limit=body.limit, order=body.order)
        return [
            MessageOut(id=m.id, role=m.role, content=m.content, created_at=m.created_at)
            for m in found
        ]

    @app.post("/v1/users/{user}/context")
    def context(user: str, body: ContextIn, tenant: Tenant) -> Any:
        window = Context(scope(tenant, user), max_tokens=body.max_tokens, system=body.system)
        return {"request": window.compile(body.format), "usage": window.usage().line()}

    @app.post("/v1/users/{user}/forget", response_model=ForgetOut)
    def forget(user: str, body: ForgetIn, tenant: Tenant) -> ForgetOut:
        found = scope(tenant, user).forget(body.phrase, confirm=body.confirm, actor="api")
        return ForgetOut(
            notes=[r.id for r in found.records],
            messages=[m.id for m in found.messages],
            blocks=found.blocks,
            done=found.done,
        )

    @app.get("/v1/users/{user}/export")
    def export(user: str, tenant: Tenant) -> StreamingResponse:
        me = scope(tenant, user)

        def lines() -> Iterator[str]:
            for line in me.export():
                yield jsonl(line)

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    return app


class UnauthorizedError(Exception):
    """No key, or one that maps to no tenant."""


def _turn(done: Step) -> StepOut:
    return StepOut(
        text=done.text,
        tools=[name for name, _ in done.tool_results],
        usage=[
            {"input_tokens": u.input_tokens, "output_tokens": u.output_tokens} for u in done.usage
        ],
    )


def _block(block: Any) -> dict[str, Any]:
    return {
        "label": block.label,
        "value": block.value,
        "limit": block.limit,
        "description": block.description,
        "updated_at": block.updated_at,
    }
