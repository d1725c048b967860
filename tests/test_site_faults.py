"""The site under faults and hostile input (issue 10): concurrent builds, builds killed part-way,
the bot's token in the environment, names that spreadsheets would run, a tournament whose TRF
cannot be written, slugs that would hide the site's own paths."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import cli
import pytest

from ranking.event.model import Player, Tournament
from site_builder import SiteSettings, build_site, publish, settings_from_config
from site_builder.publishers import BUILD_MARKER, site_files
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
TOKEN = "123456:SECRET-token-of-the-bot"


@pytest.fixture(scope="module")
def example() -> Tournament:
    return load_tournament(EXAMPLE)


def write_config(folder: Path, languages: tuple[str, ...] = ("en",), publish: str = "") -> Path:
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"',
        "[site]", 'out_dir = "public"', f"languages = {json.dumps(list(languages))}",
        publish,
        "[[tournaments]]", f"file = {json.dumps(str(EXAMPLE))}", ""]), encoding="utf-8")
    return config


def site_works(out: Path, slug: str) -> None:
    """``out`` is a complete site: it resolves to a folder with the root index, the tournament's
    pages, and every build folder beside it is either the site or the one before it."""
    assert out.is_symlink() and out.resolve().is_dir()
    assert "<html" in (out / "index.html").read_text(encoding="utf-8")
    assert "<html" in (out / slug / "index.html").read_text(encoding="utf-8")
    assert (out / slug / "standings.json").is_file()


# -- two builds at once ------------------------------------------------------------------------

def test_two_concurrent_builds_leave_a_working_site_every_time(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    command = [sys.executable, "-m", "site_builder", "build", "--config", str(config)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "public"
    site_works(out, "example-xiangqi-rr")
    down: list[str] = []
    stop = threading.Event()

    def watch() -> None:  # a web server's view of the site while the builds run
        while not stop.is_set():
            try:
                if "<html" not in (out / "index.html").read_text(encoding="utf-8"):
                    down.append("index.html is incomplete")
            except OSError as error:
                down.append(str(error))
            time.sleep(0.002)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        for trial in range(10):
            builds = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                       cwd=tmp_path) for _ in range(2)]
            for build in builds:
                stdout, stderr = build.communicate(timeout=120)
                assert build.returncode == 0, f"trial {trial}: {stderr}"
                assert stdout.startswith("built ")
            site_works(out, "example-xiangqi-rr")
            builds_left = sorted(path.name for path in tmp_path.glob(".public.build-*"))
            assert len(builds_left) <= 2, builds_left  # the site and the one before it
            assert out.resolve().name in builds_left
    finally:
        stop.set()
        watcher.join()
    assert down == []


def test_folders_left_by_killed_builds_are_removed_once_and_the_site_never(tmp_path: Path, example) -> None:
    out = tmp_path / "public"
    settings = SiteSettings(out_dir=out)
    build_site({"rr": example}, settings)
    live = out.resolve()
    dead = [tmp_path / ".public.build-20260101000000-999999-1", tmp_path / ".public.build-20260101000001-4-2"]
    for folder in dead:
        (folder / "rr").mkdir(parents=True)
        (folder / BUILD_MARKER).write_text("a build writes it first", encoding="utf-8")
        (folder / "rr" / "index.html").write_text("half a page", encoding="utf-8")
    killed_at_once = tmp_path / ".public.build-20260101000002-5-3"  # killed before it wrote the marker
    killed_at_once.mkdir()
    (tmp_path / ".public.link-999999").symlink_to(dead[0].name)  # a swap that was killed
    report = build_site({"rr": example}, settings)
    assert report.rendered == 0  # nothing changed: the site is the same files
    assert not any(folder.exists() for folder in [*dead, killed_at_once])
    assert not (tmp_path / ".public.link-999999").is_symlink()
    assert live.is_dir() and out.resolve() != live  # the site before the swap is kept, as the one before
    site_works(out, "rr")
    kept = sorted(path.name for path in tmp_path.glob(".public.build-*"))
    assert len(kept) == 2 and live.name in kept


def test_the_folder_public_points_to_is_never_removed_even_if_it_is_not_the_newest(tmp_path: Path, example) -> None:
    out = tmp_path / "public"
    build_site({"rr": example}, SiteSettings(out_dir=out))
    first = out.resolve()
    build_site({"rr": dataclasses.replace(example, name="Renamed")}, SiteSettings(out_dir=out))
    second = out.resolve()
    # Someone points the site back at the first build by hand, then builds again.
    link = tmp_path / "by-hand"
    link.symlink_to(first.name)
    os.replace(link, out)
    build_site({"rr": dataclasses.replace(example, name="Renamed again")}, SiteSettings(out_dir=out))
    assert first.is_dir()  # the site's folder until the swap: kept as the one before
    assert not second.exists()
    site_works(out, "rr")


# -- the bot's token never reaches a publisher's program ------------------------------------------

ENV_DUMP = """\
import json, os, sys
with open(sys.argv[1], "a", encoding="utf-8") as dump:
    dump.write(json.dumps(sorted(os.environ)) + "\\n")
