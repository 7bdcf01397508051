"""Numbered PostgreSQL migrations and the runner that applies them on start.

Each migration runs in its own transaction under an advisory lock, so any number
of servers may start at once against one database; `pagemem_migrations` records
which have run. Every scoped table has row-level security keyed on the tenant
set for the transaction (`pagemem.tenant`), forced for the owner too, so a query
that forgot its tenant filter still reads nothing of another tenant.
"""

from __future__ import annotations

from typing import Any

from pagemem.store.sql_schema import CONSOLIDATION_COLUMNS, HISTORY_COLUMNS, SCOPE_COLUMNS

__all__ = ["APP_ROLE", "MIGRATIONS", "SCOPED_TABLES", "migrate"]

# The role the store acts as when it connected as a superuser (who bypasses RLS).
APP_ROLE = "pagemem_app"
_LOCK = 0x70A6E3E3  # pg_advisory_xact_lock key: one migrator at a time

_SCOPE = SCOPE_COLUMNS

SCOPED_TABLES = (
    "scopes",
    "records",
    "vectors",
    "messages",
    "message_vectors",
    "vector_indexes",
    "blocks",
    "history",
    "jobs",
    "agents",
)

_POLICY = (
    "tenant_id = current_setting('pagemem.tenant', true) "
    "OR current_setting('pagemem.tenant', true) = '*'"
)


def _rls(table: str) -> str:
    return (
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY;\n"
        f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY;\n"
        f"CREATE POLICY {table}_tenant ON {table} USING ({_POLICY}) WITH CHECK ({_POLICY});\n"
    )


