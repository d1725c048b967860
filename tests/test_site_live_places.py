"""A player's page while a round is in progress (issue 25, "A result on the public page in under a
second"): the place and tie-breaks are those after the last complete round, labelled so, while the
player's own games, results and points are live; the standings page is the live view and says it is
provisional.  A result of the round in progress then changes only the pages that show it: the two
players' pages, the round, the standings, the wall chart and the downloads; every other player's
page keeps its file (same bytes, inode and modification time)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from test_site import LANGUAGES, prefix, replace_result, settings, site_files, snapshot
from test_site_pages import text_of

from ranking import Result, Tournament, final_standings
from site_builder import build_site
from tiebreak.files import load_tournament

EXAMPLES = Path(__file__).resolve().parents[1] / "ranking" / "examples"
SLUG = "open"
LAST = 7  # the example Swiss's last round


@pytest.fixture(scope="module")
def complete() -> Tournament:
    return load_tournament(EXAMPLES / "chess-swiss.trf")


def with_open_boards(tournament: Tournament, number: int, open_boards: set[int]) -> Tournament:
    """``tournament`` without the rounds after ``number``, and round ``number``'s ``open_boards``
    without their result."""
    games = tuple(dataclasses.replace(game, result=None) if game.round == number and game.board in open_boards
                  else game for game in tournament.games if game.round <= number)
    byes = tuple(bye for bye in tournament.byes if bye.round <= number)
    return dataclasses.replace(tournament, games=games, byes=byes)


def board(tournament: Tournament, number: int, board_number: int):
    return next(game for game in tournament.games if (game.round, game.board) == (number, board_number))


def player_page(out: Path, player: int, language: str = "en") -> str:
    return text_of((out / f"{prefix(language)}{SLUG}/players/{player}.html").read_text(encoding="utf-8"))


def test_a_result_of_the_round_in_progress_changes_only_the_pages_that_show_it(tmp_path: Path,
                                                                               complete: Tournament) -> None:
    boards = sorted(game.board for game in complete.games if game.round == LAST)
    middle = boards[len(boards) // 2]
    game = board(complete, LAST, middle)
    in_progress = with_open_boards(complete, LAST, set(boards[1:]))  # board 1 has its result, the others not
    out = tmp_path / "public"
    build_site({SLUG: in_progress}, settings(out))
    before = snapshot(out)
    report = build_site({SLUG: replace_result(in_progress, LAST, middle, game.result)}, settings(out))
    after = snapshot(out)

    rewritten = {path for path in after if after[path][:2] != before[path][:2]}
    changed = {path for path in after if after[path][2] != before[path][2]}
    assert rewritten == changed == set(report.files)
    expected = {f"{SLUG}/standings.json", f"{SLUG}/standings.csv", f"{SLUG}/{SLUG}.trf"}
    for language in LANGUAGES:
        base = f"{prefix(language)}{SLUG}/"
        expected |= {base + "index.html", base + f"round-{LAST}.html", base + "crosstable.html",
                     base + f"players/{game.white}.html", base + f"players/{game.black}.html"}
    assert changed == expected
    # The result moved other players' live places: the standings page shows it, their pages do not.
    live_before = {row.player.id: row.rank for row in final_standings(in_progress).standings.rows}
    result = replace_result(in_progress, LAST, middle, game.result)
    moved = {row.player.id for row in final_standings(result).standings.rows
             if row.rank != live_before[row.player.id]} - {game.white, game.black}
    assert moved
    for player in moved:
        for language in LANGUAGES:
            path = f"{prefix(language)}{SLUG}/players/{player}.html"
            assert after[path] == before[path], path


def test_the_place_is_the_last_complete_rounds_while_a_round_is_in_progress(tmp_path: Path,
                                                                              complete: Tournament) -> None:
    boards = sorted(game.board for game in complete.games if game.round == LAST)
    in_progress = with_open_boards(complete, LAST, set(boards[2:]))
    playing, waiting = board(in_progress, LAST, boards[0]), board(in_progress, LAST, boards[2])
    out = tmp_path / "public"
    build_site({SLUG: in_progress}, settings(out))
    settled = final_standings(in_progress, after_round=LAST - 1).standings
    live = final_standings(in_progress).standings
    row = next(row for row in settled.rows if row.player.id == playing.white)
    live_row = next(row for row in live.rows if row.player.id == playing.white)
    assert live_row.rank != row.rank or live_row.points != row.points  # a result of round 7 counts live
    text = player_page(out, playing.white)
    assert f"Place after round {LAST - 1}: {row.rank} · {live_row.points:g} points" in text
    assert (f"Round {LAST} is in progress: the place and tie-breaks are those after round {LAST - 1}; "
            f"the points and results include round {LAST} so far.") in text
    assert f"Tie-breaks after round {LAST - 1}" in text
    shown = text.split(f"Tie-breaks after round {LAST - 1}", 1)[1].split()
    assert shown[1::2][:len(settled.tiebreaks)] == [number(row.values[code]) for code in settled.tiebreaks]
    assert f"Place after each round: {', '.join(str(place) for place in places(in_progress, playing.white))}" in text
    assert f"Place {live_row.rank} with" not in text
    # the player's own game of the round in progress shows its result; a game still played, "…"
    assert "…" in player_page(out, waiting.white)
    assert f"Place after round {LAST - 1}: " in player_page(out, waiting.white)
    # in every language, and the standings page says its places are provisional
    assert f"第{LAST - 1}轮后名次：第{row.rank}名" in player_page(out, playing.white, "zh")
    assert f"Hạng sau ván {LAST - 1}: {row.rank}" in player_page(out, playing.white, "vi")
    assert f"Puesto tras la ronda {LAST - 1}: {row.rank}" in player_page(out, playing.white, "es")
    standings = text_of((out / f"{SLUG}/index.html").read_text(encoding="utf-8"))
    assert f"Provisional standings: round {LAST} in progress" in standings
    assert "临时排名" in text_of((out / f"zh/{SLUG}/index.html").read_text(encoding="utf-8"))

    # The round complete: the page shows the new place as usual, the standings are not provisional.
    build_site({SLUG: complete}, settings(out))
    final = next(row for row in final_standings(complete).standings.rows if row.player.id == playing.white)
    text = player_page(out, playing.white)
    assert f"Place {final.rank} with {final.points:g} points" in text
    assert "Place after round" not in text and "is in progress" not in text
    assert "Provisional" not in text_of((out / f"{SLUG}/index.html").read_text(encoding="utf-8"))


def number(value: float | None) -> str:
    """A value as the English pages write it."""
    return "–" if value is None else f"{value:g}"


def places(tournament: Tournament, player: int) -> list[int]:
    """The player's place after each complete round."""
    return [next(row.rank for row in final_standings(tournament, after_round=number).standings.rows
                 if row.player.id == player) for number in range(1, LAST)]


