"""The bot's debounced site builds."""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.__main__ import site_trigger
from bot.site_trigger import DebouncedBuild, SiteCommand, SiteServer
from ranking import InputError
from tiebreak.config import load_config

EXAMPLE = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"


def _wait_for(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def test_the_first_request_builds_at_once_only_its_tournament() -> None:
    calls: list[tuple[float, frozenset[str]]] = []
    trigger = DebouncedBuild(lambda only: calls.append((time.monotonic(), only)))
    try:
        asked = time.monotonic()
        trigger.request("open")
        _wait_for(lambda: calls)
        assert calls[0][1] == frozenset({"open"}) and calls[0][0] - asked < 0.5  # no waiting for more results
        time.sleep(0.1)
        assert len(calls) == 1 and trigger.builds == 1
    finally:
        trigger.close()


def test_requests_during_a_build_are_coalesced_into_one_next_build_of_their_tournaments() -> None:
    started, release = threading.Event(), threading.Event()
    calls: list[frozenset[str]] = []

    def build(only: frozenset[str]) -> None:
        calls.append(only)
        if len(calls) == 1:
            started.set()
            release.wait(5)
            raise RuntimeError("disk full")

    trigger = DebouncedBuild(build)
    try:
        trigger.request("open")
        assert started.wait(5)
        for slug in ["rapid", "blitz"] * 10:  # a burst while the first build runs
            trigger.request(slug)
        release.set()
        _wait_for(lambda: len(calls) == 2)
        time.sleep(0.2)
        assert calls == [frozenset({"open"}), frozenset({"rapid", "blitz"})]
        assert trigger.builds == 1  # the failed build is logged, not counted, and did not stop the next
        trigger.request()  # no tournament named: every one
        _wait_for(lambda: len(calls) == 3)
        assert calls[2] == frozenset()
    finally:
        trigger.close()


def test_builds_start_no_closer_together_than_the_delay() -> None:
    calls: list[float] = []
    trigger = DebouncedBuild(lambda only: calls.append(time.monotonic()), delay=0.3)
    try:
        trigger.request("open")
        _wait_for(lambda: calls)
        trigger.request("open")
        trigger.request("open")
        _wait_for(lambda: len(calls) == 2)
        assert calls[1] - calls[0] >= 0.3 - 0.01
        time.sleep(0.4)
        assert len(calls) == 2
    finally:
        trigger.close()


def test_a_result_arriving_during_a_build_is_published_by_the_next_one(tmp_path: Path, monkeypatch) -> None:
    """The real store, builder and ``dir`` publisher: the second result is entered while the
    first one's build runs (after it read the store); that build publishes the first result
    only, and the next build, which the second result's request made due, publishes it."""
    from ranking import Result, result_event
    from site_builder import publish_from_config, site
    from tiebreak.library import import_configured, open_store
    from tiebreak.store import Source

    config_path = _config(tmp_path, publish=True)
    config = load_config(str(config_path))
    with open_store(config) as store:
        import_configured(store, config)
        slug = store.slugs()[0]
        new = {board: Result.BLACK_WINS if store.state(slug).game(9, board).result is Result.DRAW else Result.DRAW
               for board in (1, 2)}
    shown = {Result.DRAW: "1-1", Result.BLACK_WINS: "0-2"}  # xiangqi's points, as the round page writes them
    publish_from_config(str(config_path))  # the site as it is, online
    reading, release = threading.Event(), threading.Event()
    real_build_site = site.build_site

    def slow_build_site(tournaments, *args, **kwargs):  # the tournaments are read: hold the build here
        if not reading.is_set():
            reading.set()
            release.wait(30)
        return real_build_site(tournaments, *args, **kwargs)

    monkeypatch.setattr(site, "build_site", slow_build_site)

    def enter(board: int) -> None:
        with open_store(config) as store:
            store.append(slug, lambda state: [result_event(state, 9, board, new[board], correct=True)],
                         Source("cli:test"))
        trigger.request(slug)

    page = tmp_path / "published" / slug / "round-9.html"
    before = page.read_text(encoding="utf-8")
    trigger = DebouncedBuild(lambda only: publish_from_config(str(config_path), only=only))
    try:
        enter(1)
        assert reading.wait(30)  # the first build has read the store: board 1's result, not what comes next
        enter(2)
        release.set()
        trigger.flush(120)
        assert trigger.builds == 2
    finally:
        trigger.close()
    published = page.read_text(encoding="utf-8")
    boards = dict(re.findall(r'<th scope="row" class="board">(\d+)</th>.*?<td class="result">([^<]*)</td>',
                             published, re.S))
    assert (boards["1"], boards["2"]) == (shown[new[1]], shown[new[2]]) and published != before  # both published


def _config(tmp_path: Path, publish: bool) -> Path:
    lines = ["[storage]", 'path = "store.sqlite3"', "[site]", 'out_dir = "public"', 'languages = ["en"]',
             "build_delay = 0.05"]
    if publish:
        lines += ["[publish]", 'target = "dir"', 'path = "published"']
    lines += [f"[[tournaments]]\nfile = {json.dumps(str(EXAMPLE))}", ""]
    config = tmp_path / "config.toml"
    config.write_text("\n".join(lines), encoding="utf-8")
    return config


def test_the_bot_publishes_through_its_site_server_when_publish_is_configured(tmp_path: Path) -> None:
    config_path = _config(tmp_path, publish=True)
    trigger = site_trigger(str(config_path), load_config(str(config_path)))
    assert trigger is not None
    try:
        trigger.start()  # as the bot does at start-up: the server warms up before the first result
        assert isinstance(trigger._build, SiteServer) and trigger._build.pid is not None
        trigger.request("example-xiangqi-rr")  # imported from config.toml by the first build
        deadline = time.monotonic() + 120
        while trigger.builds < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert trigger.builds == 1
        server = trigger._build
        assert isinstance(server, SiteServer) and server.pid is not None
    finally:
        trigger.close()
    assert server.pid is None  # closing the trigger stops its server
    assert (tmp_path / "public" / "index.html").is_file()
    published = tmp_path / "published" / "example-xiangqi-rr"
    assert (published / "standings.json").read_bytes() == (
        tmp_path / "public" / "example-xiangqi-rr" / "standings.json").read_bytes()


def test_the_bot_only_builds_without_publish_and_reports_a_failing_build(tmp_path: Path, caplog) -> None:
    config_path = _config(tmp_path, publish=False)
    trigger = site_trigger(str(config_path), load_config(str(config_path)))
    command = trigger._build
    assert isinstance(command, SiteServer) and (command.command, command.config_path) == ("build", str(config_path))
    try:
        assert command().startswith("built ")
        assert not (tmp_path / "published").exists()
        config_path.write_text(config_path.read_text(encoding="utf-8").replace('languages = ["en"]',
                                                                               'languages = ["xx"]'), encoding="utf-8")
        with pytest.raises(RuntimeError, match=r"site_builder build exited with 2: .*\[site\]\.languages"):
            command()
    finally:
        trigger.close()


def test_no_site_section_no_builds(tmp_path: Path) -> None:
    config_path = tmp_path / "config.toml"
    config_path.write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    assert site_trigger(str(config_path), load_config(str(config_path))) is None


def test_flush_builds_what_is_due_now_and_nothing_else() -> None:
    calls = []
    trigger = DebouncedBuild(lambda only: calls.append(only), delay=60)
    try:
        trigger.flush()
        assert calls == []  # nothing was due
        trigger.request("open")
        trigger.flush()
        assert calls == [frozenset({"open"})]
        trigger.request("open")  # due in a minute (the delay between builds)...
        trigger.flush(10)
        assert len(calls) == 2  # ...made at once by flush
        trigger.flush()
        assert len(calls) == 2 and trigger.builds == 2
    finally:
        trigger.close()


def test_flush_waits_for_a_running_build_and_then_builds_what_arrived_meanwhile() -> None:
    started, release = threading.Event(), threading.Event()
    calls = []

    def build(only: frozenset[str]) -> None:
        calls.append(len(calls) + 1)
        if len(calls) == 1:
            started.set()
            release.wait(5)

    trigger = DebouncedBuild(build, delay=0.01)
    try:
        trigger.request()
        assert started.wait(5)
        trigger.request()  # during the build: one more is due
        threading.Timer(0.2, release.set).start()
        trigger.flush()
        assert calls == [1, 2]
    finally:
        trigger.close()


def test_a_build_delay_that_is_no_number_of_seconds_is_refused(tmp_path: Path) -> None:
    config_path = _config(tmp_path, publish=False)
    config_path.write_text(config_path.read_text(encoding="utf-8").replace("build_delay = 0.05",
                                                                           'build_delay = "2s"'), encoding="utf-8")
    with pytest.raises(InputError, match=r"\[site\]\.build_delay must be a number of seconds"):
        site_trigger(str(config_path), load_config(str(config_path)))


def test_the_site_build_the_bot_starts_never_gets_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456789:AAH-secret")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TIEBREAK_KEPT", "yes")
    shows = "import json, os, sys; print(json.dumps({'argv': sys.argv[1:], 'env': dict(os.environ)}))"
    command = SiteCommand("build", "config.toml", program=(sys.executable, "-c", shows))
    seen = json.loads(command())
    assert seen["argv"] == ["build", "--config", "config.toml"]
    assert json.loads(command(frozenset({"rapid", "blitz"})))["argv"] == [
        "build", "--config", "config.toml", "--only", "blitz", "--only", "rapid"]
    assert seen["env"]["TIEBREAK_KEPT"] == "yes"
    assert [name for name in seen["env"] if name.startswith("TELEGRAM")] == []
    assert "AAH-secret" not in json.dumps(seen)
