"""Where each table, array entry and key of a tournament TOML file is written: the line numbers
the reader's refusals name (docs/architecture.md#files).

tomllib gives values without their positions, so the text is scanned once: ``[table]``,
``[[array]]`` entries and one-entry-per-line inline arrays (``players = [`` then ``{ ... },``
lines, as tomli-w writes them); anything else simply has no known line.

>>> lines = _Lines('[tournament]\\nname = "Open"\\n\\n[[players]]\\nid = 1\\n')
>>> lines.table("tournament", "name"), lines.entry("players", 0, "id"), lines.entry("players", 1)
(2, 5, None)
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

_HEADER = re.compile(r"^\s*(\[\[?)([^\[\]#]+)\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*(?:\.[^=]*)?=")
_INLINE_ARRAY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*\[\s*(?:#.*)?$")


@dataclass
class _Section:
    line: int
    keys: dict[str, int] = field(default_factory=dict)


class _Lines:
    """Line numbers of tables, array-of-tables entries and keys, found by scanning the text.

    Handles ``[table]``, ``[[array]]`` and one-entry-per-line inline arrays
    (``players = [`` then ``{ ... },`` lines, as tomli-w writes them); anything else
    simply has no known line.  The text is scanned when a line is first asked for (a refusal).
    """

    def __init__(self, text: str) -> None:
        self._text = text
        self._found: tuple[dict[str, _Section], dict[str, list[_Section]]] | None = None

    @property
    def tables(self) -> dict[str, _Section]:
        return self._scanned()[0]

    @property
    def entries(self) -> dict[str, list[_Section]]:
        return self._scanned()[1]

    def _scanned(self) -> tuple[dict[str, _Section], dict[str, list[_Section]]]:
        """The text scanned on the first question: a file read without a refusal asks none."""
        if self._found is None:
            self._found = self._scan(self._text)
        return self._found

    @staticmethod
    def _scan(text: str) -> tuple[dict[str, _Section], dict[str, list[_Section]]]:
        tables: dict[str, _Section] = {}
        entries: dict[str, list[_Section]] = defaultdict(list)
        current: _Section | None = None
        array_name: str | None = None  # inside a multi-line inline array ``name = [``
        table_name = ""
        for number, line in enumerate(text.split("\n"), start=1):
            stripped = line.strip()
            if array_name is not None:
                if stripped.startswith("{"):
                    entry = _Section(number)
                    for key in re.findall(r"[{,]\s*([A-Za-z0-9_-]+)\s*=", stripped):
                        entry.keys.setdefault(key, number)
                    entries[array_name].append(entry)
                elif stripped.startswith("]"):
                    array_name = None
                continue
            header = _HEADER.match(line)
            if header:
                name = "".join(header.group(2).replace('"', "").split())
                if header.group(1) == "[[":
                    current = _Section(number)
                    entries[name].append(current)
                    table_name = name
                elif "." in name and name.split(".")[0] == table_name and entries.get(table_name):
                    pass  # a sub-table of the current array entry, e.g. [games.fouls]
                else:
                    current = tables.setdefault(name, _Section(number))
                    table_name = name
                continue
            inline = _INLINE_ARRAY.match(line)
            if inline and table_name == "":
                array_name = inline.group(1)
            key = _KEY.match(line)
            if key:
                name = key.group(1).strip('"')
                if current is None:
                    tables.setdefault("", _Section(1)).keys.setdefault(name, number)
                else:
                    current.keys.setdefault(name, number)
        return tables, entries

    def table(self, name: str, key: str | None = None) -> int | None:
        section = self.tables.get(name)
        if section is None:
            return None
        return section.keys.get(key, section.line) if key else section.line

    def entry(self, name: str, index: int, key: str | None = None) -> int | None:
        found = self.entries.get(name, [])
        if index >= len(found):
            return self.table("", name)
        section = found[index]
        return section.keys.get(key, section.line) if key else section.line
