"""Slugs that would be one folder of the site on some hosts (issue 21): a new slug that differs
from a stored one only in case (``Open``, ``open``), archived ones included, and a slug ending
in ``.`` (Windows and many file servers drop it) are refused in one line; nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_import_checks import refused, stored
from test_store_faults import configure, tiebreak

from bot import tournament_files
from bot.service import BotService, BotSettings, Who
from ranking.errors import InputError
from ranking.event.refusals import Code, Refusal
from ranking.event.slugs import is_slug
from ranking.formats.tomlfile import parse_tournament_toml
from site_builder.plan import slug_problem
from tiebreak.checks import check_slug
from tiebreak.files import load_tournament
from tiebreak.library import slug_for
from tiebreak.store import SQLiteStore

EXAMPLES = Path(__file__).resolve().parent.parent / "ranking" / "examples"
SWISS, XIANGQI = EXAMPLES / "chess-swiss.trf", EXAMPLES / "xiangqi-rr.toml"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return configure(tmp_path, "store.sqlite3")


@pytest.mark.parametrize("other", ["open", "OPEN", "oPeN"])
def test_a_slug_that_differs_from_a_stored_one_only_in_case_is_refused(config: Path, other: str) -> None:
    assert tiebreak(config, "import", str(SWISS), "--slug", "Open").returncode == 0
    line = refused(tiebreak(config, "import", str(XIANGQI), "--slug", other))
    assert line == (f"tiebreak: error: a tournament 'Open' already exists and {other!r} differs from it only in "
                    "case, which many hosts ignore (one folder of the site for both); choose another --slug")
    assert stored(config) == ["Open"]


def test_an_archived_tournament_keeps_its_slug_in_every_case(config: Path) -> None:
    assert tiebreak(config, "import", str(SWISS), "--slug", "open").returncode == 0
    assert tiebreak(config, "archive", "open").returncode == 0
    refused(tiebreak(config, "import", str(XIANGQI), "--slug", "Open"), "differs from it only in case")
    assert stored(config) == ["open"]


@pytest.mark.parametrize("slug", ["x.", "open..", "2026."])
def test_a_slug_ending_with_a_dot_is_refused(config: Path, slug: str) -> None:
    line = refused(tiebreak(config, "import", str(SWISS), "--slug", slug))
    assert line == (f"tiebreak: error: {SWISS}: the slug {slug!r} ends with '.', which Windows and many file servers "
                    f"drop (it would be the folder {slug.rstrip('.')!r}): choose another --slug")
    assert stored(config) == []


def test_the_bot_refuses_them_too(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "bot.sqlite3") as store:
        service = BotService(store, BotSettings(arbiters=frozenset({1001})))
        chief = Who(1001, 1001, "en")
        assert tournament_files.import_file(service, chief, "open.trf", SWISS.read_bytes(), "open")[0].text.startswith(
            "Imported")
        for slug, reason in (("OPEN", "differs from it only in case"), ("x.", "ends with '.'")):
            [reply] = tournament_files.import_file(service, chief, "xq.toml", XIANGQI.read_bytes(), slug)
            assert reply.text.startswith("Refused: ") and reason in reply.text, reply.text
        assert store.slugs() == ["open"]


# -- one slug rule (issue 26): every caller asks ranking.event.slugs.is_slug ----------------------

NOT_SLUGS = ["abc\n", "abc\r\n", "\nabc", "-abc", ".abc", "a b", "a/b", ""]


@pytest.mark.parametrize("slug", NOT_SLUGS)
def test_a_slug_with_a_line_break_or_a_wrong_character_is_refused_on_import(config: Path, slug: str) -> None:
    line = refused(tiebreak(config, "import", str(SWISS), f"--slug={slug}"))
    assert "use letters, digits, '.', '-' and '_'" in line
    assert stored(config) == []


@pytest.mark.parametrize("slug", NOT_SLUGS)
def test_every_caller_refuses_what_the_one_rule_refuses(slug: str) -> None:
    assert not is_slug(slug)
    with pytest.raises(Refusal) as given:
        slug_for(load_tournament(SWISS), "f.toml", slug)
    assert given.value.code is Code.SLUG_INVALID
    with pytest.raises(Refusal) as checked:
        check_slug(slug)
    assert checked.value.code is Code.SLUG_INVALID
    assert "is not letters, digits" in (slug_problem(slug) or "")
    toml = XIANGQI.read_text(encoding="utf-8").replace('slug = "example-xiangqi-rr"', f"slug = {json.dumps(slug)}")
    with pytest.raises(InputError, match=r"slug = .*expected letters, digits"):
        parse_tournament_toml(toml)


@pytest.mark.parametrize("slug", ["abc", "Open_A.2", "2026-hanoi"])
def test_every_caller_accepts_a_slug(slug: str) -> None:
    assert is_slug(slug)
    assert slug_for(load_tournament(SWISS), "f.toml", slug) == slug
    check_slug(slug)
    assert slug_problem(slug) is None
    toml = XIANGQI.read_text(encoding="utf-8").replace('slug = "example-xiangqi-rr"', f"slug = {json.dumps(slug)}")
    assert ("slug", slug) in parse_tournament_toml(toml).records
