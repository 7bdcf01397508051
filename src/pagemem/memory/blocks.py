"""Core memory: labelled blocks always in the prompt, each capped in tokens."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pagemem.errors import BlockOverflowError, InvalidInputError, NotFoundError
from pagemem.memory.checks import MAX_DESCRIPTION_BYTES, positive
from pagemem.models import Block, check_text
from pagemem.store.base import BlockStore

if TYPE_CHECKING:
    from pagemem.memory.core import ScopedMemory

__all__ = ["DEFAULT_BLOCK_LIMIT", "Blocks"]

DEFAULT_BLOCK_LIMIT = 2000
LABEL_PATTERN = re.compile(r"^[a-z][a-z0-9_\-]{0,63}$")


class Blocks:
    """Core memory: labelled blocks always rendered into the prompt, each capped in tokens."""

    def __init__(self, owner: ScopedMemory) -> None:
        self._owner = owner
        self._store: BlockStore = owner.memory.store

    def get(self, label: str) -> Block:
        block = self._store.get_block(self._owner.scope, self._label(label))
        if block is None:
            known = ", ".join(b.label for b in self.list()) or "none"
            raise NotFoundError(f"no core memory block {label!r}; blocks here: {known}")
        return block

    def list(self) -> list[Block]:
        return self._store.list_blocks(self._owner.scope)

    def tokens(self, label: str) -> int:
        return self._owner.counter.count(self.get(label).value)

    def set(
        self,
        label: str,
        value: str,
        *,
        limit: int | None = None,
        description: str | None = None,
        actor: str = "user",
    ) -> Block:
        """Create or overwrite a block; refused if `value` exceeds the cap."""
        label = self._label(label)
        value, _ = self._owner._clean(
            self._owner._text(value, f"block '{label}'", allow_empty=True), f"block '{label}'"
        )
        existing = self._store.get_block(self._owner.scope, label)
        if limit is None:
            limit = existing.limit if existing else DEFAULT_BLOCK_LIMIT
        limit = positive(limit, "limit", 1_000_000)
        if description is None:
            description = existing.description if existing else ""
        description = check_text(
            description, "block description", max_bytes=MAX_DESCRIPTION_BYTES, allow_empty=True
        )
        tokens = self._owner.counter.count(value)
        if tokens > limit:
            raise BlockOverflowError(label, tokens, limit)
        return self._store.set_block(
            self._owner.scope,
            label,
            value,
            limit=limit,
            description=description,
            at=self._owner.memory.now(),
            actor=actor,
        )

    def append(self, label: str, content: str, *, actor: str = "agent") -> Block:
        """Add a line to a block (refused, unchanged, if it would exceed the cap)."""
        block = self.get(label)
        content = self._owner._text(content, "content")
        value = f"{block.value}\n{content}" if block.value else content
        return self.set(label, value, actor=actor)

    def replace(self, label: str, old: str, new: str, *, actor: str = "agent") -> Block:
        """Replace the one occurrence of `old` in a block with `new`."""
        block = self.get(label)
        old = self._owner._text(old, "old content")
        new = self._owner._text(new, "new content", allow_empty=True)
        found = block.value.count(old)
        if found == 0:
            raise InvalidInputError(f"block '{block.label}' does not contain {old!r}")
        if found > 1:
            raise InvalidInputError(
                f"block '{block.label}' contains {old!r} {found} times; quote more of it"
            )
        return self.set(label, block.value.replace(old, new), actor=actor)

    def delete(self, label: str, *, actor: str = "user") -> None:
        if not self._store.delete_block(
            self._owner.scope, self._label(label), actor=actor, at=self._owner.memory.now()
        ):
            raise NotFoundError(f"no core memory block {label!r}")

    @staticmethod
    def _label(label: object) -> str:
        if not isinstance(label, str) or not LABEL_PATTERN.match(label):
            raise InvalidInputError(
                f"block label {label!r} must be 1-64 lowercase letters, digits, '_' or '-', "
                "starting with a letter"
            )
        return label
