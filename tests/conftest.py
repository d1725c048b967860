"""Hypothesis runs the same examples every time; the tests are marked by what they use
(``process``, ``browser``, ``slow``: ``markers.py``); fixtures the bot's tests share: a store in a
temporary folder, and the bot over it with the xiangqi round robin's round 1 paired (a module
defines its own ``store`` or ``service`` when it needs another)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import settings
from markers import mark_by_use, processes_are_marked

from bot import running
from bot.service import BotService, BotSettings, Who
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

# Every run tries the same examples, so a test fails on every machine or on none (a flaky
# test is a failing one); HYPOTHESIS_PROFILE=explore draws new examples each run.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

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
    running.pair(service, Who(CHIEF, CHIEF))
    return service


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mark_by_use(items, config.args)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the collection made (modules, tests, their parameters) lives until the end: the
    garbage collector stops scanning it again on each collection during the run (a tenth of
    the fast tests' CPU time)."""
    gc.freeze()


@pytest.fixture(autouse=True)
def _processes_are_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that starts a process without the ``process`` marker fails (``markers.py``)."""
    yield from processes_are_marked(request.node)