MIGRATIONS: list[str] = [
    # 1: the whole schema of SQLite's thirteen migrations, with tsvector and pgvector
    f"""
    CREATE EXTENSION IF NOT EXISTS vector;

    CREATE TABLE scopes ({_SCOPE},
        next_record BIGINT NOT NULL DEFAULT 0,
        next_message BIGINT NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '',
        summary_sources JSONB NOT NULL DEFAULT '[]',
        summary_at TIMESTAMPTZ,
        record_revision BIGINT NOT NULL DEFAULT 0,
        message_revision BIGINT NOT NULL DEFAULT 0,
        retention JSONB NOT NULL DEFAULT '[]',
        PRIMARY KEY (tenant_id, user_id, agent_id)
    );

    CREATE TABLE records (
        pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,{_SCOPE},
        id TEXT NOT NULL,
        text TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('semantic', 'episodic', 'procedural')),
        origin TEXT NOT NULL CHECK (origin IN ('user', 'agent', 'tool', 'web', 'system')),
        source TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        valid_from TIMESTAMPTZ NOT NULL,
        valid_to TIMESTAMPTZ,
        tags TEXT[] NOT NULL DEFAULT '{{}}',
        metadata JSONB NOT NULL DEFAULT '{{}}',
        flags JSONB NOT NULL DEFAULT '[]',
        quarantined BOOLEAN NOT NULL DEFAULT false,
        fact_key TEXT,
        expired_at TIMESTAMPTZ,
        superseded_by TEXT,
        mentions INTEGER NOT NULL DEFAULT 1,
        slot TEXT,
        tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
        UNIQUE (tenant_id, user_id, agent_id, id)
    );
    CREATE INDEX records_scope_pk ON records (tenant_id, user_id, agent_id, pk);
    CREATE INDEX records_scope_hash ON records (tenant_id, user_id, agent_id, text_hash);
    CREATE INDEX records_scope_key ON records (tenant_id, user_id, agent_id, fact_key)
        WHERE fact_key IS NOT NULL;
    CREATE INDEX records_scope_slot ON records (tenant_id, user_id, agent_id, slot)
        WHERE slot IS NOT NULL;
    CREATE INDEX records_tags ON records USING gin (tags);
    CREATE INDEX records_tsv ON records USING gin (tsv);

    -- the scope rides on the vector rows: row-level security covers them, and a large
    -- scope's HNSW index is partial on its own rows
    CREATE TABLE vectors (
        record_pk BIGINT NOT NULL REFERENCES records (pk) ON DELETE CASCADE,
        model_id TEXT NOT NULL,{_SCOPE},
        embedding vector NOT NULL,
        PRIMARY KEY (record_pk, model_id)
    );

    CREATE TABLE messages (
        pk BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,{_SCOPE},
        id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        name TEXT,
        tool_call_id TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        in_context BOOLEAN NOT NULL DEFAULT true,
        evicted_at TIMESTAMPTZ,
        extract_pending BOOLEAN NOT NULL DEFAULT false,
        tool_calls JSONB,
        tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        UNIQUE (tenant_id, user_id, agent_id, id)
    );
    CREATE INDEX messages_scope_seq ON messages (tenant_id, user_id, agent_id, in_context, seq);
    CREATE INDEX messages_scope_hash ON messages (tenant_id, user_id, agent_id, text_hash);
    CREATE INDEX messages_extract ON messages (pk) WHERE extract_pending;
    CREATE INDEX messages_tsv ON messages USING gin (tsv);

    CREATE TABLE message_vectors (
        message_pk BIGINT NOT NULL REFERENCES messages (pk) ON DELETE CASCADE,
        model_id TEXT NOT NULL,{_SCOPE},
        embedding vector NOT NULL,
        PRIMARY KEY (message_pk, model_id)
    );

    -- scopes large enough to be searched in the database, each with its own HNSW index
    CREATE TABLE vector_indexes ({_SCOPE},
        collection TEXT NOT NULL,
        model_id TEXT NOT NULL,
        dim INTEGER NOT NULL,
        name TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, user_id, agent_id, collection, model_id)
    );

    CREATE TABLE blocks ({_SCOPE},
        label TEXT NOT NULL,
        value TEXT NOT NULL,
        token_limit INTEGER NOT NULL CHECK (token_limit > 0),
        description TEXT NOT NULL DEFAULT '',
        updated_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, label)
    );

    CREATE TABLE history (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,{_SCOPE},
        at TIMESTAMPTZ NOT NULL,{HISTORY_COLUMNS}
    CREATE INDEX history_scope_target ON history (tenant_id, user_id, agent_id, target_id);

    CREATE TABLE jobs (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,{_SCOPE},
        kind TEXT NOT NULL,
        payload JSONB NOT NULL DEFAULT '{{}}',
        status TEXT NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'running', 'done', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        run_after TIMESTAMPTZ NOT NULL,
        locked_until TIMESTAMPTZ,
        error TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        finished_at TIMESTAMPTZ
    );
    CREATE INDEX jobs_ready ON jobs (status, run_after, id);

    CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        created_at TIMESTAMPTZ NOT NULL,
        revoked_at TIMESTAMPTZ
    );

    CREATE TABLE agents (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        settings JSONB NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (tenant_id, user_id, name)
    );
    """
    + "".join(_rls(table) for table in SCOPED_TABLES),
    # 2: what consolidation did when a note was written, and the note it was weighed
    # against (see SQLite's migration 14); the slot column is no longer written
    CONSOLIDATION_COLUMNS,
    # 3: the change feed (see SQLite's migration 15): the item each revision step changed
    f"""
    CREATE TABLE changes ({_SCOPE},
        collection TEXT NOT NULL,
        seq BIGINT NOT NULL,
        item_id TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, collection, seq)
    );
    """
    + _rls("changes"),
]

_ROLE = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
        CREATE ROLE {APP_ROLE} NOLOGIN NOSUPERUSER NOBYPASSRLS;
    END IF;
EXCEPTION WHEN insufficient_privilege OR unique_violation THEN
    NULL;  -- not allowed to make roles, or another server just made it
END $$;
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = '{APP_ROLE}') THEN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO {APP_ROLE}', current_schema());
        EXECUTE format(
            'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO {APP_ROLE}',
            current_schema());
        EXECUTE format('GRANT USAGE ON ALL SEQUENCES IN SCHEMA %I TO {APP_ROLE}', current_schema());
    END IF;
END $$;
"""


def migrate(conn: Any) -> int:
    """Apply the migrations this database lacks; return the schema version.

    `conn` is a psycopg connection in autocommit mode; each migration is one
    transaction, so a crash leaves the database at the last whole version.
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS pagemem_migrations ("
            "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
    while True:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            row = conn.execute(
                "SELECT coalesce(max(version), 0) FROM pagemem_migrations"
            ).fetchone()
            version = int(row[0])
            if version > len(MIGRATIONS):
                raise RuntimeError(
                    f"the database has pagemem schema version {version}; this pagemem knows "
                    f"{len(MIGRATIONS)}. Upgrade pagemem to open it."
                )
            if version == len(MIGRATIONS):
                conn.execute(_ROLE)
                return version
            conn.execute(MIGRATIONS[version])
            conn.execute("INSERT INTO pagemem_migrations (version) VALUES (%s)", (version + 1,))
