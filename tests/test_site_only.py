"""A build from config.toml builds what changed (``site_builder.sources``): ``--only SLUG`` builds
that tournament and leaves every other tournament's pages byte for byte (the same files,
linked from the previous build); a build with nothing new stops at once and makes no build;
the tournaments whose log moved are built, the others kept; what every page depends on
(settings, theme, Tiebreak's code) or a previous build that lost a file means everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ranking import Event, EventKind, Result, result_event
from site_builder import build_from_config, publish_from_config
from tiebreak.config import load_config
from tiebreak.library import open_store
from tiebreak.store import Source

EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"
FILES = {"rr": EXAMPLES / "xiangqi-rr.toml", "swiss": EXAMPLES / "chess-swiss.trf"}
LANGUAGES = ("en", "zh", "vi", "es")
CLI = Source("cli:test")


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """Two tournaments in a store (``rr`` and ``swiss``), the site in four languages, published to a folder."""
    path = tmp_path / "config.toml"
    path.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"',
        "[site]", 'out_dir = "public"', f"languages = {json.dumps(list(LANGUAGES))}",
        'base_url = "https://results.example.org/"',
        "[publish]", 'target = "dir"', 'path = "www"', ""]), encoding="utf-8")
    from tiebreak.files import load_tournament
    with open_store(load_config(path)) as store:
        for slug, file in FILES.items():
            store.create(slug, load_tournament(file), CLI)
    return path


def files_of(folder: Path, slug: str) -> dict[str, tuple[int, int, bytes]]:
    """Every file of tournament ``slug`` in the site at ``folder``, in every language: (inode, mtime, bytes)."""
    found = {}
    for language in LANGUAGES:
        top = folder / ("" if language == "en" else language) / slug
        for path in sorted(top.rglob("*")):
            if path.is_file():
                status = path.stat()
                found[path.relative_to(folder).as_posix()] = (status.st_ino, status.st_mtime_ns, path.read_bytes())
    return found


def change(config: Path, slug: str, round_number: int, board: int) -> None:
    """Turn the result of ``board`` in ``round_number`` of ``slug`` around (a correction)."""
    with open_store(load_config(config)) as store:
        game = store.state(slug).game(round_number, board)
        turned = Result.BLACK_WINS if game.result is not Result.BLACK_WINS else Result.WHITE_WINS
        store.append(slug, lambda state: [result_event(state, round_number, board, turned, correct=True)], CLI)


def test_only_builds_that_tournament_and_leaves_every_other_page_byte_for_byte(config: Path) -> None:
    site = config.parent / "public"
    first = build_from_config(str(config))
    assert set(first.built) == {"rr", "swiss"}
    swiss_before, rr_before = files_of(site, "swiss"), files_of(site, "rr")
    change(config, "rr", 9, 1)
    change(config, "swiss", 7, 1)  # also changed, but not asked for
    report = build_from_config(str(config), only=["rr"])
    assert report.built == ("rr",) and not report.unchanged
    assert files_of(site, "swiss") == swiss_before  # the same files: inode, time and bytes
    rr_after = files_of(site, "rr")
    assert rr_after.keys() == rr_before.keys()
    assert {path for path in rr_after if rr_after[path] != rr_before[path]} >= {
        f"{prefix}rr/round-9.html" for prefix in ("", "zh/", "vi/", "es/")}
    assert report.pages == first.pages and report.rendered < first.rendered
    # the next build without --only builds the tournament --only left as it was, and only it
    later = build_from_config(str(config))
    assert later.built == ("swiss",)
    assert files_of(site, "rr") == rr_after
    assert files_of(site, "swiss")["swiss/round-7.html"] != swiss_before["swiss/round-7.html"]


def test_a_build_with_nothing_new_stops_at_once_and_makes_no_build(config: Path) -> None:
    site = config.parent / "public"
    build_from_config(str(config))
    current, folders = site.resolve(), sorted(site.parent.glob(".public.build-*"))
    for only in ([], ["rr"]):
        report = build_from_config(str(config), only=only)
        assert report.unchanged and report.built == () and report.rendered == 0
        assert report.pages == report.reused > 0
        assert site.resolve() == current and sorted(site.parent.glob(".public.build-*")) == folders
    # an event that changes nothing the site shows still moves the log: that tournament is built
    with open_store(load_config(config)) as store:
        store.append("swiss", lambda state: [Event(EventKind.ARBITER_ADDED, {"user_id": 7})], CLI)
    report = build_from_config(str(config))
    assert report.built == ("swiss",) and report.rendered == 0 and site.resolve() != current


def test_the_command_line_takes_only_and_refuses_an_unknown_tournament(config: Path) -> None:
    def run(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "site_builder", *arguments, "--config", str(config)],
                              capture_output=True, text=True, timeout=300, cwd=config.parent)

    done = run("publish")
    assert done.returncode == 0, done.stderr
    change(config, "swiss", 7, 2)
    done = run("publish", "--only", "swiss")
    assert done.returncode == 0, done.stderr
    assert "published" in done.stdout
    page = (config.parent / "www" / "swiss" / "round-7.html").read_text(encoding="utf-8")
    assert page == (config.parent / "public" / "swiss" / "round-7.html").read_text(encoding="utf-8")
    done = run("build")
    assert done.returncode == 0 and "nothing new since the last build" in done.stdout, done.stdout
    done = run("build", "--only", "nowhere")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "python -m site_builder: error: no tournament 'nowhere' in the store (tournaments: rr, swiss)"]


def test_a_publish_with_nothing_new_publishes_the_site_as_it_is(config: Path) -> None:
    publish_from_config(str(config))
    line = publish_from_config(str(config))
    assert "(0 written)" in line and "no change" in line
    www = config.parent / "www"
    (www / "rr" / "index.html").unlink()  # saved by an editor as a new file
    (www / "rr" / "index.html").write_text("edited by hand", encoding="utf-8")
    # the next build with nothing new still publishes: the page edited by hand is replaced
    line = publish_from_config(str(config))
    assert "1 uploaded" in line
    page = (www / "rr" / "index.html").read_bytes()
    assert page == (config.parent / "public" / "rr" / "index.html").read_bytes() and b"edited by hand" not in page


def test_what_every_page_depends_on_changed_means_everything_is_built(config: Path) -> None:
    build_from_config(str(config))
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('base_url = "https://results.example.org/"',
                                   'base_url = "https://standings.example.org/"'), encoding="utf-8")
    report = build_from_config(str(config), only=["rr"])  # a setting changed: --only cannot keep the others
    assert set(report.built) == {"rr", "swiss"}
    page = (config.parent / "public" / "swiss" / "round-1.html").read_text(encoding="utf-8")
    assert "https://standings.example.org/swiss/index.html" in page  # the QR code's text


def test_a_file_gone_from_the_previous_build_means_everything_is_built(config: Path) -> None:
    site = config.parent / "public"
    build_from_config(str(config))
    os.unlink(site.resolve() / "zh" / "swiss" / "players" / "3.html")  # removed by hand
    change(config, "rr", 9, 2)
    report = build_from_config(str(config), only=["rr"])
    assert set(report.built) == {"rr", "swiss"}
    assert (site / "zh" / "swiss" / "players" / "3.html").is_file()


def test_an_archived_tournament_leaves_the_site_and_the_root_index(config: Path) -> None:
    site = config.parent / "public"
    build_from_config(str(config))
    with open_store(load_config(config)) as store:
        store.append("rr", lambda state: [Event(EventKind.ARCHIVED)], CLI)
    report = build_from_config(str(config))
    assert report.built == () and not report.unchanged
    assert not (site / "rr").exists() and (site / "swiss" / "index.html").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="swiss/index.html"' in index and 'href="rr/index.html"' not in index


def test_each_publish_after_a_result_is_what_a_build_from_scratch_makes(config: Path) -> None:
    """Publish after publish, each after a result (the builds recycle their folder and the `dir`
    publisher brings the folder it swapped out up to date from the build), the published site is
    byte for byte a build from scratch of the same store."""
    from site_builder.publishers import site_files

    www = config.parent / "www"
    publish_from_config(str(config))
    for number, (slug, round_number, board) in enumerate([("swiss", 7, 1), ("rr", 9, 1), ("swiss", 7, 2),
                                                          ("swiss", 6, 3)]):
        change(config, slug, round_number, board)
        line = publish_from_config(str(config))
        assert "(0 written)" not in line and "no change" not in line, line
        fresh = config.parent / f"fresh-{number}" / "public"
        build_from_config(str(config), out_dir=fresh)
        published = {name: (www / name).read_bytes() for name in site_files(www)}
        assert published == {name: (fresh / name).read_bytes() for name in site_files(fresh.resolve())}, number
    assert (config.parent / ".www.tiebreak-spare").is_dir()  # the later publishes made the site in it
