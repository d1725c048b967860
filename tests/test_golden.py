"""``tiebreak standings`` prints, to the byte, what it printed before the columnar path existed
(issue 13): the outputs in ``tests/data/golden`` were saved from the command as it was then,
and the generated tournaments' outputs by their SHA-256.  The command runs whole (in-process,
``tests/cli.py``), so each case goes whichever way the command takes (columnar or full)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import cli
import pytest
from generators import generate_swiss

from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.trf_write import write_trf

ROOT = Path(__file__).parents[1]
GOLDEN = Path(__file__).parent / "data" / "golden"
INPUTS = {
    "chess-swiss": ROOT / "ranking" / "examples" / "chess-swiss.trf",
    "tec-swiss16": ROOT / "tests" / "data" / "validation" / "fide_tec_exercises_2024_swiss16" / "tournament.trf",
    "vega-masters-rr": ROOT / "tests" / "data" / "validation" / "vega_2025_western_masters_rr" / "tournament.trf",
    "vega-cup-open": ROOT / "tests" / "data" / "validation" / "vega_2026_hobsonsbay_cup_open_swiss" / "tournament.trf",
    "xiangqi-rr": ROOT / "ranking" / "examples" / "xiangqi-rr.toml",
}
ISSUE_CHAIN = ["--tiebreaks", "DE,BH-C1,BH,SB,PS,WIN"]
OPTIONS = {
    "default": ["--json"],
    "issue-chain": ["--json", *ISSUE_CHAIN],
    "after-3": ["--json", "--after-round", "3", "--tiebreaks", "BH-M1,SB-C1,PS-C1,DE/P,KS/L+1"],
    "table": [],
}
#: The generated tournaments' outputs: (players, rounds, seed, format, options) -> SHA-256.
GENERATED = {
    (1000, 11, 1, "trf", "default"): "f86ee82f727e7be51e89414cdf2fd2d2980276f2d187bfbb0d4f409360477de2",
    (1000, 11, 1, "trf", "issue-chain"): "d2a9e16b364e8e5c75abf13ca7c36493c2c623de6e353dd9a74174a5d2e1ba51",
    (1000, 11, 1, "trf", "after-3"): "88431429533a831fc0396f5b4c3c4ca4a45260e65a22c86994c6b1764e13d7cb",
    (1000, 11, 1, "trf", "table"): "1a99b5fb404707ac04c6106eb40da551d104afb2c985b89d263d9be9428f81c0",
    (1000, 11, 1, "toml", "default"): "f86ee82f727e7be51e89414cdf2fd2d2980276f2d187bfbb0d4f409360477de2",
    (1000, 11, 1, "toml", "issue-chain"): "d2a9e16b364e8e5c75abf13ca7c36493c2c623de6e353dd9a74174a5d2e1ba51",
    (300, 9, 5, "trf", "default"): "01464792f906ecbab01d20182b3c3c60940e48a3f06019d184a385a441f745aa",
    (300, 9, 5, "trf", "issue-chain"): "c1faed6d6efcc8d7848654a7df19145e070ecf5da3bc479ff9b0430e5ddadaa4",
}


def standings(path: Path, options: list[str]) -> bytes:
    done = cli.tiebreak("standings", path, *options)
    assert done.returncode == 0, done.stderr
    return done.stdout.encode("utf-8")


@pytest.mark.parametrize(("name", "option"), [(name, option) for name in INPUTS for option in OPTIONS])
def test_the_output_is_the_one_saved(name: str, option: str) -> None:
    expected = (GOLDEN / f"{name}.{option}.{'txt' if option == 'table' else 'json'}").read_bytes()
    assert standings(INPUTS[name], OPTIONS[option]) == expected


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[tuple[int, int, int, str], Path]:
    folder = tmp_path_factory.mktemp("golden")
    files = {}
    for players, rounds, seed in {key[:3] for key in GENERATED}:
        tournament = generate_swiss(players, rounds, seed)
        for kind, text in (("trf", write_trf(tournament)), ("toml", write_tournament_toml(tournament))):
            path = folder / f"swiss-{players}x{rounds}-{seed}.{kind}"
            path.write_text(text, encoding="utf-8")
            files[(players, rounds, seed, kind)] = path
    return files


@pytest.mark.parametrize("case", list(GENERATED), ids=lambda case: "-".join(map(str, case)))
def test_generated_tournaments_give_the_output_saved(case, generated) -> None:
    path = generated[case[:4]]
    assert hashlib.sha256(standings(path, OPTIONS[case[4]])).hexdigest() == GENERATED[case]
