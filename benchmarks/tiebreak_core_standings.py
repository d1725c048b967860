"""The yardstick of ``benchmarks/standings.py``: the same standings from the PyPI package
tiebreak-core (``pip install tiebreak-core``), as one command on the same file.

    python benchmarks/tiebreak_core_standings.py FILE [CHAIN]

FILE is a TRF (fixed columns) or a tournament TOML file as Tiebreak writes them; CHAIN uses
Tiebreak's codes (default ``DE,BH-C1,BH,SB,PS,WIN``) and is mapped to tiebreak-core's criteria.
tiebreak-core reads no file, so this script reads it with its own few lines (nothing of
Tiebreak's), ranks it with ``rank_standings_strict(..., ruleset="fide-2026")`` and prints the
standings as JSON (rank, id, points, values): a whole process doing what
``tiebreak standings FILE --json --tiebreaks CHAIN`` does.
"""

from __future__ import annotations

import json
import sys

from tiebreak_core import GameRecord, PlayerTiebreakData, rank_standings_strict

CRITERIA = {"DE": "direct_encounter", "BH-C1": "buchholz_cut1", "BH": "buchholz", "SB": "sonneborn_berger",
            "PS": "progressive", "WIN": "wins", "KS": "koya", "ARO": "aro"}
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "F": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
BYES = {"U": "pairing_bye", "F": "pairing_bye", "H": "requested_bye", "Z": "requested_bye", " ": "requested_bye"}
TOML_LETTERS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="), "+-": ("+", "-"), "-+": ("-", "+"),
                "--": ("-", "-")}
TOML_BYES = {"pab": "U", "full": "F", "half": "H", "zero": "Z"}


def read_trf(path: str) -> tuple[str, int, dict[int, tuple[int, dict[int, tuple[int, str, str]]]]]:
    """(name, rounds, {player: (rating, {round: (opponent or 0, colour, letter)})})."""
    name, rounds, players = "", 0, {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("012 "):
                name = line[4:].strip()
            elif line.startswith(("XXR ", "142 ")):
                rounds = int(line[4:])
            elif line.startswith("001 "):
                rating = line[48:52].strip()
                cells = {}
                for number, start in enumerate(range(91, len(line), 10), start=1):
                    block = line[start:start + 10].ljust(10)
                    opponent = block[:4].strip()
                    cells[number] = (int(opponent) if opponent.strip("0") else 0, block[5], block[7].upper())
                players[int(line[4:8])] = (int(rating) if rating else 0, cells)
    return name, rounds or max((max(cells, default=0) for _, cells in players.values()), default=0), players


def read_toml(path: str) -> tuple[str, int, dict[int, tuple[int, dict[int, tuple[int, str, str]]]]]:
    import tomllib

    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    rounds = data["tournament"]["rounds"]
    players = {player["id"]: (player.get("rating", 0), {}) for player in data.get("players", [])}
    for game in data.get("games", []):
        white, black = TOML_LETTERS.get(game.get("result"), (" ", " "))
        players[game["white"]][1][game["round"]] = (game["black"], "w", white)
        players[game["black"]][1][game["round"]] = (game["white"], "b", black)
    for bye in data.get("byes", []):
        players[bye["player"]][1][bye["round"]] = (0, "-", TOML_BYES[bye["kind"]])
    return data["tournament"]["name"], rounds, players


def main() -> int:
    path = sys.argv[1]
    chain = (sys.argv[2] if len(sys.argv) > 2 else "DE,BH-C1,BH,SB,PS,WIN").split(",")
    name, rounds, players = (read_toml if path.endswith(".toml") else read_trf)(path)
    data = {}
    for pid, (rating, cells) in players.items():
        games, total = [], 0.0
        for number in range(1, rounds + 1):
            opponent, colour, letter = cells.get(number, (0, "-", " "))
            score = POINTS[letter]
            total += score
            if opponent:
                kind = {"+": "forfeit_win", "-": "forfeit_loss"}.get(letter, "played")
                games.append(GameRecord(opponent, players[opponent][0], score, "white" if colour == "w" else "black",
                                        number, kind=kind))
            else:
                games.append(GameRecord(-1, 0, score, "white", number, kind=BYES[letter]))
        data[pid] = PlayerTiebreakData(pid, rating, total, games)
    result = rank_standings_strict(data, [CRITERIA[code] for code in chain], total_rounds=rounds, ruleset="fide-2026")
    rows = [{"rank": row.rank, "id": row.player_id, "points": row.points, "tiebreaks": dict(row.values)}
            for row in result.players]
    sys.stdout.write(json.dumps({"tournament": name, "standings": rows}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
