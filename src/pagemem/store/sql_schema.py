"""Schema text both backends' migrations spell the same way.

Each backend keeps its own numbered migrations (types, full-text and vector
indexes differ); the fragments and steps that are word for word alike live here
once, so a change to one is a change to both.
"""

from __future__ import annotations

__all__ = ["CONSOLIDATION_COLUMNS", "HISTORY_COLUMNS", "SCOPE_COLUMNS"]

# the three columns every scoped table starts with
SCOPE_COLUMNS = """
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    agent_id TEXT NOT NULL"""

# a history row's columns after its time
HISTORY_COLUMNS = """
        op TEXT NOT NULL,
        target TEXT NOT NULL,
        target_id TEXT NOT NULL,
        before TEXT,
        after TEXT,
        actor TEXT NOT NULL
    );"""

# what consolidation did when a note was written (added, restated, superseded,
# kept-both) and the note it was weighed against; the read side looks up the newer
# notes kept beside a fact. The slot column is no longer written.
CONSOLIDATION_COLUMNS = """
    ALTER TABLE records ADD COLUMN consolidation TEXT;
    ALTER TABLE records ADD COLUMN consolidated_with TEXT;
    DROP INDEX records_scope_slot;
    CREATE INDEX records_scope_with ON records (tenant_id, user_id, agent_id, consolidated_with)
        WHERE consolidated_with IS NOT NULL;
    """