def test_no_place_before_round_1_is_complete(tmp_path: Path, complete: Tournament) -> None:
    boards = sorted(game.board for game in complete.games if game.round == 1)
    first = with_open_boards(complete, 1, set(boards[1:]))
    game = board(first, 1, boards[0])
    out = tmp_path / "public"
    build_site({SLUG: first}, settings(out))
    text = player_page(out, game.white)
    assert "No place yet" in text and "Place after round" not in text
    assert ("Round 1 is in progress: the place is shown once it is complete; the points and results include "
            "round 1 so far.") in text
    assert "Tie-breaks after round" not in text
    assert "尚无名次" in player_page(out, game.white, "zh")
    assert "Chưa có hạng" in player_page(out, game.white, "vi")
    assert "Aún sin puesto" in player_page(out, game.white, "es")


def test_the_places_kept_between_builds_follow_a_corrected_result_of_an_earlier_round(
        tmp_path: Path, complete: Tournament) -> None:
    """The places by round a build keeps for the next (``.ranks.json``, by a digest of the rounds
    up to each) after a correction of round 2: every page as a build from scratch makes it,
    the players' places by round included, which the correction moved."""
    game = board(complete, 2, 1)
    corrected = replace_result(complete, 2, 1, Result.BLACK_WINS if game.result is not Result.BLACK_WINS
                               else Result.WHITE_WINS)
    kept = tmp_path / "kept" / "public"
    build_site({SLUG: complete}, settings(kept))
    before = {path: file.read_bytes() for path, file in site_files(kept).items()}
    build_site({SLUG: corrected}, settings(kept))
    fresh = tmp_path / "fresh" / "public"
    build_site({SLUG: corrected}, settings(fresh))
    after = {path: file.read_bytes() for path, file in site_files(kept).items()}
    assert after == {path: file.read_bytes() for path, file in site_files(fresh).items()}
    moved = {path for path in after if "/players/" in path and after[path] != before[path]}
    assert moved - {f"{SLUG}/players/{game.white}.html", f"{SLUG}/players/{game.black}.html"}  # others' places
