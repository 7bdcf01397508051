"""Argument checks shared by the memory classes: one wording for every surface."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pagemem.errors import InvalidInputError
from pagemem.models import check_text

MAX_K = 1000
MAX_SOURCE = 1000
MAX_TAG = 64
MAX_METADATA_BYTES = 65_536
MAX_DESCRIPTION_BYTES = 4_096


def utc_now() -> datetime:
    return datetime.now(UTC)


def aware(value: datetime | None, what: str) -> datetime | None:
    """Naive datetimes are read as UTC; a time that is not a datetime, or that falls
    outside years 1-9999 once in UTC (where every time is stored), is rejected."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{what} must be a datetime, not {type(value).__name__}")
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value
    try:
        value.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InvalidInputError(
            f"{what} {value.isoformat()} is outside years 1-9999 in UTC"
        ) from None
    return value


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


def check_metadata(
    metadata: Mapping[str, Any] | None,
    what: str = "metadata",
    *,
    max_bytes: int = MAX_METADATA_BYTES,
) -> dict[str, Any]:
    """A copy of `metadata` if it reads back exactly as given from JSON on every backend:
    string keys, JSON values (no NaN or infinity), valid Unicode without NUL, at most
    `max_bytes` as UTF-8 JSON. The error names the first offending place."""
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise InvalidInputError(f"{what} must be a JSON object, not {type(metadata).__name__}")
    _check_json(metadata, what)
    size = len(json.dumps(metadata, ensure_ascii=False).encode("utf-8"))
    if size > max_bytes:
        raise InvalidInputError(f"{what} is {size:,} bytes as JSON; the limit is {max_bytes:,}")
    return dict(metadata)


def _check_json(value: object, where: str) -> None:
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(f"{where} is {value}, which JSON cannot hold")
        return
    if isinstance(value, str):
        _check_string(value, where)
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidInputError(
                    f"{where} key {key!r} must be a string (JSON would turn it into one)"
                )
            _check_string(key, f"{where} key {key!r}")
            _check_json(item, f"{where}[{key!r}]")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_json(item, f"{where}[{index}]")
        return
    raise InvalidInputError(f"{where} is a {type(value).__name__}, which JSON cannot hold")


def _check_string(value: str, where: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"{where} is not valid Unicode: lone surrogate {value[exc.start]!r} at position "
            f"{exc.start}"
        ) from None
    if "\x00" in value:
        raise InvalidInputError(f"{where} contains a NUL character")
