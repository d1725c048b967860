"""A rated open run from the command line, round after round, with what happens at every real
open: players entered in random order with ratings, a late entry with a bye for the round he
missed, a withdrawal and a return, corrections of a rating before round 4 (which re-rank the
list) and after it (which do not), a round un-paired with its results and brought back.

``run`` plays ``SCRIPT`` through the ``tiebreak`` command line (in this process) and calls
``paired`` after each pairing.  ``tests/test_open.py`` pairs every round with Tiebreak's engine
and compares it with the pairs bbpPairings v6.0.0 gave for the same round, recorded in
``tests/data/open/``; the test never runs bbpPairings.  To record them again (with bbpPairings at
hand, outside CI)::

    .venv/bin/python tests/open_scenario.py --record PATH/TO/bbpPairings-v6.0.0

The recorder exports the tournament as TRF before each pairing (the players numbered by
pairing number, C.04.2 GHR 2), has bbpPairings pair it (``--dutch FILE -p OUT``), keeps its
pairs and stores them with ``tiebreak pair SLUG --pairs OUT``, so the rounds go on as bbp paired
them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import cli

DATA = Path(__file__).resolve().parent / "data" / "open"
FIELD = DATA / "open-40.toml"
SLUG = "open40"

#: The open, step by step: ``("pair",)`` pairs the next round, ``("results", N)`` enters every
#: result of round N (``result_of``); anything else is a ``tiebreak`` command after its slug.
SCRIPT: list[tuple] = [
    ("pair",),  # round 1: TPN 1 v 21, 22 v 2, ...
    ("results", 1),
    ("player", "add", "--name", "Lương, Trọng Minh", "--rating", "2230", "--federation", "VIE", "--title", "FM"),
    ("bye", "1", "41", "half"),  # GHR 2.4: the late entry gets half a point for the round he missed
    ("pair",),  # round 2
    ("results", 2),
    ("withdraw", "17", "--after-round", "2"),
    ("player", "edit", "5", "--rating", "2395"),  # a correction before round 4 re-ranks the list (GHR 2.3)
    ("pair",),  # round 3
    ("results", 3),
    ("bye", "4", "23", "half"),
    ("pair",),  # round 4: from now on the list is kept
    ("results", 4),
    ("player", "edit", "8", "--rating", "1500"),  # after round 4: the list stays as it is
    ("return", "17"),  # back for round 5; rounds 3 and 4 stay zero-point byes
    ("pair",),  # round 5
    ("results", 5),
    ("unpair", "--force"),  # round 5 taken back with its results ...
    ("undo",),  # ... and brought back
    ("pair",),  # round 6
]


def result_of(round_number: int, white: int, black: int, white_rating: int, black_rating: int) -> str:
    """A plausible result of ``white`` v ``black`` (starting numbers), the same every time: the
    higher rated player mostly wins, some draws, a forfeit in round 3."""
    turn = (white * 7 + black * 3 + round_number * 13) % 10
    if round_number == 3 and (white + black) % 9 == 0:
        return "+-"
    difference = white_rating - black_rating
    if difference > 150 and turn < 7:
        return "1-0"
    if difference < -150 and turn < 7:
        return "0-1"
    return ("1-0", "1/2-1/2", "0-1")[turn % 3]


#: runs ``tiebreak ARGS...``: (exit status, standard output, standard error)
Command = Callable[[Sequence[str]], tuple[int, str, str]]


def store_config(folder: Path, tables: str = "") -> Path:
    """``folder/config.toml``: the store at ``data/store.sqlite3`` there, then ``tables`` (``[web]``, ...)."""
    path = folder / "config.toml"
    path.write_text(f'[storage]\npath = "data/store.sqlite3"\n{tables}', encoding="utf-8")
    return path


def in_process(config: Path) -> Command:
    """The ``tiebreak`` command line called in this process (``tests/cli.py``), with ``--config config``."""
    def command(args: Sequence[str]) -> tuple[int, str, str]:
        done = cli.tiebreak(*args, "--config", config)
        return done.returncode, done.stdout, done.stderr

    return command


def ok(command: Command, *args: str) -> str:
    status, out, err = command(args)
    assert status == 0, (args, out, err)
    return out


def run(command: Command, paired: Callable[[int], None], pair: Callable[[], None] | None = None) -> None:
    """Play ``SCRIPT``; ``pair`` pairs a round (default ``tiebreak pair SLUG``), ``paired(N)``
    is called once round N is paired."""
    ok(command, "import", str(FIELD), "--slug", SLUG)
    for step in SCRIPT:
        if step[0] == "pair":
            if pair is None:
                ok(command, "pair", SLUG)
            else:
                pair()
            paired(json.loads(ok(command, "round", SLUG, "--json"))["round"])
        elif step[0] == "results":
            number = step[1]
            ratings = {row["id"]: row["rating"] or 0 for row in json.loads(ok(command, "players", SLUG, "--json"))}
            for board in json.loads(ok(command, "round", SLUG, str(number), "--json"))["boards"]:
                result = result_of(number, board["white"], board["black"], ratings[board["white"]],
                                   ratings[board["black"]])
                ok(command, "result", SLUG, str(number), str(board["board"]), result)
        else:
            ok(command, step[0], SLUG, *step[1:])


def pairs_in_tpn(command: Command, number: int) -> str:
    """Round ``number`` as the JaVaFo/bbpPairings pairs list, players by pairing number."""
    tpn = {row["id"]: row["tpn"] for row in json.loads(ok(command, "players", SLUG, "--json"))}
    data = json.loads(ok(command, "round", SLUG, str(number), "--json"))
    lines = [f"{tpn[board['white']]} {tpn[board['black']]}" for board in data["boards"]]
    lines += [f"{tpn[bye['player']]} 0" for bye in data["byes"] if bye["kind"] == "pab"]
    return "\n".join([str(len(lines)), *lines]) + "\n"


def record(bbp: str) -> None:
    """Record bbpPairings' pairing of every round of the script into ``tests/data/open``."""
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.toml"
        config.write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
        command = in_process(config)
        counter = iter(range(1, 100))

        def pair_with_bbp() -> None:
            number = next(counter)
            trf, out = Path(folder) / f"round-{number}.trf", Path(folder) / f"round-{number}.pairs"
            ok(command, "export", SLUG, "--format", "trf", "-o", str(trf))
            subprocess.run([bbp, "--dutch", str(trf), "-p", str(out)], check=True, timeout=600)
            pairs = out.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\r", "\n")
            (DATA / f"open-40.round-{number}.pairs").write_text(pairs.strip() + "\n", encoding="utf-8")
            ok(command, "pair", SLUG, "--pairs", str(out))

        run(command, lambda number: print(f"round {number} recorded"), pair_with_bbp)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--record":
        sys.exit(f"usage: {sys.argv[0]} --record PATH/TO/bbpPairings")
    record(sys.argv[2])
