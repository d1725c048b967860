"""The bot's debounced site builds."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.__main__ import site_trigger
from bot.site_trigger import DebouncedBuild, SiteCommand, SiteServer
from tiebreak.config import load_config

EXAMPLE = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"


def test_a_burst_of_requests_leads_to_one_build() -> None:
    done = threading.Event()
    calls = []

    def build() -> None:
        calls.append(time.monotonic())
        done.set()

    trigger = DebouncedBuild(build, delay=0.2)
    for _ in range(20):
        trigger.request("open")
    assert done.wait(5)
    time.sleep(0.4)
    assert len(calls) == 1


def test_a_request_during_a_build_leads_to_one_more_build_and_failures_are_contained() -> None:
    started = threading.Event()
    release = threading.Event()
    calls = []

    def build() -> None:
        calls.append(1)
        if len(calls) == 1:
            started.set()
            release.wait(5)
            raise RuntimeError("disk full")

    trigger = DebouncedBuild(build, delay=0.05)
    trigger.request()
    assert started.wait(5)
    trigger.request()
    trigger.request()
    release.set()
    deadline = time.monotonic() + 5
    while len(calls) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    assert len(calls) == 2
    assert trigger.builds == 1  # the failed build is logged, not counted, and did not stop the next


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
        trigger.request("example")
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
    trigger = DebouncedBuild(lambda: calls.append(1), delay=60)
    trigger.flush()
    assert calls == []  # nothing was due
    trigger.request("open")
    trigger.flush()
    assert calls == [1]  # at once, not in a minute
    time.sleep(0.1)
    trigger.flush()
    assert calls == [1] and trigger.builds == 1


def test_flush_waits_for_a_running_build_and_then_builds_what_arrived_meanwhile() -> None:
    started, release = threading.Event(), threading.Event()
    calls = []

    def build() -> None:
        calls.append(len(calls) + 1)
        if len(calls) == 1:
            started.set()
            release.wait(5)

    trigger = DebouncedBuild(build, delay=0.01)
    trigger.request()
    assert started.wait(5)
    trigger.request()  # during the build: one more is due
    threading.Timer(0.2, release.set).start()
    trigger.flush()
    assert calls == [1, 2]


def test_the_site_build_the_bot_starts_never_gets_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456789:AAH-secret")
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TIEBREAK_KEPT", "yes")
    shows = "import json, os, sys; print(json.dumps({'argv': sys.argv[1:], 'env': dict(os.environ)}))"
    command = SiteCommand("build", "config.toml", program=(sys.executable, "-c", shows))
    seen = json.loads(command())
    assert seen["argv"] == ["build", "--config", "config.toml"]
    assert seen["env"]["TIEBREAK_KEPT"] == "yes"
    assert [name for name in seen["env"] if name.startswith("TELEGRAM")] == []
    assert "AAH-secret" not in json.dumps(seen)
