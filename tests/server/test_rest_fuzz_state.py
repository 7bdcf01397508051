"""Stateful fuzzing of the REST API: sequences of requests write arbitrary
valid-looking JSON (odd Unicode in texts, keys and values, metadata of any shape,
times anywhere in the calendar, wrong types), and after every step each user written
to must still answer every read (list, get, history, search, blocks, recall, agents,
a complete export), and every error must have the documented shape. Schemathesis's
own stateful runner was tried first: with inferred links it took five minutes here and
its data generation was flaky; this machine is the bounded, derandomized equivalent
that `make test` runs (Schemathesis still fuzzes each operation in
test_rest_schema.py)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from starlette.testclient import TestClient

from pagemem import Memory
from pagemem.server.rest import create_app

_FOLDER = tempfile.mkdtemp(prefix="pagemem-rest-fuzz-")
_MEMORY = Memory(Path(_FOLDER) / "m.db", embedder=None)
_APP = create_app(_MEMORY)


@pytest.fixture(autouse=True, scope="module")
def _remove_folder() -> Iterator[None]:
    """The module's memory lives in a folder of its own: gone when its tests are."""
    yield
    _MEMORY.close()
    shutil.rmtree(_FOLDER, ignore_errors=True)


_RUNS = iter(range(10**9))

ODD = ["\ud800", "\x00", "\u2028", "\ufeff", "\U0001f600", "\u0301", "\u202e", "/", "%", "?"]
TEXT = st.text(st.one_of(st.characters(), st.sampled_from(ODD)), max_size=30)
WORDS = st.text(st.sampled_from("abcdef "), min_size=1, max_size=20)
ANY = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False),
        TEXT,
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
    max_leaves=6,
)
TIMES = st.one_of(
    st.datetimes().map(lambda t: t.isoformat()),
    st.datetimes().map(lambda t: t.isoformat() + "Z"),
    st.sampled_from(["0999-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "yesterday"]),
    st.integers(-(2**40), 2**40),
)
USERS = st.one_of(st.sampled_from(["priya", "sam", "é", "a b", "%FF"]), TEXT.filter(bool))


def _field(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A field's usual values, and now and then anything at all."""
    return st.one_of(values, values, values, ANY)


NOTES = st.fixed_dictionaries(
    {"text": _field(st.one_of(TEXT, WORDS))},
    optional={
        "metadata": _field(st.dictionaries(TEXT, ANY, max_size=3)),
        "tags": _field(st.lists(TEXT, max_size=3)),
        "source": _field(TEXT),
        "valid_from": TIMES,
        "origin": _field(st.sampled_from(["user", "agent", "tool", "web"])),
        "kind": _field(st.sampled_from(["semantic", "episodic"])),
    },
)


class RestMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        key = _MEMORY.issue_api_key(f"fuzz{next(_RUNS)}")  # fresh scopes every run
        self.client = TestClient(_APP, raise_server_exceptions=False)
        self.client.headers["Authorization"] = f"Bearer {key}"
        self.users: set[str] = set()
        self.notes: list[tuple[str, str]] = []

    def _call(self, method: str, user: str, path: str, body: Any = None) -> Any:
        url = f"/v1/users/{quote(user, safe='%')}{path}"
        # encoded here: lone surrogates as \ud800 escapes, NaN as NaN (any JSON reader's
        # extension), which a client library would refuse to send
        content = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        response = self.client.request(method, url, content=content, headers=headers)
        assert response.status_code < 500, (method, url, body, response.text)
        if response.status_code >= 400:
            error = response.json()["error"]
            assert isinstance(error["type"], str), response.text
            assert error["message"], response.text
        elif method != "GET":
            self.users.add(user)
        return response

    @rule(user=USERS, note=NOTES)
    def insert(self, user: str, note: dict[str, Any]) -> None:
        response = self._call("POST", user, "/memories", note)
        if response.status_code == 201:
            self.notes.append((user, response.json()["id"]))

    @rule(data=st.data(), text=_field(TEXT))
    def update(self, data: st.DataObject, text: Any) -> None:
        if self.notes:
            user, note = data.draw(st.sampled_from(self.notes))
            response = self._call("PATCH", user, f"/memories/{note}", {"text": text})
            if response.status_code == 200:
                self.notes.append((user, response.json()["id"]))

    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        if self.notes:
            user, note = data.draw(st.sampled_from(self.notes))
            self._call("DELETE", user, f"/memories/{note}")

    @rule(
        user=USERS,
        label=st.one_of(st.sampled_from(["human", "persona"]), WORDS),
        body=st.fixed_dictionaries(
            {"value": _field(TEXT)},
            optional={"description": _field(TEXT), "limit": _field(st.integers(-5, 5000))},
        ),
    )
    def block(self, user: str, label: str, body: dict[str, Any]) -> None:
        self._call("PUT", user, f"/blocks/{quote(label, safe='')}", body)

    @rule(
        user=USERS,
        body=st.fixed_dictionaries(
            {"name": _field(WORDS)},
            optional={"system": _field(TEXT), "max_tokens": _field(st.integers(0, 5000))},
        ),
    )
    def agent(self, user: str, body: dict[str, Any]) -> None:
        self._call("POST", user, "/agents", body)

    @rule(user=USERS, query=_field(st.one_of(TEXT, WORDS)), k=_field(st.integers(-1, 200)))
    def search(self, user: str, query: Any, k: Any) -> None:
        self._call("POST", user, "/memories/search", {"query": query, "k": k})

    @rule(user=USERS, phrase=_field(WORDS), confirm=_field(st.booleans()))
    def forget(self, user: str, phrase: Any, confirm: Any) -> None:
        self._call("POST", user, "/forget", {"phrase": phrase, "confirm": confirm})

    @invariant()
    def every_read_of_a_written_user_works(self) -> None:
        for user in self.users:
            listed = self._call("GET", user, "/memories?limit=1000")
            assert listed.status_code == 200, listed.text
            for note in listed.json():
                assert self._call("GET", user, f"/memories/{note['id']}").status_code == 200
                assert self._call("GET", user, f"/memories/{note['id']}/history").status_code == 200
            for path, body in (
                ("/memories/search", {"query": "a b"}),
                ("/recall/search", {"query": "a", "order": "relevance"}),
            ):
                assert self._call("POST", user, path, body).status_code == 200
            assert self._call("GET", user, "/blocks").status_code == 200
            exported = self._call("GET", user, "/export")
            # JSON lines end at "\n" only; str.splitlines would also cut at U+2028
            lines = [json.loads(line) for line in exported.text.split("\n") if line]
            assert len(lines) == len(exported.text.splitlines())  # and naive readers agree
            assert lines[-1] == {**lines[-1], "type": "end", "lines": len(lines) - 1}

    def teardown(self) -> None:
        self.client.close()


def test_the_rest_api_reads_back_whatever_it_accepted() -> None:
    run_state_machine_as_test(
        RestMachine,
        settings=settings(
            max_examples=50,
            stateful_step_count=12,
            derandomize=True,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
