"""One "final standings" for every presenter: once a play-off has decided places, the command
line's TRF export, the bot's /export, ``tiebreak standings SLUG --json``, the site's
``standings.json`` and the site's TRF all rank the play-off players the same (docs/rules.md#play-offs).

Before the house issue the two TRF exports computed the standings without the play-off and
ranked the two play-off players equal (both 1st), while the JSON said 1st and 2nd.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import cli

from bot import tournament_files
from bot.service import BotService, BotSettings, Who
from site_builder.site import build_from_config
from tiebreak.store import SQLiteStore

FILE = Path(__file__).parent / "data" / "playoffs" / "tied-for-first.toml"
CHIEF = 1


def tiebreak(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = cli.tiebreak(*args, "--config", config)
    assert result.returncode == 0, result.stderr
    return result


def trf_ranks(text: str) -> dict[int, int]:
    """Starting number -> place, from the ``001`` lines (columns 5-8 and 86-89)."""
    return {int(line[4:8]): int(line[85:89]) for line in text.splitlines() if line.startswith("001 ")}


def test_every_presenter_ranks_a_decided_play_off_the_same(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\npath = "db.sqlite3"\n\n[site]\nout_dir = "{tmp_path / "public"}"\n'
                      'languages = ["en"]\n')
    tiebreak(config, "import", str(FILE), "--slug", "po")
    tiebreak(config, "playoff", "po", "1", "2", "1", "1-0")
    tiebreak(config, "playoff", "po", "2", "1", "2", "=")

    from_json = {row["id"]: row["rank"] for row in json.loads(tiebreak(config, "standings", "po", "--json").stdout)[
        "standings"]}
    assert (from_json[2], from_json[1]) == (1, 2)  # the play-off winner first
    from_cli_trf = trf_ranks(tiebreak(config, "export", "po", "--format", "trf").stdout)
    with SQLiteStore(tmp_path / "db.sqlite3") as store:
        service = BotService(store, BotSettings(arbiters=frozenset({CHIEF})))
        replies = tournament_files.export(service, Who(CHIEF, CHIEF, "en"))
    documents = {reply.document.file_name: reply.document.content.decode() for reply in replies if reply.document}
    from_bot_trf = trf_ranks(documents["po.trf"])
    site = build_from_config(str(config)).output
    from_site_json = {row["id"]: row["rank"] for row in json.loads((site / "po" / "standings.json").read_text())[
        "standings"]}
    trf_download = next(site.joinpath("po").glob("*.trf"))
    from_site_trf = trf_ranks(trf_download.read_text())

    assert from_cli_trf == from_json
    assert from_bot_trf == from_json
    assert from_site_json == from_json
    assert from_site_trf == from_json
