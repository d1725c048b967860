"""Fixtures the bot's tests share: a store in a temporary folder, and the bot over it with the
xiangqi round robin's round 1 paired (a module defines its own ``store`` or ``service`` when
it needs another)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot import arbiters
from bot.service import BotService, BotSettings, Who
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

XIANGQI = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"
CHIEF = 1001  # the chief arbiter of ``service``
SLUG = "xq"  # the tournament of ``service``


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    """The xiangqi round robin, round 1 paired (boards 1-10, 2-9, 3-8, 4-7, 5-6), no result yet."""
    store.create(SLUG, replace(load_tournament(XIANGQI), games=()), Source("cli:test"))
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
    arbiters.pair(service, Who(CHIEF, CHIEF))
    return service
