"""The scoped facade every surface talks to: `Memory(path).scope(tenant, user)`."""

from pagemem.memory.agents import Agents, AgentSettings
from pagemem.memory.archive import Archive
from pagemem.memory.blocks import DEFAULT_BLOCK_LIMIT, Blocks
from pagemem.memory.consolidation import Consolidation
from pagemem.memory.core import Approval, Forgetting, Memory, ScopedMemory
from pagemem.memory.recall import Recall
from pagemem.memory.retention import Expired, Retention
from pagemem.memory.transfer import Imported

__all__ = [
    "DEFAULT_BLOCK_LIMIT",
    "AgentSettings",
    "Agents",
    "Approval",
    "Archive",
    "Blocks",
    "Consolidation",
    "Expired",
    "Forgetting",
    "Imported",
    "Memory",
    "Recall",
    "Retention",
    "ScopedMemory",
]
