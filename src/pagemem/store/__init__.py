"""Storage backends behind one protocol."""

from pagemem.store.base import MessageFilter, NewRecord, RecordFilter, Store
from pagemem.store.sqlite import SQLiteStore

__all__ = ["MessageFilter", "NewRecord", "RecordFilter", "SQLiteStore", "Store"]
