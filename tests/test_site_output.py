"""A site build replaces only what a build made (issue 21): an existing folder with other files,
or a link to one, given as the output is refused in one line and left as it was; ``--out .``
is refused the same way; a full disk during a build is one line, exit status 1, and the site
online stays the previous one.  The command runs in-process (``tests/cli.py``: its exit status,
output and errors as a process gives them); a real process where the fault is the process's
own (a full disk, a file size limit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cli
import pytest

from site_builder import BuildError, SiteSettings, build_site
from site_builder.publishers import BUILD_MARKER
from tiebreak.files import load_tournament

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"
SLUG = "example-xiangqi-rr"


def write_config(folder: Path, out_dir: str = "public") -> Path:
    config = folder / "config.toml"
    config.write_text("\n".join([
        "[storage]", 'path = "store.sqlite3"', "[site]", f"out_dir = {json.dumps(out_dir)}", 'languages = ["en"]',
        "[[tournaments]]", f"file = {json.dumps(str(EXAMPLE))}", ""]), encoding="utf-8")
    return config


def site_build(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m site_builder build --config CONFIG ARGS`` in the configuration's folder, in-process."""
    return cli.site_builder("build", "--config", config, *args, cwd=config.parent)


def site_build_process(config: Path, prelude: str) -> subprocess.CompletedProcess[str]:
    """``python -m site_builder build --config CONFIG`` in a process of its own; ``prelude`` is
    Python run in that process first (a write that fails as on a full disk, a file size limit)."""
    program = f"{prelude}\nimport sys\nfrom site_builder.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.run([sys.executable, "-c", program, "build", "--config", str(config)],
                          capture_output=True, text=True, timeout=180, cwd=config.parent)


def one_line(result: subprocess.CompletedProcess[str], status: int) -> str:
    assert result.returncode == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    return line


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


def someone_elses(folder: Path) -> dict[str, bytes]:
    """A folder of someone else's files (a web root, a home page)."""
    (folder / "sub").mkdir(parents=True)
    (folder / "index.html").write_text("<h1>My club</h1>", encoding="utf-8")
    (folder / "notes.txt").write_text("do not lose me", encoding="utf-8")
    (folder / "sub" / "photo.jpg").write_bytes(b"\xff\xd8 jpeg")
    return files_of(folder)


@pytest.mark.parametrize("given", ["option", "config"])
def test_a_build_refuses_an_existing_folder_it_did_not_make_and_leaves_it_whole(tmp_path: Path, given: str) -> None:
    www = tmp_path / "www"
    before = someone_elses(www)
    config = write_config(tmp_path, "www" if given == "config" else "public")
    result = site_build(config, *(["--out", "www"] if given == "option" else []))
    line = one_line(result, 2)
    shown = "www" if given == "option" else str(www)
    assert line.startswith(f"python -m site_builder: error: the output '{shown}' is a folder that the site "
                           "builder did not make")
    assert BUILD_MARKER in line
    assert files_of(www) == before and not www.is_symlink()
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith(".www")] == []


def test_a_build_refuses_a_link_to_a_folder_it_did_not_make(tmp_path: Path) -> None:
    web_root = tmp_path / "srv-www"
    before = someone_elses(web_root)
    (tmp_path / "public").symlink_to(web_root)
    line = one_line(site_build(write_config(tmp_path)), 2)
    assert "is a link to " in line and str(web_root) in line
    assert files_of(web_root) == before
    assert os.readlink(tmp_path / "public") == str(web_root)


@pytest.mark.parametrize("out", [".", "..", "./"])
def test_the_current_folder_as_output_is_one_line_and_the_site_stays(tmp_path: Path, out: str) -> None:
    config = write_config(tmp_path)
    assert site_build(config).returncode == 0
    site = (tmp_path / "public").resolve()
    before = files_of(site)
    line = one_line(site_build(config, "--out", out), 2)
    assert "is the current folder or holds it" in line and "--out public" in line
    assert (tmp_path / "public").resolve() == site and files_of(site) == before
    assert (tmp_path / "config.toml").is_file() and (tmp_path / "store.sqlite3").is_file()


def test_an_empty_folder_and_a_builds_own_folder_are_replaced(tmp_path: Path) -> None:
    example = load_tournament(EXAMPLE)
    out = tmp_path / "public"
    out.mkdir()  # made by hand, empty: nothing to lose
    build_site({"rr": example}, SiteSettings(out_dir=out))
    assert out.is_symlink() and (out / "rr" / "index.html").is_file()
    own = out.resolve()
    assert (own / BUILD_MARKER).is_file()
    # A site built by a version that wrote no marker: the link to it is replaced, and the
    # clean-up removes it like any other build.
    (own / BUILD_MARKER).unlink()
    build_site({"rr": example}, SiteSettings(out_dir=out))
    build_site({"rr": example}, SiteSettings(out_dir=out))
    assert not own.exists()


