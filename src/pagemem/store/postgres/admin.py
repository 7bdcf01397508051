"""What PostgreSQL does its own way for a forget: (not) reclaiming freed space inside a
request."""

from __future__ import annotations

from pagemem.store.postgres.base import PostgresBase

__all__ = ["PurgeMixin"]


class PurgeMixin(PostgresBase):
    def purge(self) -> None:
        """Deleted rows are dead tuples until VACUUM reclaims them; autovacuum does that in
        the background, and operators who must erase now run VACUUM (FULL) on the tables.
        Nothing here can do it inside the request (VACUUM needs the table owner and no
        transaction)."""
