"""A tournament's downloads: the standings as the command line's JSON and as a CSV that no
spreadsheet runs as a formula, and the TRF (or, where TRF cannot hold the event, the tournament
TOML file: ``ranking.trf_refusal``)."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Callable

from ranking import FinalStandings, Standings, Tournament
from tiebreak.exports import export_text


def download_files(slug: str, tournament: Tournament, final: Callable[[], FinalStandings],
                   trf_refused: bool) -> dict[str, Callable[[], bytes]]:
    """The downloads (file name -> its bytes when asked): the CLI's JSON, the CSV, the TRF, or
    the tournament TOML file where TRF cannot hold the event (a two-game match, VN 21.2:
    ``trf_refused``); ``final`` gives the final standings when a file needs them."""
    files = {"standings.json": lambda: standings_json(final()).encode("utf-8"),
             "standings.csv": lambda: standings_csv(final().standings).encode("utf-8-sig")}
    if not trf_refused:
        files[f"{slug}.trf"] = lambda: export_text(tournament, "trf", final()).encode("utf-8")
    else:
        files[f"{slug}.toml"] = lambda: export_text(tournament, "toml").encode("utf-8")
    return files


def standings_json(final: FinalStandings) -> str:
    """What ``python -m ranking standings FILE --json`` prints (with the play-offs, if any)."""
    return json.dumps(final.as_json(), ensure_ascii=False) + "\n"


def standings_csv(standings: Standings) -> str:
    """The standings as CSV (the download is UTF-8 with a byte order mark, which spreadsheet
    programs read as UTF-8); a text that a spreadsheet would run as a formula is quoted."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    codes = list(standings.tiebreaks)
    writer.writerow(["rank", "id", "name", "federation", "rating", "points", *codes])
    for row in standings.rows:
        writer.writerow([row.rank, row.player.id, _cell(row.player.name), _cell(row.player.federation),
                         row.player.rating or "", _plain(row.points), *(_plain(row.values[c]) for c in codes)])
    return buffer.getvalue()


_FORMULA_START = ("=", "+", "-", "@", "＝", "＋", "－", "＠")  # and their full-width forms


def _cell(text: str) -> str:
    """A text cell that no spreadsheet runs as a formula: one starting with ``=``, ``+``, ``-``,
    ``@`` (or their full-width forms), also after spaces or invisible format characters that a
    spreadsheet skips, or with a tab, carriage return or line break, gets a leading
    apostrophe, as OWASP advises."""
    first = text[:1]
    if first.isalnum():  # a letter or a digit first (a name, a federation): no formula, nothing to skip
        return text
    if text.startswith(("\t", "\r", "\n")):
        return "'" + text
    shown = "".join(char for char in text[:64] if unicodedata.category(char) != "Cf").lstrip()
    return "'" + text if shown.startswith(_FORMULA_START) else text


def _plain(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
