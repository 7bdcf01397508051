"""Named agents of a user: settings stored beside the memory, checked like any input.

An agent's memory is the scope (tenant, user, name); its settings (system prompt,
token budget) are what a server needs to run it. They go through the same checks as
everything else that is stored, so a setting that could not be read back is refused
before anything is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagemem.errors import InvalidInputError, NotFoundError
from pagemem.models import Scope, check_text

if TYPE_CHECKING:
    from pagemem.memory.core import Memory

__all__ = ["MAX_AGENT_TOKENS", "MIN_AGENT_TOKENS", "AgentSettings", "Agents"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MIN_AGENT_TOKENS = 256
MAX_AGENT_TOKENS = 2_000_000
MAX_SYSTEM_BYTES = 65_536


@dataclass(frozen=True, slots=True)
class AgentSettings:
    name: str
    system: str
    max_tokens: int


class Agents:
    """The named agents of one user."""

    def __init__(self, memory: Memory, tenant: str, user: str) -> None:
        Scope(tenant, user)  # checks both parts
        self._memory = memory
        self.tenant = tenant
        self.user = user

    def create(self, name: str, *, system: str, max_tokens: int = 8000) -> AgentSettings:
        """Create the agent, or replace its settings; every field is checked first."""
        settings = AgentSettings(
            _name(name),
            check_text(system, "system prompt", max_bytes=MAX_SYSTEM_BYTES),
            _tokens(max_tokens),
        )
        self._memory.store.put_agent(
            self.tenant,
            self.user,
            settings.name,
            {"system": settings.system, "max_tokens": settings.max_tokens},
            at=self._memory.now(),
        )
        return settings

    def get(self, name: str) -> AgentSettings:
        found = self._memory.store.get_agent(self.tenant, self.user, _name(name))
        if found is None:
            raise NotFoundError(f"no agent {name!r} for this user")
        return AgentSettings(name, found["system"], found["max_tokens"])

    def list(self) -> list[AgentSettings]:
        return [
            AgentSettings(entry.name, entry.settings["system"], entry.settings["max_tokens"])
            for entry in self._memory.store.agents(tenant=self.tenant, user=self.user)
        ]


def _name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidInputError(
            f"agent name {name!r} must be 1-64 letters, digits, '_', '.' or '-', starting "
            "with a letter or digit"
        )
    return name


def _tokens(value: object) -> int:
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not MIN_AGENT_TOKENS <= value <= MAX_AGENT_TOKENS
    ):
        raise InvalidInputError(
            f"max_tokens must be a whole number from {MIN_AGENT_TOKENS} to {MAX_AGENT_TOKENS:,}, "
            f"got {value!r}"
        )
    return value
