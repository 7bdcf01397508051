"""Argument checks shared by the memory classes: one wording for every surface."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from pagemem.errors import InvalidInputError
from pagemem.models import check_text

MAX_K = 1000
MAX_SOURCE = 1000
MAX_TAG = 64


def utc_now() -> datetime:
    return datetime.now(UTC)


def aware(value: datetime | None, what: str) -> datetime | None:
    """Naive datetimes are read as UTC; anything else is rejected."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{what} must be a datetime, not {type(value).__name__}")
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def choices(
    values: Iterable[str] | str | None, allowed: Sequence[str], what: str
) -> tuple[str, ...]:
    if values is None:
        return ()
    items = (values,) if isinstance(values, str) else tuple(values)
    for item in items:
        if item not in allowed:
            raise InvalidInputError(
                f"unknown {what} {item!r}; expected one of {', '.join(allowed)}"
            )
    return items


def tags_of(tags: Iterable[str] | str | None) -> tuple[str, ...]:
    if tags is None:
        return ()
    items = (tags,) if isinstance(tags, str) else tuple(tags)
    for tag in items:
        if not isinstance(tag, str) or not tag.strip() or len(tag) > MAX_TAG:
            raise InvalidInputError(
                f"tags must be non-empty strings of at most {MAX_TAG} characters"
            )
        check_text(tag, "tag", max_bytes=4 * MAX_TAG)
    return tuple(dict.fromkeys(items))


def positive(value: int, what: str, ceiling: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= ceiling:
        raise InvalidInputError(f"{what} must be a whole number from 1 to {ceiling}, got {value!r}")
    return value
