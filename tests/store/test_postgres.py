"""What only the PostgreSQL backend has: row-level security, migrations shared by many
starting servers, connection errors."""

from __future__ import annotations

import threading

import psycopg
import pytest

from pagemem import InvalidInputError, Memory
from pagemem.store.postgres import PostgresStore
from pagemem.store.postgres.base import ANY_TENANT
from pagemem.store.postgres.schema import MIGRATIONS, SCOPED_TABLES

from ..pg import with_database


def _fill(url: str) -> Memory:
    memory = Memory(url, embedder=None)
    for tenant in ("acme", "globex"):
        me = memory.scope(tenant, "priya")
        me.archive.insert(f"{tenant} secret plan", origin="user")
        me.blocks.set("human", f"{tenant} human", limit=100)
        me.memory.store.enqueue(me.scope, "probe", {}, at=memory.now())
    return memory


def test_a_query_that_forgot_its_filter_still_sees_one_tenant(postgres_url: str) -> None:
    memory = _fill(postgres_url)
    store = memory.store
    assert isinstance(store, PostgresStore)
    for table in SCOPED_TABLES:
        with store._tx("acme") as conn:  # no WHERE at all
            tenants = {r["tenant_id"] for r in conn.execute(f"SELECT tenant_id FROM {table}")}
        assert tenants <= {"acme"}, table
    with store._tx("acme") as conn:
        texts = [r["text"] for r in conn.execute("SELECT text FROM records")]
        assert texts == ["acme secret plan"]
        # writing another tenant's row is refused by the policy, not just filtered
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE records SET tenant_id = 'globex' WHERE text = 'acme secret plan'")
    with store._tx("") as conn:  # no tenant bound: nothing
        assert conn.execute("SELECT count(*) AS n FROM records").fetchone() == {"n": 0}
    with store._tx(ANY_TENANT) as conn:  # admin work (job queue, scope list) sees all
        assert conn.execute("SELECT count(*) AS n FROM records").fetchone() == {"n": 2}
    memory.close()


def test_a_superuser_login_acts_as_the_app_role(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    with store._tx("acme") as conn:
        row = conn.execute(
            "SELECT current_user AS who, r.rolsuper, r.rolbypassrls FROM pg_roles r "
            "WHERE r.rolname = current_user"
        ).fetchone()
    assert row == {"who": "pagemem_app", "rolsuper": False, "rolbypassrls": False}
    store.close()


def test_servers_starting_together_migrate_once(postgres_url: str) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            PostgresStore(postgres_url).close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with psycopg.connect(postgres_url) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM pagemem_migrations")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))


def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("INSERT INTO pagemem_migrations (version) VALUES (%s)", (len(MIGRATIONS) + 1,))
    with pytest.raises(RuntimeError, match="Upgrade pagemem"):
        PostgresStore(postgres_url)


def test_an_unreachable_database_is_a_clear_error(postgres_url: str) -> None:
    missing = with_database(postgres_url, "no_such_database")
    with pytest.raises(InvalidInputError, match="cannot connect to PostgreSQL"):
        Memory(missing, embedder=None)
