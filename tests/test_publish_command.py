"""The ``command`` publisher and the README agree (issue 21): the command runs without a shell,
its words split as a shell splits them; shell syntax that would silently mean something else
there (``&&``, ``|``, ``;``, ``>``, ``$VARIABLE``, backquotes) is refused in one line when the
configuration is read, and ``sh -c '...'`` runs a pipeline."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cli
import pytest

from ranking import InputError
from site_builder import publish, settings_from_config

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "ranking" / "examples" / "xiangqi-rr.toml"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "my site"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html>", encoding="utf-8")
    return folder


@pytest.mark.parametrize(("command", "shown"), [
    ("rsync -a {out}/ host:/srv/www && echo done", "&&"),
    ("deploy {out} | tee log.txt", "|"),
    ("deploy {out}; notify", ";"),
    ("deploy {out} > log.txt", ">"),
    ("deploy {out} 2>&1", ">&"),
    ("deploy $TIEBREAK_SITE_DIR", "$TIEBREAK_SITE_DIR"),
    ('deploy --to="$HOME/www"', '--to="$HOME/www"'),
    ("deploy {out} `date`", "`date`"),
    ("cp -r {out} /srv/$(date +%F)", "/srv/$"),
])
def test_shell_syntax_is_refused_when_the_configuration_is_read(tmp_path: Path, command: str, shown: str) -> None:
    with pytest.raises(InputError) as caught:
        settings_from_config({"target": "command", "command": command}, tmp_path)
    assert str(caught.value) == (f"[publish]: command = {command!r}: {shown} is shell syntax, but the command runs "
                                 "without a shell (its words are split as a shell splits them, nothing more): put the "
                                 "pipeline in a script and name the script, or write sh -c '...'")


def test_the_words_reach_the_program_as_written_and_sh_c_runs_a_pipeline(tmp_path: Path, site: Path) -> None:
    dump = tmp_path / "argv.json"
    script = f"import json, sys; json.dump(sys.argv[1:], open({str(dump)!r}, 'w'))"
    command = f"{sys.executable} -c \"{script}\" {{out}} 'a;b' \"x && y\" '$HOME'"
    publish(site, settings_from_config({"target": "command", "command": command}, tmp_path), log=lambda m: None)
    assert json.loads(dump.read_text(encoding="utf-8")) == [str(site), "a;b", "x && y", "$HOME"]
    listing = tmp_path / "listing.txt"
    command = f"sh -c 'ls \"$TIEBREAK_SITE_DIR\" | sort > {listing}'"
    publish(site, settings_from_config({"target": "command", "command": command}, tmp_path), log=lambda m: None)
    assert listing.read_text(encoding="utf-8") == "index.html\n"


def test_the_site_command_says_so_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("\n".join(["[storage]", 'path = "store.sqlite3"', "[site]", 'languages = ["en"]',
                                 "[publish]", 'target = "command"', 'command = "deploy {out} && echo done"',
                                 "[[tournaments]]", f"file = {json.dumps(str(EXAMPLE))}", ""]), encoding="utf-8")
    done = cli.site_builder("publish", "--config", config, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("python -m site_builder: error: [publish]: command = 'deploy {out} && echo done': && is "
                           "shell syntax")
