"""Running a rated open from the command line (issue 20): the initial ranking list, late entries,
corrections, removals, un-pairing, returns, undo of any change, and every refusal (one line, exit
status 2, nothing written).  Each test checks what the event log, ``round --json`` and
``players --json`` say afterwards.  The command line runs in this process (``open_scenario``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from open_scenario import Command, in_process, ok, store_config

from ranking.event.log import result_event
from tiebreak.store import Source, SQLiteStore

DATA = Path(__file__).resolve().parent / "data" / "open"
SWISS = DATA / "swiss-8.toml"  # pairing numbers 3, 6, 1, 8, 2, 5, 7, 4
ROUND_ROBIN = DATA / "rr-9.toml"
OTHER = Source("tg:77")  # another arbiter, in the bot


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return store_config(tmp_path)


@pytest.fixture
def cli(config: Path) -> Command:
    return in_process(config)


@pytest.fixture
def swiss(cli: Command) -> str:
    ok(cli, "import", str(SWISS))
    return "swiss8"


@pytest.fixture
def rr(cli: Command) -> str:
    ok(cli, "import", str(ROUND_ROBIN))
    return "rr9"


def log(cli: Command, slug: str) -> list[dict]:
    return [json.loads(line) for line in ok(cli, "log", slug, "--json").splitlines()]


def players(cli: Command, slug: str) -> list[dict]:
    return json.loads(ok(cli, "players", slug, "--json"))


def tpns(cli: Command, slug: str) -> dict[int, int]:
    """Starting number -> pairing number."""
    return {row["id"]: row["tpn"] for row in players(cli, slug)}


def round_json(cli: Command, slug: str, *number: str) -> dict:
    return json.loads(ok(cli, "round", slug, *number, "--json"))


def afterwards(cli: Command, slug: str) -> tuple[list[dict], tuple[int, str], list[dict]]:
    """What the event says: its log, ``round --json`` (the current round, or the refusal to show
    one before round 1 is paired) and ``players --json``."""
    status, out, _ = cli(("round", slug, "--json"))
    return log(cli, slug), (status, out), players(cli, slug)


def refused(cli: Command, slug: str, args: tuple[str, ...], message: str) -> str:
    """A refusal: one line naming the problem, exit status 2, nothing written: the log, the
    current round and the players list are as they were."""
    before = afterwards(cli, slug)
    status, out, err = cli(args)
    assert status == 2, (args, out, err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert message in err, err
    assert afterwards(cli, slug) == before
    return err


def enter_round(cli: Command, slug: str, number: int, results: tuple[str, ...] = ("1-0", "1/2-1/2", "0-1")) -> None:
    for board in round_json(cli, slug, str(number))["boards"]:
        ok(cli, "result", slug, str(number), str(board["board"]), results[board["board"] % len(results)])


def store(config: Path) -> SQLiteStore:
    return SQLiteStore(config.parent / "data" / "store.sqlite3", create=False)


# -- the initial ranking list (GHR 2) -------------------------------------------------------------

def test_players_is_the_initial_ranking_list_by_rating_title_and_name(cli: Command, swiss: str) -> None:
    rows = players(cli, swiss)
    assert [row["id"] for row in rows] == [3, 6, 1, 8, 2, 5, 7, 4]
    assert rows[4] == {"tpn": 5, "id": 2, "name": "Ngô, Lan", "rating": 2100, "title": "WIM", "federation": "VIE",
                       "club": "", "withdrawn": False}  # before 5 Đinh, Thu: equal rating, a title
    table = ok(cli, "players", swiss)
    assert "ranked by rating, title and name" in table and "Phạm, Quốc" in table.splitlines()[2]
    ok(cli, "pair", swiss)
    boards = round_json(cli, swiss)["boards"]
    assert [(board["white"], board["black"]) for board in boards] == [(3, 2), (5, 6), (1, 7), (4, 8)]


def test_the_tpn_tie_break_is_the_pairing_number(cli: Command, swiss: str) -> None:
    """C.07 7.8 sorts by pairing number: in an event seeded by rating, the place in the initial
    ranking list, not the starting number."""
    ok(cli, "set", swiss, "tiebreaks=TPN")
    rows = json.loads(ok(cli, "standings", swiss, "--json"))["standings"]
    assert [(row["id"], row["tiebreaks"]["TPN"]) for row in rows] == [(row["id"], row["tpn"])
                                                                     for row in players(cli, swiss)]
    assert rows[0]["id"] == 3 and rows[0]["tiebreaks"]["TPN"] == 1


def test_as_numbered_and_every_trf_keep_the_numbers_as_given(cli: Command, tmp_path: Path) -> None:
    text = SWISS.read_text(encoding="utf-8").replace('rounds = 5\n', 'rounds = 5\nseeding = "as-numbered"\n')
    (tmp_path / "numbered.toml").write_text(text.replace('slug = "swiss8"', 'slug = "numbered"'), encoding="utf-8")
    ok(cli, "import", str(tmp_path / "numbered.toml"))
    assert [row["id"] for row in players(cli, "numbered")] == list(range(1, 9))
    ok(cli, "export", "numbered", "--format", "toml", "-o", str(tmp_path / "again.toml"))
    assert 'seeding = "as-numbered"' in (tmp_path / "again.toml").read_text(encoding="utf-8")
    ok(cli, "import", str(Path(__file__).resolve().parent.parent / "ranking" / "examples" / "chess-swiss.trf"))
    assert [row["tpn"] for row in players(cli, "chess-swiss")] == [row["id"] for row in players(cli, "chess-swiss")]


def test_the_trf_export_numbers_the_players_by_pairing_number(cli: Command, swiss: str, tmp_path: Path) -> None:
    ok(cli, "export", swiss, "--format", "trf", "-o", str(tmp_path / "out.trf"))
    lines = [line for line in (tmp_path / "out.trf").read_text(encoding="utf-8").splitlines()
             if line.startswith("001")]
    assert [line[4:8].strip() for line in lines] == [str(k) for k in range(1, 9)]
    assert "Phạm, Quốc" in lines[0] and "Lý, Hùng" in lines[7]  # TPN 1 (id 3) ... TPN 8 (id 4)
    ok(cli, "export", swiss, "--format", "toml", "-o", str(tmp_path / "out.toml"))
    assert "id = 3\n" in (tmp_path / "out.toml").read_text(encoding="utf-8")  # the TOML keeps the ids


def test_a_correction_re_ranks_until_round_4_is_paired(cli: Command, swiss: str) -> None:
    ok(cli, "player", swiss, "edit", "4", "--rating", "2500", "--title", "gm", "--name", "Lý, Hùng Dũng")
    assert players(cli, swiss)[0] == {"tpn": 1, "id": 4, "name": "Lý, Hùng Dũng", "rating": 2500, "title": "GM",
                                      "federation": "VIE", "club": "", "withdrawn": False}
    [edit] = [entry for entry in log(cli, swiss) if entry["kind"] == "player-edited"]
    assert edit["changes"] == {"name": "Lý, Hùng Dũng", "rating": 2500, "title": "GM"}
    assert edit["previous"] == {"name": "Lý, Hùng", "rating": 1500, "title": ""}
    for number in range(1, 4):
        ok(cli, "pair", swiss)
        enter_round(cli, swiss, number)
    ok(cli, "player", swiss, "edit", "7", "--rating", "2600")  # before round 4 is paired: re-ranked
    assert tpns(cli, swiss)[7] == 1
    ok(cli, "pair", swiss)  # round 4: the list is kept from now on
    kept = tpns(cli, swiss)
    ok(cli, "player", swiss, "edit", "1", "--rating", "2700")
    assert tpns(cli, swiss) == kept  # GHR 2.3: no more re-ranking
    assert [row["rating"] for row in players(cli, swiss) if row["id"] == 1] == [2700]  # the rating itself changes
    ok(cli, "unpair", swiss)  # round 4 taken back: the list follows the ratings again
    assert tpns(cli, swiss)[1] == 1


def test_a_fide_id_is_corrected_and_reaches_the_trf_export(cli: Command, swiss: str, tmp_path: Path) -> None:
    """A rated event's rating report names each player by FIDE id (TRF 001, columns 58-68): a
    wrong one is corrected (and cleared with ''), and a late entry is given one."""
    ok(cli, "player", swiss, "edit", "4", "--fide-id", " 12345678 ")
    [edit] = [entry for entry in log(cli, swiss) if entry["kind"] == "player-edited"]
    assert (edit["changes"], edit["previous"]) == ({"fide_id": "12345678"}, {"fide_id": ""})
    ok(cli, "player", swiss, "add", "--name", "Hồ, Minh", "--rating", "1400", "--fide-id", "99887766")
    ok(cli, "export", swiss, "--format", "trf", "-o", str(tmp_path / "out.trf"))
    lines = {line[14:47].strip(): line for line in (tmp_path / "out.trf").read_text(encoding="utf-8").splitlines()
             if line.startswith("001")}
    assert lines["Lý, Hùng"][57:68].strip() == "12345678" and lines["Hồ, Minh"][57:68].strip() == "99887766"
    ok(cli, "player", swiss, "edit", "4", "--fide-id", "")
    assert [entry["changes"] for entry in log(cli, swiss) if entry["kind"] == "player-edited"][-1] == {"fide_id": ""}


def test_a_late_entry_gets_the_pairing_number_its_rating_gives(cli: Command, swiss: str) -> None:
    ok(cli, "bye", swiss, "1", "4", "half")
    ok(cli, "pair", swiss)
    enter_round(cli, swiss, 1)
    added = ok(cli, "player", swiss, "add", "--name", "Mai, Thảo", "--rating", "2250", "--title", "WFM",
               "--federation", "vie", "--club", "Đà Nẵng")
    assert added.startswith("9: Mai, Thảo added to swiss8 (a late entry); pairing number 3")
    assert players(cli, swiss)[2] == {"tpn": 3, "id": 9, "name": "Mai, Thảo", "rating": 2250, "title": "WFM",
                                      "federation": "VIE", "club": "Đà Nẵng", "withdrawn": False}
    ok(cli, "bye", swiss, "1", "9", "half")  # GHR 2.4: points for the round missed only by a bye given
    refused(cli, swiss, ("bye", swiss, "1", "4", "zero"), "round 1 is already paired: a bye is entered before")
    ok(cli, "pair", swiss)
    assert 9 in {side for board in round_json(cli, swiss)["boards"] for side in (board["white"], board["black"])}
    assert [entry["kind"] for entry in log(cli, swiss)][-3:] == ["player-added", "bye", "round-paired"]


def test_unpair_takes_back_the_latest_round_and_undo_brings_it_back(cli: Command, swiss: str, config: Path,
                                                                    tmp_path: Path) -> None:
    ok(cli, "pair", swiss)
    ok(cli, "result", swiss, "1", "1", "1-0")
    ok(cli, "foul", swiss, "1", "2", "black")
    err = refused(cli, swiss, ("unpair", swiss), "round 1 has results or fouls on 2 boards: give --force")
    assert "`tiebreak undo` brings them back" in err
    out = ok(cli, "unpair", swiss, "--force")
    assert out.strip() == "unpaired round 1 of swiss8: 4 boards taken back; 1 result taken back (`tiebreak undo` " \
                          "brings them back)"
    status, _, err = cli(("round", swiss, "--json"))
    assert status == 2 and "no round is paired yet" in err
    assert log(cli, swiss)[-1]["kind"] == "round-unpaired"
    assert ok(cli, "undo", swiss).strip() == "undone: the un-pairing of round 1; round 1 is paired again as it was"
    again = round_json(cli, swiss, "1")
    assert again["boards"][0]["result"] == "1-0"
    assert log(cli, swiss)[-1]["kind"] == "round-paired" and "undo" in log(cli, swiss)[-1]
    with store(config) as opened:  # the foul came back too
        assert opened.state(swiss).games[(1, 2)].fouls_black == 1
    # a hand-made round: un-pair, then import the pairs; Tiebreak says where it departs from the Dutch system
    ok(cli, "unpair", swiss, "--force")
    (tmp_path / "hand.txt").write_text("4\n3 6\n2 5\n1 8\n7 4\n", encoding="utf-8")
    shown = ok(cli, "pair", swiss, "--pairs", str(tmp_path / "hand.txt"))
    assert "differs from the FIDE Dutch system" in shown
    tpn = tpns(cli, swiss)
    pairs = {frozenset((tpn[board["white"]], tpn[board["black"]])) for board in round_json(cli, swiss)["boards"]}
    assert pairs == {frozenset(pair) for pair in ((3, 6), (2, 5), (1, 8), (7, 4))}  # the file is read by TPN


def test_remove_before_the_first_round_draws_a_round_robin_again(cli: Command, rr: str) -> None:
    assert json.loads(ok(cli, "show", rr, "--json"))["rounds"] == 9
    out = ok(cli, "player", rr, "remove", "9")
    assert out.strip() == "player 9 Võ Minh Nhất removed from rr9"
    assert json.loads(ok(cli, "show", rr, "--json"))["rounds"] == 7  # eight players: seven rounds (CXA 14.4)
    assert [row["id"] for row in players(cli, rr)] == list(range(1, 9))
    ok(cli, "pair", rr)
    assert len(round_json(cli, rr)["boards"]) == 4
    refused(cli, rr, ("player", rr, "remove", "8"), "player 8 is in round 1, which is paired: `tiebreak withdraw`")
    refused(cli, rr, ("player", rr, "add", "--name", "Late"), "a round robin takes no late entries")
    ok(cli, "unpair", rr)
    assert ok(cli, "undo", rr).startswith("undone: the un-pairing")
    undone = ok(cli, "undo", rr)  # the un-pairing is taken back: the pairing is the change before
    assert undone.strip() == "undone: the pairing of round 1; round 1 is not paired now"
    assert ok(cli, "undo", rr).strip() == "undone: the removal of 9 Võ Minh Nhất; they are in the tournament again"
    assert json.loads(ok(cli, "show", rr, "--json"))["rounds"] == 9 and len(players(cli, rr)) == 9
    assert [entry["kind"] for entry in log(cli, rr)].count("player-added") == 1


def test_a_withdrawn_player_returns_from_the_next_round(cli: Command, swiss: str) -> None:
    for number in (1, 2):
        ok(cli, "pair", swiss)
        enter_round(cli, swiss, number)
    ok(cli, "withdraw", swiss, "7", "--after-round", "2")
    assert [row["withdrawn"] for row in players(cli, swiss) if row["id"] == 7] == [True]
    ok(cli, "pair", swiss)  # round 3 without 7
    assert 7 not in {side for board in round_json(cli, swiss)["boards"] for side in (board["white"], board["black"])}
    out = ok(cli, "return", swiss, "7")
    assert out.strip() == "player 7 Hồ, Anh returns to swiss8: paired again from round 4 (rounds 3 stay as the " \
                          "withdrawal made them)"
    assert {"player": 7, "kind": "zero"} in round_json(cli, swiss, "3")["byes"]
    enter_round(cli, swiss, 3)
    ok(cli, "pair", swiss)
    assert 7 in {side for board in round_json(cli, swiss)["boards"] for side in (board["white"], board["black"])}
    assert [row["withdrawn"] for row in players(cli, swiss) if row["id"] == 7] == [False]
    assert "player-returned" in [entry["kind"] for entry in log(cli, swiss)]
    refused(cli, swiss, ("return", swiss, "7"), "player 7 has not withdrawn")


def test_a_round_robin_takes_a_player_back_only_before_a_later_round_is_paired(cli: Command, rr: str) -> None:
    ok(cli, "pair", rr)
    enter_round(cli, rr, 1, ("2-0", "1-1", "0-2"))
    ok(cli, "withdraw", rr, "1", "--after-round", "1")
    ok(cli, "return", rr, "1")  # nothing paired since: the schedule is untouched
    ok(cli, "withdraw", rr, "1", "--after-round", "1")
    ok(cli, "pair", rr)
    refused(cli, rr, ("return", rr, "1"), "player 1 withdrew after round 1 and round 2 is paired since")


# -- a withdrawn player's boards, and when a round robin is finished --------------------------------

def test_a_round_robin_is_finished_only_when_every_game_has_a_result(cli: Command, rr: str, tmp_path: Path) -> None:
    for _ in range(1, 10):
        ok(cli, "pair", rr)
    show = json.loads(ok(cli, "show", rr, "--json"))
    assert (show["current_round"], show["finished"]) == (1, False)  # every round paired, round 1 still open
    enter_round(cli, rr, 1, ("2-0", "1-1", "0-2"))
    ok(cli, "withdraw", rr, "9", "--after-round", "1")  # 9 had the free round 1 (nine players)
    for number in range(2, 10):
        for board in round_json(cli, rr, str(number))["boards"]:
            if 9 not in (board["white"], board["black"]):
                ok(cli, "result", rr, str(number), str(board["board"]), "1-1")
        if number < 9:
            assert not json.loads(ok(cli, "show", rr, "--json"))["finished"]
    show = json.loads(ok(cli, "show", rr, "--json"))
    assert show["finished"] and show["complete_rounds"] == list(range(1, 10))
    forfeits = [board for board in round_json(cli, rr, "5")["boards"] if 9 in (board["white"], board["black"])]
    assert forfeits and all(board["result"] == ("-+" if board["white"] == 9 else "+-") for board in forfeits)
    ok(cli, "export", rr, "--format", "trf", "-o", str(tmp_path / "rr.trf"))
    line = next(line for line in (tmp_path / "rr.trf").read_text(encoding="utf-8").splitlines()
                if line.startswith("001    9"))
    assert len(re.findall(r"\d+ [wb] -", line)) == 7 and "0000 - Z" in line  # forfeits, and the free round


def test_annulled_boards_are_marked_in_round_json(cli: Command, rr: str) -> None:
    ok(cli, "set", rr, "rr_withdrawal=annul-at-most-half")
    ok(cli, "pair", rr)
    enter_round(cli, rr, 1, ("2-0", "1-1", "0-2"))
    ok(cli, "withdraw", rr, "2", "--after-round", "1")
    ok(cli, "pair", rr)
    board = next(board for board in round_json(cli, rr, "2")["boards"] if 2 in (board["white"], board["black"]))
    assert board["annulled"] is True and board["result"] is None
    assert json.loads(ok(cli, "show", rr, "--json"))["boards_without_result"] == sorted(
        entry["board"] for entry in round_json(cli, rr, "2")["boards"] if not entry.get("annulled"))


# -- the current round ---------------------------------------------------------------------------

def test_a_bye_for_the_next_round_does_not_move_the_current_round(cli: Command, swiss: str) -> None:
    ok(cli, "pair", swiss)
    ok(cli, "bye", swiss, "2", "4", "half")
    assert round_json(cli, swiss)["round"] == 1
    assert json.loads(ok(cli, "show", swiss, "--json"))["current_round"] == 1
    enter_round(cli, swiss, 1)
    assert round_json(cli, swiss)["round"] == 1  # every board has a result: still the latest paired round
    assert json.loads(ok(cli, "list", "--json"))[0]["paired_rounds"] == 1


# -- undo ----------------------------------------------------------------------------------------

def test_undo_takes_back_every_kind_of_change(cli: Command, swiss: str) -> None:
    ok(cli, "set", swiss, "rounds=7", "name=Renamed")
    ok(cli, "player", swiss, "edit", "5", "--club", "Huế")
    ok(cli, "player", swiss, "add", "--name", "Late, Entry", "--rating", "1900")
    ok(cli, "bye", swiss, "1", "9", "half")
    ok(cli, "pair", swiss)
    ok(cli, "result", swiss, "1", "1", "1-0")
    ok(cli, "foul", swiss, "1", "1", "white")
    ok(cli, "withdraw", swiss, "4", "--after-round", "1")
    steps = [
        ("undone: the withdrawal of 4 Lý, Hùng; they play on", lambda: 4 not in withdrawn(cli, swiss)),
        ("undone: round 1 board 1 foul (white); fouls on the board now: 0-0", lambda: True),
        ("undone: round 1 board 1 1-0; the board now has no result",
         lambda: round_json(cli, swiss, "1")["boards"][0]["result"] is None),
        ("undone: the pairing of round 1; round 1 is not paired now", lambda: no_round(cli, swiss)),
        ("undone: round 1 half-point bye of 9; now no bye", lambda: True),
        ("undone: the late entry of 9 Late, Entry; they are no longer in the tournament",
         lambda: len(players(cli, swiss)) == 8),
        ("undone: the correction of 5 Đinh, Thu: club '' again",
         lambda: [row["club"] for row in players(cli, swiss) if row["id"] == 5] == [""]),
        ("undone: the setting rounds=7; the settings are as they were before it",
         lambda: json.loads(ok(cli, "show", swiss, "--json"))["rounds"] == 5
         and json.loads(ok(cli, "show", swiss, "--json"))["name"] == "Da Nang Weekend Open"),
    ]
    for line, check in steps:
        assert ok(cli, "undo", swiss).strip() == line
        assert check(), line
    refused(cli, swiss, ("undo", swiss), "nothing to undo")
    kinds = [entry["kind"] for entry in log(cli, swiss) if "undo" in entry]
    assert kinds == ["player-returned", "foul", "annulment", "round-unpaired", "bye-cancelled", "player-removed",
                     "player-edited", "settings-restored"]


def withdrawn(cli: Command, slug: str) -> set[int]:
    return {row["id"] for row in players(cli, slug) if row["withdrawn"]}


def no_round(cli: Command, slug: str) -> bool:
    return cli(("round", slug, "--json"))[0] == 2


def test_undo_is_refused_when_a_later_change_depends_on_it(cli: Command, swiss: str, config: Path) -> None:
    ok(cli, "pair", swiss)
    with store(config) as opened:  # another arbiter, in the bot, enters a result of the round
        opened.append(swiss, lambda state: [result_event(state, 1, 2, "0-1")], OTHER)
        later = opened.log(swiss)[-1].id
    err = refused(cli, swiss, ("undo", swiss), f"a later change depends on it: event {later} (result, by tg:77")
    assert err.strip().endswith("take that back first")
    assert round_json(cli, swiss, "1")["boards"][1]["result"] == "0-1"


# -- every refusal: one line, exit status 2, nothing written -----------------------------------------

REFUSALS = [
    (("result", "{slug}", "2", "1", "1-0"), "round 2 is not paired (paired rounds: 1)"),
    (("result", "{slug}", "1", "9", "1-0"), "round 1 has no board 9 (boards 1-4)"),
    (("bye", "{slug}", "1", "5", "half"), "player 5 has a game in round 1"),
    (("player", "{slug}", "remove", "3"), "player 3 is in round 1, which is paired"),
    (("player", "{slug}", "edit", "3", "--rating", "12000"), "--rating 12000: expected 0-9999"),
    (("player", "{slug}", "edit", "3", "--title", "Grandmaster"), "--title 'Grandmaster': expected one of GM"),
    (("player", "{slug}", "edit", "3", "--fide-id", "12a"), "--fide-id '12a': expected its digits (at most 11)"),
    (("player", "{slug}", "edit", "3", "--fide-id", "123456789012"), "--fide-id '123456789012': expected its digits"),
    (("player", "{slug}", "edit", "3"), "nothing to change: give --name, --rating"),
    (("player", "{slug}", "edit", "99", "--rating", "2000"), "player 99 is not in the tournament"),
    (("player", "{slug}", "add", "--name", "Bad\x1b[31mName"), "--name holds the control character"),
    (("set", "{slug}", "rounds=0"), "rounds=0: expected a number of rounds"),
    (("return", "{slug}", "3"), "player 3 has not withdrawn"),
    (("withdraw", "{slug}", "3", "--after-round", "9"), "--after-round 9: expected 0-5"),
    (("pair", "{slug}"), "boards without a result: R1 B1, R1 B2, R1 B3, R1 B4: enter them first, or give --unfinished"),
    (("unpair", "{slug}"), None),  # (succeeds: no results yet) — checked below
]


@pytest.mark.parametrize(("args", "message"), [case for case in REFUSALS if case[1]],
                         ids=[" ".join(case[0][:3]) for case in REFUSALS if case[1]])
def test_a_refusal_is_one_line_and_writes_nothing(cli: Command, swiss: str, args: tuple[str, ...],
                                                   message: str) -> None:
    ok(cli, "pair", swiss)
    refused(cli, swiss, tuple(arg.format(slug=swiss) for arg in args), message)


def test_refusals_once_rounds_are_paired(cli: Command, swiss: str) -> None:
    for number in range(1, 6):
        ok(cli, "pair", swiss)
        enter_round(cli, swiss, number)
    refused(cli, swiss, ("player", swiss, "add", "--name", "Too Late"), "the final round (round 5) is paired")
    refused(cli, swiss, ("set", swiss, "rounds=4"), "rounds=4: round 5 already has games")
    refused(cli, swiss, ("pair", swiss), "every round is paired: the event has 5 rounds")
    refused(cli, swiss, ("bye", swiss, "5", "1", "half"), "player 1 has a game in round 5")
    refused(cli, swiss, ("set", swiss, "seeding=as-numbered"), "seeding=as-numbered: round 1 is already paired")


# -- results: every spelling the bot reads ------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["1-0", "2-0", "white wins", "red wins", "红胜", "黑负", "đỏ thắng", "đen thua",
                                      "blancas ganan", "0-1", "0-2", "black wins", "黑胜", "红负", "đen thắng",
                                      "đỏ thua", "negras ganan", "½-½", "1/2-1/2", "=", "1-1", "draw", "和", "和棋",
                                      "hòa", "hoa", "tablas", "empate", "+-", "-+", "--", "１－０", "1:0"])
def test_result_takes_every_spelling_the_bot_reads(cli: Command, swiss: str, spelling: str) -> None:
    ok(cli, "pair", swiss)
    ok(cli, "result", swiss, "1", "1", spelling)
    assert round_json(cli, swiss, "1")["boards"][0]["result"] is not None


# -- config.toml's paths ---------------------------------------------------------------------------

def test_paths_in_config_toml_are_relative_to_the_file(config: Path, cli: Command, swiss: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    away = in_process(Path("..") / config.name)
    assert [row["slug"] for row in json.loads(ok(away, "list", "--json"))] == [swiss]
    assert not (elsewhere / "data").exists()  # no second, empty store


def test_a_new_store_is_never_made_silently(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from tiebreak.cli import main

    monkeypatch.chdir(tmp_path)
    main(["import", str(SWISS)])
    err = capsys.readouterr().err
    assert err.strip() == "tiebreak: note: created a new store data/tiebreak.sqlite3 (no config.toml here; " \
                          "--config PATH names one)"
    main(["import", str(ROUND_ROBIN)])
    assert capsys.readouterr().err == ""