def test_the_clean_up_leaves_folders_named_like_builds_that_no_build_made(tmp_path: Path) -> None:
    example = load_tournament(EXAMPLE)
    out = tmp_path / "public"
    build_site({"rr": example}, SiteSettings(out_dir=out))
    mine = tmp_path / ".public.build-original-1767225600"  # a name an older version moved a folder to
    before = someone_elses(mine)
    look_alike = tmp_path / ".public.build-20260101000000-1-1"  # a build's name, but no marker, no manifest
    (look_alike / "rr").mkdir(parents=True)
    (look_alike / "rr" / "keep.txt").write_text("mine", encoding="utf-8")
    (tmp_path / ".public.link-12").symlink_to("/etc")  # a link that points at no build
    for _ in range(3):
        build_site({"rr": example}, SiteSettings(out_dir=out))
    assert files_of(mine) == before
    assert (look_alike / "rr" / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert os.readlink(tmp_path / ".public.link-12") == "/etc"
    builds = sorted(path.name for path in tmp_path.glob(".public.build-2*") if (path / BUILD_MARKER).is_file())
    assert len(builds) == 2  # the site and the one before it


FULL_DISK = """
import errno, os
_write = os.write
_written = [0]
def write(descriptor, data):  # the disk fills up after the first 200 kB of pages
    _written[0] += len(data)
    if _written[0] > 200_000:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _write(descriptor, data)
os.write = write
"""


SMALL_FILES = """
import resource
from site_builder import build
_build = build._build_site
def limited(*args):  # once the store is read: the kernel refuses every write past 8 kB of a file (EFBIG)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))
    return _build(*args)
build._build_site = limited
"""


@pytest.mark.parametrize(("fault", "problem"), [
    (FULL_DISK, "the disk is full"),  # ENOSPC from every page written after the first 200 kB
    (SMALL_FILES, "a file is larger than this process may write (ulimit -f)"),  # EFBIG from the kernel
])
def test_a_full_disk_during_a_build_is_one_line_and_the_site_online_stays(tmp_path: Path, fault: str,
                                                                           problem: str) -> None:
    config = write_config(tmp_path)
    assert site_build(config).returncode == 0
    site = (tmp_path / "public").resolve()
    before = files_of(site)
    changed = tmp_path / "config.toml"
    changed.write_text(changed.read_text(encoding="utf-8").replace('["en"]', '["en", "zh"]'), encoding="utf-8")
    line = one_line(site_build_process(config, fault), 1)
    assert line.startswith(f"python -m site_builder: build failed: cannot write the site {tmp_path / 'public'}: "
                           + problem)
    assert line.endswith("(the site online is unchanged)")
    assert (tmp_path / "public").resolve() == site and files_of(site) == before
    assert [path.name for path in tmp_path.glob(".public.build-*")] == [site.name]  # nothing of the failed build


def test_build_site_raises_build_error_for_an_os_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder import workers

    def full(target: Path, content: bytes) -> None:
        raise OSError(28, "No space left on device", str(target))

    monkeypatch.setattr(workers, "write_file", full)
    with pytest.raises(BuildError, match="the disk is full"):
        build_site({"rr": load_tournament(EXAMPLE)}, SiteSettings(out_dir=tmp_path / "public"))
    assert not (tmp_path / "public").exists() and not list(tmp_path.glob(".public.build-*"))


# -- the dir publisher -------------------------------------------------------------------------------


def test_the_dir_publisher_refuses_a_folder_it_did_not_make_unless_told(tmp_path: Path) -> None:
    www = tmp_path / "www"
    before = someone_elses(www)
    config = write_config(tmp_path)
    config.write_text(config.read_text(encoding="utf-8")
                      + f'[publish]\ntarget = "dir"\npath = {json.dumps(str(www))}\n', encoding="utf-8")
    refused = cli.site_builder("publish", "--config", config, cwd=tmp_path)
    line = one_line(refused, 2)
    assert line == (f"python -m site_builder: error: [publish]: path = {str(www)!r} holds files the dir publisher "
                    "did not put there (it has no .tiebreak-published.json), and a publish replaces the folder "
                    "whole: publish to a folder of its own, or set replace_existing = true in [publish] to let "
                    "the site replace its files")
    assert files_of(www) == before
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith(".www")) == []

    config.write_text(config.read_text(encoding="utf-8") + "replace_existing = true\n", encoding="utf-8")
    told = cli.site_builder("publish", "--config", config, cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    assert (www / SLUG / "index.html").is_file() and not (www / "notes.txt").exists()
    assert (www / ".tiebreak-published.json").is_file()


def test_the_dir_publisher_takes_an_empty_folder_and_its_own(tmp_path: Path) -> None:
    from site_builder import DirSettings, publish

    site = tmp_path / "site"
    (site / "rr").mkdir(parents=True)
    (site / "rr" / "index.html").write_text("<!doctype html>", encoding="utf-8")
    www = tmp_path / "www"
    www.mkdir()
    publish(site, DirSettings(path=www), log=lambda message: None)
    (site / "rr" / "index.html").write_text("<!doctype html><p>round 2", encoding="utf-8")
    publish(site, DirSettings(path=www), log=lambda message: None)  # its own: it has the record
    assert (www / "rr" / "index.html").read_text(encoding="utf-8") == "<!doctype html><p>round 2"


@pytest.mark.parametrize("value", ['"yes"', "1"])
def test_replace_existing_is_true_or_false(tmp_path: Path, value: str) -> None:
    import tomllib

    from ranking import InputError
    from site_builder import settings_from_config

    table = tomllib.loads(f'target = "dir"\npath = "www"\nreplace_existing = {value}\n')
    with pytest.raises(InputError, match=r"replace_existing = .*: expected true or false"):
        settings_from_config(table, tmp_path)
