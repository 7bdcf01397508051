"""pagemem: memory beyond the context window for LLM agents."""

from pagemem.budget import Budget
from pagemem.context import Context, Usage
from pagemem.errors import BlockOverflowError, InvalidInputError, NotFoundError, PagememError
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import Block, HistoryEntry, Hit, Message, Record, Scope
from pagemem.tokens import TokenCounter, get_counter
from pagemem.tools import MEMORY_TOOLS, anthropic_tools, dispatch, openai_tools

__all__ = [
    "MEMORY_TOOLS",
    "Block",
    "BlockOverflowError",
    "Budget",
    "Context",
    "HistoryEntry",
    "Hit",
    "InvalidInputError",
    "Memory",
    "Message",
    "NotFoundError",
    "PagememError",
    "Record",
    "Scope",
    "ScopedMemory",
    "TokenCounter",
    "Usage",
    "anthropic_tools",
    "dispatch",
    "get_counter",
    "openai_tools",
]
