"""Numbered SQLite migrations; PRAGMA user_version records how many have run."""

from __future__ import annotations

from pagemem.store.sql_schema import CONSOLIDATION_COLUMNS, HISTORY_COLUMNS, SCOPE_COLUMNS

__all__ = ["MIGRATIONS"]

_SCOPE = SCOPE_COLUMNS

_FTS = "tokenize = 'porter unicode61 remove_diacritics 2'"

MIGRATIONS: list[str] = [
    # 1: records, messages, blocks, history, per-scope counters and summary
    f"""
    CREATE TABLE scopes ({_SCOPE},
        next_record INTEGER NOT NULL DEFAULT 0,
        next_message INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '',
        summary_sources TEXT NOT NULL DEFAULT '[]',
        summary_at TEXT,
        PRIMARY KEY (tenant_id, user_id, agent_id)
    ) WITHOUT ROWID;

    CREATE TABLE records (
        pk INTEGER PRIMARY KEY,{_SCOPE},
        id TEXT NOT NULL,
        text TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('semantic', 'episodic', 'procedural')),
        origin TEXT NOT NULL CHECK (origin IN ('user', 'agent', 'tool', 'web', 'system')),
        source TEXT NOT NULL,
        created_at TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        valid_to TEXT,
        tags TEXT NOT NULL DEFAULT '[]',
        metadata TEXT NOT NULL DEFAULT '{{}}',
        flags TEXT NOT NULL DEFAULT '[]',
        UNIQUE (tenant_id, user_id, agent_id, id)
    );
    CREATE INDEX records_scope_created ON records (tenant_id, user_id, agent_id, created_at);

    CREATE TABLE record_tags (
        record_pk INTEGER NOT NULL REFERENCES records (pk) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (record_pk, tag)
    ) WITHOUT ROWID;
    CREATE INDEX record_tags_tag ON record_tags (tag, record_pk);

    CREATE VIRTUAL TABLE records_fts USING fts5 (
        text, content = 'records', content_rowid = 'pk', {_FTS}
    );
    CREATE TRIGGER records_fts_insert AFTER INSERT ON records BEGIN
        INSERT INTO records_fts (rowid, text) VALUES (new.pk, new.text);
    END;
    CREATE TRIGGER records_fts_delete AFTER DELETE ON records BEGIN
        INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.pk, old.text);
    END;
    CREATE TRIGGER records_fts_update AFTER UPDATE OF text ON records BEGIN
        INSERT INTO records_fts (records_fts, rowid, text) VALUES ('delete', old.pk, old.text);
        INSERT INTO records_fts (rowid, text) VALUES (new.pk, new.text);
    END;

    CREATE TABLE messages (
        pk INTEGER PRIMARY KEY,{_SCOPE},
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system')),
        content TEXT NOT NULL,
        name TEXT,
        tool_call_id TEXT,
        created_at TEXT NOT NULL,
        in_context INTEGER NOT NULL DEFAULT 1,
        evicted_at TEXT,
        UNIQUE (tenant_id, user_id, agent_id, id)
    );
    CREATE INDEX messages_scope_seq ON messages (tenant_id, user_id, agent_id, in_context, seq);

    CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content, content = 'messages', content_rowid = 'pk', {_FTS}
    );
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.pk, new.content);
    END;
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
            VALUES ('delete', old.pk, old.content);
    END;
    CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
            VALUES ('delete', old.pk, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.pk, new.content);
    END;

    CREATE TABLE blocks ({_SCOPE},
        label TEXT NOT NULL,
        value TEXT NOT NULL,
        token_limit INTEGER NOT NULL CHECK (token_limit > 0),
        description TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, label)
    ) WITHOUT ROWID;

    CREATE TABLE history (
        seq INTEGER PRIMARY KEY,{_SCOPE},
        at TEXT NOT NULL,{HISTORY_COLUMNS}
    CREATE INDEX history_scope_target ON history (tenant_id, user_id, agent_id, target_id);
    """,
    # 2: a per-scope counter of record writes, so in-memory indexes know when to reload
    """
    ALTER TABLE scopes ADD COLUMN record_revision INTEGER NOT NULL DEFAULT 0;
    """,
    # 3: embeddings beside the rows; text_hash finds an identical note's vector
    """
    ALTER TABLE records ADD COLUMN text_hash TEXT NOT NULL DEFAULT '';
    CREATE INDEX records_scope_hash ON records (tenant_id, user_id, agent_id, text_hash);
    CREATE TABLE vectors (
        record_pk INTEGER NOT NULL REFERENCES records (pk) ON DELETE CASCADE,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (record_pk, model_id)
    ) WITHOUT ROWID;
    """,
    # 4: ranking moved to per-scope in-memory indexes; the records' FTS index is unused
    """
    DROP TRIGGER records_fts_insert;
    DROP TRIGGER records_fts_delete;
    DROP TRIGGER records_fts_update;
    DROP TABLE records_fts;
    """,
    # 5: recall is ranked like the archive: vectors and a revision counter for messages
    """
    ALTER TABLE messages ADD COLUMN text_hash TEXT NOT NULL DEFAULT '';
    CREATE INDEX messages_scope_hash ON messages (tenant_id, user_id, agent_id, text_hash);
    ALTER TABLE scopes ADD COLUMN message_revision INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE message_vectors (
        message_pk INTEGER NOT NULL REFERENCES messages (pk) ON DELETE CASCADE,
        model_id TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (message_pk, model_id)
    ) WITHOUT ROWID;
    """,
    # 6: page through a scope in row order without sorting it (index loading)
    """
    CREATE INDEX records_scope_rows ON records (tenant_id, user_id, agent_id);
    CREATE INDEX messages_scope_rows ON messages (tenant_id, user_id, agent_id, in_context);
    """,
    # 7: quarantine: a held record is stored and listed for review, never searched
    """
    ALTER TABLE records ADD COLUMN quarantined INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: each scope's retention rules (JSON list), applied by the retention job
    """
    ALTER TABLE scopes ADD COLUMN retention TEXT NOT NULL DEFAULT '[]';
    """,
    # 9: facts that change: a key, the slot a simple fact fills (subject|attribute), when it
    # was retired and what replaced it
    """
    ALTER TABLE records ADD COLUMN fact_key TEXT;
    ALTER TABLE records ADD COLUMN expired_at TEXT;
    ALTER TABLE records ADD COLUMN superseded_by TEXT;
    ALTER TABLE records ADD COLUMN mentions INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE records ADD COLUMN slot TEXT;
    CREATE INDEX records_scope_key ON records (tenant_id, user_id, agent_id, fact_key)
        WHERE fact_key IS NOT NULL;
    CREATE INDEX records_scope_slot ON records (tenant_id, user_id, agent_id, slot)
        WHERE slot IS NOT NULL;
    """,
    # 10: a durable queue for background work (extraction, consolidation, retention)
    """
    CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'pending'
            CHECK (status IN ('pending', 'running', 'done', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        run_after TEXT NOT NULL,
        locked_until TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT
    );
    CREATE INDEX jobs_ready ON jobs (status, run_after, id);
    -- a message marked for extraction costs no extra row on the write path; a sweep turns
    -- marked messages into jobs
    ALTER TABLE messages ADD COLUMN extract_pending INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX messages_extract ON messages (extract_pending) WHERE extract_pending = 1;
    """,
    # 11: an assistant message keeps the tool calls it made (JSON list), so a window can
    # be sent back to a model with each tool result after its call
    """
    ALTER TABLE messages ADD COLUMN tool_calls TEXT;
    """,
    # 12: API keys of the REST server, stored hashed, each mapped to one tenant
    """
    CREATE TABLE api_keys (
        key_hash TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        revoked_at TEXT
    ) WITHOUT ROWID;
    """,
    # 13: named agents of a user (the REST server's agents resource): their settings; each
    # agent's memory is the scope (tenant, user, agent)
    """
    CREATE TABLE agents (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        settings TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, name)
    ) WITHOUT ROWID;
    """,
    # 14: what consolidation did when a note was written (added, restated, superseded,
    # kept-both) and the note it was weighed against; the read side looks up the newer
    # notes kept beside a fact. The slot column of 9 is no longer written.
    CONSOLIDATION_COLUMNS,
    # 15: the change feed: one row per revision step of a scope's collection, naming the
    # record or message that changed, so another process's index applies what changed
    # instead of rebuilding. A step with no row (forget, restore) means "rebuild".
    f"""
    CREATE TABLE changes ({_SCOPE},
        collection TEXT NOT NULL,
        seq INTEGER NOT NULL,
        item_id TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, collection, seq)
    ) WITHOUT ROWID;
    """,
    # 16: an id for the database, so a snapshot of a search index names the file it was read from
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta (key, value) VALUES ('instance', lower(hex(randomblob(16))));
    """,
]
