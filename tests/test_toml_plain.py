"""The plain-layout TOML reader (``ranking.formats.toml_plain``) gives exactly what tomllib gives,
or None: never other tables, never a file tomllib refuses."""

from __future__ import annotations

import random
import tomllib

from generators import generate_swiss

from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.toml_plain import read_plain_toml


def typed(value: object) -> object:
    """The value with every leaf's type beside it (True == 1 in Python)."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    return type(value).__name__, value


def test_the_written_layout_is_read_as_tomllib_reads_it() -> None:
    for seed in range(4):
        text = write_tournament_toml(generate_swiss(20 + 9 * seed, 5 + seed, seed=seed))
        data = read_plain_toml(text)
        assert data is not None
        assert typed(data) == typed(tomllib.loads(text))


def test_other_lines_give_tomllibs_tables_or_none() -> None:
    base = write_tournament_toml(generate_swiss(12, 4, seed=3)).split("\n")
    odd = ["[players]", "[[tournament]]", "id = 01", "id = +1", 'name = "a\\tb"', 'name = "a\tb"', "name = 'x'",
           "a = 1 # note", "[[ players ]]", "[games.fouls]", "fouls = { black = 1 }", "r = 1.0", "d = 2026-01-01",
           'name = "é"', 'k = "x" y', '"q" = 1', "a.b = 1", "  id = 1", "id=1", "", " ", "# c", "x = [1,", "]",
           "id = 99999999999999999999", "t = true", "t = True", "\x0c", 'name = "a\x7f"', "[tournament]",
           "[[players]]", "id = 1", "name = \"a\"\r", "[[players]", "[players", "[]"]
    chance = random.Random(7)
    read = 0
    for _ in range(600):
        lines = list(base)
        for _ in range(chance.randint(1, 3)):
            lines.insert(chance.randrange(len(lines) + 1), chance.choice(odd))
        text = "\n".join(lines)
        data = read_plain_toml(text)
        if data is not None:
            read += 1
            assert typed(data) == typed(tomllib.loads(text)), text
    assert 0 < read < 600
