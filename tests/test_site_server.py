"""The bot's warm site process (``python -m site_builder serve``, ``bot.site_trigger.SiteServer``),
through real processes: the site it builds is the one a fresh process builds, a failed or killed
build leaves the previous site online, a killed server is started again on the next build, and
the Telegram token never reaches it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.site_trigger import SiteCommand, SiteServer

EXAMPLE = Path(__file__).resolve().parent.parent / "ranking" / "examples" / "xiangqi-rr.toml"


def _config(folder: Path, publish: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"', "[site]", 'out_dir = "public"', 'languages = ["en", "zh"]',
        publish, f"[[tournaments]]\nfile = {json.dumps(str(EXAMPLE))}", ""]), encoding="utf-8")
    return config


# the build's caches and record for the next build: their order is a set's, the record names its store
CACHES = {".ranks.json", ".qr.json", ".sources.json"}


def _files(folder: Path) -> dict[str, bytes]:
    """Every file of the site (its pages, downloads and manifest), by path."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name not in CACHES}


def _wait_for(check, what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


@pytest.fixture
def servers() -> Iterator[list[SiteServer]]:
    """The servers a test starts, stopped at its end however it ends."""
    made: list[SiteServer] = []
    yield made
    for server in made:
        server.close()


def test_a_build_through_the_server_is_the_build_of_a_fresh_process(tmp_path: Path, servers) -> None:
    fresh, warm = _config(tmp_path / "fresh"), _config(tmp_path / "warm")
    assert SiteCommand("build", str(fresh))().startswith("built ")
    server = SiteServer("build", str(warm))
    servers.append(server)
    assert server().startswith("built ")
    assert server.cpu > 0
    assert _files(tmp_path / "warm" / "public") == _files(tmp_path / "fresh" / "public")
    first = server.pid
    assert server().startswith("built ") and server.pid == first  # one server, a child per build


def test_a_killed_server_is_started_again_on_the_next_build(tmp_path: Path, servers) -> None:
    config = _config(tmp_path)
    server = SiteServer("build", str(config))
    servers.append(server)
    server()
    first = server.pid
    os.kill(first, signal.SIGKILL)
    _wait_for(lambda: server.pid is None, "the server's death seen")
    assert server().startswith("built ")
    assert server.pid is not None and server.pid != first
    assert (tmp_path / "public" / "index.html").is_file()


def test_the_server_and_its_builds_never_get_the_token(tmp_path: Path, servers,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456789:AAH-secret")
    monkeypatch.setenv("TIEBREAK_KEPT", "yes")
    seen = tmp_path / "seen-env.json"
    shows = f"import json, os; json.dump(dict(os.environ), open({str(seen)!r}, 'w'))"
    config = _config(tmp_path, "\n".join(["[publish]", 'target = "command"',
                                          f"command = {json.dumps(f'{sys.executable} -c {chr(34)}{shows}{chr(34)}')}"]))
    server = SiteServer("publish", str(config))
    servers.append(server)
    server()
    environment = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
    assert b"TIEBREAK_KEPT=yes" in environment
    assert [entry for entry in environment if entry.startswith(b"TELEGRAM")] == []
    published = json.loads(seen.read_text(encoding="utf-8"))  # what the build's publisher got
    assert published["TIEBREAK_KEPT"] == "yes"
    assert [name for name in published if name.startswith("TELEGRAM")] == []


def test_a_failed_build_keeps_the_old_site_and_the_server(tmp_path: Path, servers) -> None:
    config = _config(tmp_path)
    server = SiteServer("build", str(config))
    servers.append(server)
    server()
    site = tmp_path / "public"
    before, target, first = _files(site), os.readlink(site), server.pid
    config.write_text(config.read_text(encoding="utf-8").replace('"zh"]', '"xx"]'), encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"site_builder build exited with 2: .*\[site\]\.languages"):
        server()
    assert os.readlink(site) == target and _files(site) == before
    assert server.pid == first  # a failed build is an answer, not the server's end


def test_a_build_killed_with_its_server_keeps_the_old_site(tmp_path: Path, servers) -> None:
    config = _config(tmp_path)
    server = SiteServer("publish", str(config))
    servers.append(server)
    started = tmp_path / "publish-started"
    config.write_text(config.read_text(encoding="utf-8") + "\n".join([
        "[publish]", 'target = "command"',
        f"command = {json.dumps(f'sh -c {chr(39)}touch {started}; sleep 60{chr(39)}')}",
        ""]), encoding="utf-8")
    build = SiteCommand("build", str(config))
    build()
    site = tmp_path / "public"
    before = _files(site)
    errors: list[BaseException] = []

    def publish() -> None:
        try:
            server()
        except RuntimeError as error:
            errors.append(error)

    thread = threading.Thread(target=publish)
    thread.start()
    _wait_for(started.exists, "the publish's command started")
    os.killpg(server.pid, signal.SIGKILL)  # the server, its build and the build's publisher
    thread.join(60)
    assert not thread.is_alive()
    assert len(errors) == 1 and "python -m site_builder serve ended during the publish" in str(errors[0])
    assert _files(site) == before  # the store did not change: the site is the one before, whole
    config.write_text(config.read_text(encoding="utf-8").replace("sleep 60", "true"), encoding="utf-8")
    assert server().startswith("built ")  # a new server, and the site lock the killed build held is free


def test_the_server_answers_each_request_line(tmp_path: Path) -> None:
    config = _config(tmp_path)
    requests = "\n".join([json.dumps(["build", "--config", str(config)]), "not json", json.dumps(["serve"]),
                          json.dumps(["build", "--config", str(tmp_path / "missing.toml")]), ""])
    done = subprocess.run([sys.executable, "-m", "site_builder", "serve"], input=requests, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["returncode"] for answer in answers] == [0, 2, 2, 2]
    assert answers[0]["stdout"].startswith("built ")
    assert "not a request" in answers[1]["stderr"] and "not a request" in answers[2]["stderr"]
    assert "no such configuration file" in answers[3]["stderr"]


def test_a_build_that_takes_too_long_is_killed_with_its_server(tmp_path: Path, servers) -> None:
    started = tmp_path / "publish-started"
    config = _config(tmp_path, "\n".join([
        "[publish]", 'target = "command"',
        f"command = {json.dumps(f'sh -c {chr(39)}touch {started}; sleep 60{chr(39)}')}"]))
    server = SiteServer("publish", str(config), timeout=1.0)
    servers.append(server)
    with pytest.raises(RuntimeError, match="python -m site_builder serve took longer than 1 s during the publish"):
        server()
    assert server.pid is None  # killed, with its process group (the build, its publisher)
    config.write_text(config.read_text(encoding="utf-8").replace("sleep 60", "true"), encoding="utf-8")
    server.timeout = 600.0
    assert server().startswith("built ")  # a new server; the killed build's site lock is free
