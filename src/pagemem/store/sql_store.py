"""The store both SQL backends are: every shared part, and the statements whose
words differ only in a clause, put together here from each backend's hooks.

A backend subclasses `SQLStore` with its own parts (connections, job claiming,
purge, vector search) and defines the hooks in its class body: how a vector is
passed in and read back, the statement that stores one, and how a full-text
match over recall messages is spelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pagemem.models import Message, Scope
from pagemem.store.base import Collection, MessageFilter
from pagemem.store.common import text_hash
from pagemem.store.sql_admin import AdminMixin
from pagemem.store.sql_blocks import BlocksMixin
from pagemem.store.sql_core import chunks, execute_many, key, scoped
from pagemem.store.sql_facts import FactsMixin
from pagemem.store.sql_index import COLLECTIONS, IndexRowsMixin
from pagemem.store.sql_messages import MessagesMixin
from pagemem.store.sql_records import RecordsMixin
from pagemem.store.sql_restore import RestoreMixin

__all__ = ["SQLStore"]


class SQLStore(
    RecordsMixin,
    FactsMixin,
    MessagesMixin,
    BlocksMixin,
    AdminMixin,
    RestoreMixin,
    IndexRowsMixin,
):
    """The parts of a Store written once; a backend adds what really differs."""

    # hooks (a backend defines them in its own class body, with `_vector_bytes` and
    # `vector_column` of store/sql_index.py)

    def _vector_param(self, blob: bytes) -> Any:
        """float32 bytes as the parameter a vector column takes."""
        raise NotImplementedError

    def _vector_upsert(self, collection: Collection) -> str:
        """Store (or replace) one item's vector, the item named by id. Parameters (?):
        model id, vector, the scope's three parts, the item's id."""
        raise NotImplementedError

    def _message_match(self, terms: Sequence[str]) -> tuple[str, str, Any] | None:
        """A full-text match of any of the terms over messages aliased m: the FROM
        clause, the condition (one ? parameter) and its parameter; None when no term
        is left to match."""
        raise NotImplementedError

    # vectors made before, found by the text they were made from

    def find_vectors(
        self,
        scope: Scope,
        model_id: str,
        texts: Sequence[str],
        *,
        collection: Collection = "records",
    ) -> dict[str, bytes]:
        tables = COLLECTIONS[collection]
        by_hash = {text_hash(text): text for text in texts}
        found: dict[str, bytes] = {}
        for chunk in chunks(list(by_hash)):
            among, params = self.dialect.among("t.text_hash", chunk)
            rows = self._select(
                scope,
                f"SELECT t.text_hash, v.{self.vector_column} AS vector FROM {tables.rows} t "
                f"JOIN {tables.vectors} v ON v.{tables.key} = t.pk "
                f"WHERE {scoped('t')} AND v.model_id = ? AND {among}",
                (*key(scope), model_id, *params),
            )
            found.update(
                (by_hash[row["text_hash"]], self._vector_bytes(row["vector"])) for row in rows
            )
        return found

    def put_vectors(
        self,
        scope: Scope,
        model_id: str,
        vectors: Sequence[tuple[str, bytes]],
        *,
        collection: Collection = "records",
    ) -> None:
        rows = [(model_id, self._vector_param(blob), *key(scope), item) for item, blob in vectors]
        with self._transaction(scope) as conn:
            execute_many(conn, self.dialect.sql(self._vector_upsert(collection)), rows)

    # recall

    def search_messages(
        self, scope: Scope, terms: Sequence[str], where: MessageFilter, *, limit: int
    ) -> list[Message]:
        match = self._message_match(terms)
        if match is None:
            return []
        source, condition, expression = match
        clause, params = self._message_where(scope, where)
        rows = self._select(
            scope,
            f"SELECT {self.message_columns} FROM {source} "
            f"WHERE {condition} AND {clause} ORDER BY m.seq DESC LIMIT ?",
            (expression, *params, limit),
        )
        return [self._message_of(row) for row in rows]
