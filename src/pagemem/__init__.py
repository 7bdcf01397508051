"""pagemem: memory beyond the context window for LLM agents."""

from pagemem.budget import Budget
from pagemem.context import Context, Usage
from pagemem.errors import BlockOverflowError, InvalidInputError, NotFoundError, PagememError
from pagemem.guard import OriginRule, TrustPolicy
from pagemem.memory import Memory, ScopedMemory
from pagemem.models import Block, HistoryEntry, Hit, Message, Record, Scope
from pagemem.tokens import TokenCounter, get_counter
from pagemem.tools import (
    MEMORY_TOOLS,
    ApprovalRequest,
    CallContext,
    Tool,
    ToolResult,
    anthropic_tools,
    dispatch,
    openai_tools,
)

__all__ = [
    "MEMORY_TOOLS",
    "ApprovalRequest",
    "Block",
    "BlockOverflowError",
    "Budget",
    "CallContext",
    "Context",
    "HistoryEntry",
    "Hit",
    "InvalidInputError",
    "Memory",
    "Message",
    "NotFoundError",
    "OriginRule",
    "PagememError",
    "Record",
    "Scope",
    "ScopedMemory",
    "TokenCounter",
    "Tool",
    "ToolResult",
    "TrustPolicy",
    "Usage",
    "anthropic_tools",
    "dispatch",
    "get_counter",
    "openai_tools",
]
