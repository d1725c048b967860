"""A tournament TOML file's values read with their checks: known keys, types (a boolean is never
an integer), ranges, choices, finite numbers, arrays of tables; each refusal an ``InputError``
naming the file, the line (``ranking.formats.toml_lines``) and what is accepted
(docs/architecture.md#files).  ``ranking.formats.tomlfile`` reads the tables with them.

>>> from ranking.formats.toml_lines import _Lines
>>> r = _Reader("open.toml", _Lines("[tournament]\\nrounds = 0\\n"))
>>> _int(r, {"rounds": 0}, "rounds", "[tournament]", lambda key: r.lines.table("tournament", key), minimum=1)
Traceback (most recent call last):
    ...
ranking.errors.InputError: open.toml:2: [tournament]: rounds = 0: expected an integer >= 1
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ranking.errors import InputError
from ranking.formats.toml_lines import _Lines

T = TypeVar("T")


@dataclass
class _Reader:
    source: str
    lines: _Lines

    def fail(self, message: str, line: int | None) -> InputError:
        return InputError(message, source=self.source, line=line)


def _check_keys(
    r: _Reader,
    table: Mapping[str, Any],
    allowed: tuple[str, ...],
    what: str,
    where: Callable[[str | None], int | None],
) -> None:
    for key in table:
        if key not in allowed:
            raise r.fail(f"{what}: unknown key {key!r}: expected one of {', '.join(allowed)}", where(key))


def _get(
    r: _Reader,
    table: Mapping[str, Any],
    key: str,
    kind: type[T] | tuple[type, ...],
    what: str,
    where: Callable[[str | None], int | None],
    *,
    required: bool = False,
    expected: str,
) -> Any:
    """``table[key]`` checked against ``kind`` (booleans are never integers), or None."""
    if key not in table:
        if required:
            raise r.fail(f"{what}: missing key {key!r}: expected {expected}", where(None))
        return None
    value = table[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise r.fail(f"{what}: {key} = {_show(value)}: expected {expected}", where(key))
    return value


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(
    r: _Reader,
    table: Mapping[str, Any],
    key: str,
    what: str,
    where: Callable[[str | None], int | None],
    *,
    minimum: int,
    maximum: int | None = None,
    required: bool = False,
    default: int = 0,
) -> int:
    expected = f"an integer >= {minimum}" if maximum is None else f"an integer {minimum}-{maximum}"
    value = _get(r, table, key, int, what, where, required=required, expected=expected)
    if value is None:
        return default
    if value < minimum or (maximum is not None and value > maximum):
        raise r.fail(f"{what}: {key} = {value}: expected {expected}", where(key))
    return int(value)


def _str(
    r: _Reader,
    table: Mapping[str, Any],
    key: str,
    what: str,
    where: Callable[[str | None], int | None],
    *,
    required: bool = False,
) -> str:
    value = _get(r, table, key, str, what, where, required=required, expected="a string")
    return "" if value is None else value


def _choice(
    r: _Reader,
    table: Mapping[str, Any],
    key: str,
    choices: Mapping[str, T],
    what: str,
    where: Callable[[str | None], int | None],
    default: T,
) -> T:
    value = _get(r, table, key, str, what, where, expected=" or ".join(f'"{c}"' for c in choices))
    if value is None:
        return default
    if value not in choices:
        raise r.fail(f"{what}: {key} = {_show(value)}: expected " + " or ".join(f'"{c}"' for c in choices), where(key))
    return choices[value]


def _entries(r: _Reader, value: object, name: str) -> list[tuple[int, Mapping[str, Any], Callable]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise r.fail(f"{name}: expected an array of tables ([[{name}]])", r.lines.table("", name))
    result = []
    for index, item in enumerate(value):

        def where(key: str | None, index: int = index) -> int | None:
            return r.lines.entry(name, index, key)

        result.append((index, item, where))
    return result


def _number(r: _Reader, table: Mapping[str, Any], key: str, what: str, where: Callable) -> float | None:
    value = _get(r, table, key, (int, float), what, where, expected="a number")
    if value is not None and not math.isfinite(value):
        raise r.fail(f"{what}: {key} = {value}: expected a finite number", where(key))
    return None if value is None else float(value)