"""


def fake_program(folder: Path, name: str, dump: Path, then: str = "") -> Path:
    folder.mkdir(exist_ok=True)
    script = folder / f"{name}.py"
    script.write_text(ENV_DUMP + then, encoding="utf-8")
    program = folder / name
    program.write_text(f"#!/bin/sh\nexec {sys.executable} {script} {dump} \"$@\"\n", encoding="utf-8")
    program.chmod(0o755)
    return program


def dumped(dump: Path) -> list[list[str]]:
    return [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_API_BASE_URL", "http://127.0.0.1:9/")


@pytest.fixture
def small_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "rr").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>Tournaments</title>", encoding="utf-8")
    (site / "rr" / "index.html").write_text("<!doctype html><title>RR</title>", encoding="utf-8")
    return site


def test_the_command_publisher_runs_its_command_without_the_bots_variables(tmp_path: Path, small_site: Path,
                                                                            token: None) -> None:
    dump = tmp_path / "env.jsonl"
    program = fake_program(tmp_path / "bin", "deploy", dump)
    publish(small_site, settings_from_config({"target": "command", "command": f"{program} {{out}}"}, tmp_path),
            log=lambda message: None)
    [names] = dumped(dump)
    assert "TIEBREAK_SITE_DIR" in names and "PATH" in names
    assert not [name for name in names if name.startswith("TELEGRAM_")]


def test_the_rsync_publisher_runs_rsync_without_the_bots_variables(tmp_path: Path, small_site: Path, token: None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    dump = tmp_path / "env.jsonl"
    fake_program(tmp_path / "bin", "rsync", dump)
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    publish(small_site, settings_from_config({"target": "rsync", "destination": str(tmp_path / "copy")}, tmp_path),
            log=lambda message: None)
    [names] = dumped(dump)
    assert "PATH" in names and not [name for name in names if name.startswith("TELEGRAM_")]


def test_the_git_publisher_runs_git_and_ssh_without_the_bots_variables(tmp_path: Path, small_site: Path,
                                                                        token: None,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    dump = tmp_path / "env.jsonl"
    ssh = fake_program(tmp_path / "bin", "ssh", dump, then="sys.exit(255)\n")  # git's ssh: the remote refuses
    monkeypatch.setenv("GIT_SSH_COMMAND", str(ssh))
    settings = settings_from_config({"target": "git", "remote": "ssh://git@results.invalid/site.git",
                                     "retries": 0}, tmp_path)
    with pytest.raises(Exception, match="git"):
        publish(small_site, settings, log=lambda message: None)
    runs = dumped(dump)
    assert runs and all("GIT_SSH_COMMAND" in names for names in runs)
    assert not [name for names in runs for name in names if name.startswith("TELEGRAM_")]


def test_the_site_command_drops_the_bots_variables_before_it_runs_a_publisher(tmp_path: Path, token: None) -> None:
    dump = tmp_path / "env.jsonl"
    program = fake_program(tmp_path / "bin", "deploy", dump)
    config = write_config(tmp_path, publish=f'[publish]\ntarget = "command"\ncommand = "{program} {{out}}"')
    done = subprocess.run([sys.executable, "-m", "site_builder", "publish", "--config", str(config)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    [names] = dumped(dump)
    assert not [name for name in names if name.startswith("TELEGRAM_")]
    assert TOKEN not in done.stdout + done.stderr


# -- names a spreadsheet would run --------------------------------------------------------------

def test_csv_names_that_a_spreadsheet_would_run_are_quoted(tmp_path: Path) -> None:
    names = ["=HYPERLINK(\"http://x.invalid\",\"win\")", "+1+1", "-2+3", "@SUM(A1:A2)", "Plain, Name", "O'Neil"]
    players = tuple(Player(number, name, 2000 - number, federation="=1" if number == 1 else "VIE")
                    for number, name in enumerate(names, start=1))
    out = tmp_path / "public"
    build_site({"csv": Tournament("CSV", players, 0)}, SiteSettings(out_dir=out))
    raw = (out / "csv" / "standings.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    by_id = {int(row["id"]): row for row in rows}
    assert [by_id[number]["name"] for number in range(1, 7)] == [
        "'=HYPERLINK(\"http://x.invalid\",\"win\")", "'+1+1", "'-2+3", "'@SUM(A1:A2)", "Plain, Name", "O'Neil"]
    assert by_id[1]["federation"] == "'=1" and by_id[2]["federation"] == "VIE"
    assert all(not value.startswith(("=", "+", "-", "@")) for row in rows for value in row.values())


# -- one tournament's download cannot be made -----------------------------------------------------

def test_a_tournament_whose_trf_cannot_be_written_is_built_without_it(tmp_path: Path, example) -> None:
    players = list(example.players)
    players[0] = dataclasses.replace(players[0], rating=12000)  # beyond TRF's four columns
    broken = dataclasses.replace(example, players=tuple(players))
    out = tmp_path / "public"
    languages = ("en", "zh")
    report = build_site({"broken": broken, "fine": example}, SiteSettings(out_dir=out, languages=languages))
    assert list(report.skipped) == ["broken/broken.trf"]
    assert "rating 12000" in report.skipped["broken/broken.trf"]
    files = set(site_files(out))
    assert "broken/broken.trf" not in files and {"fine/fine.trf", "broken/standings.json"} <= files
    for folder in ("", "zh/"):
        page = (out / f"{folder}broken" / "index.html").read_text(encoding="utf-8")
        assert "broken.trf" not in page and "standings.csv" in page
        assert "fine.trf" in (out / f"{folder}fine" / "index.html").read_text(encoding="utf-8")
    # The next build says it again, and links the pages it made without the file.
    again = build_site({"broken": broken, "fine": example}, SiteSettings(out_dir=out, languages=languages))
    assert list(again.skipped) == ["broken/broken.trf"] and again.rendered == 0


def test_the_publish_command_says_which_download_it_left_out_and_publishes_the_rest(tmp_path: Path,
                                                                                   example) -> None:
    config = write_config(tmp_path, publish=f'[publish]\ntarget = "dir"\npath = "{tmp_path / "www"}"')
    players = list(example.players)
    players[0] = dataclasses.replace(players[0], rating=12000)  # beyond TRF's four columns
    with SQLiteStore(tmp_path / "store.sqlite3") as store:  # as a store filled before the import checked it
        store.create("broken", dataclasses.replace(example, players=tuple(players)), Source("test"))
    done = cli.site_builder("publish", "--config", config, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "python -m site_builder: left out broken/" in done.stderr  # its TRF (or all of it, if unreadable)
    assert "published" in done.stdout
    assert (tmp_path / "www" / "example-xiangqi-rr" / "example-xiangqi-rr.trf").is_file()
    assert not (tmp_path / "www" / "broken" / "broken.trf").exists()


# -- slugs that would hide the site's own paths ---------------------------------------------------

@pytest.mark.parametrize("slug", ["zh", "es", "index.html", "static", "open.json", "final.HTML",
                                  "x" * 65, "../up", ".hidden"])
def test_a_slug_that_collides_with_the_sites_own_paths_is_left_out(tmp_path: Path, example, slug: str) -> None:
    out = tmp_path / "public"
    settings = SiteSettings(out_dir=out, languages=("en", "zh", "vi", "es"))
    report = build_site({slug: example, "fine": example}, settings)
    assert list(report.skipped) == [f"{slug}/"]
    assert "left out of the site" in report.skipped[f"{slug}/"]
    site_works(out, "fine")
    assert (out / "zh" / "index.html").is_file() and (out / "static" / "style.css").is_file()
    assert (out / "index.html").read_text(encoding="utf-8").count(example.name) == 1  # only "fine" is listed
    assert not (tmp_path / "up").exists()
    shutil.rmtree(tmp_path / "public", ignore_errors=True)


def test_csv_cells_that_start_with_a_formula_after_spaces_are_quoted_too(tmp_path: Path) -> None:
    """Issue 21: spreadsheets skip leading spaces (and invisible format characters) before ``=``."""
    names = [" =1+1", "\u00a0\u3000+SUM(A1)", "\u200b-2+3", "  @cmd", "＝1+1", "\tTab", "Nguyễn =Văn", " Plain",
             "2=2", "Ａ+B"]  # a letter or digit first (full-width too): never a formula
    players = tuple(Player(number, name, 2000 - number) for number, name in enumerate(names, start=1))
    out = tmp_path / "public"
    build_site({"csv": Tournament("CSV", players, 0)}, SiteSettings(out_dir=out))
    rows = list(csv.DictReader(io.StringIO((out / "csv" / "standings.csv").read_text(encoding="utf-8-sig"))))
    quoted = {row["name"] for row in rows}
    assert quoted == {"' =1+1", "'\u00a0\u3000+SUM(A1)", "'\u200b-2+3", "'  @cmd", "'＝1+1", "'\tTab",
                      "Nguyễn =Văn", " Plain", "2=2", "Ａ+B"}
