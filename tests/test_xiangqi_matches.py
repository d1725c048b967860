"""Xiangqi and Vietnamese events run live (issue 22, part 2): VN 21.2 two-game matches through
the store (imported, paired as matches, both games entered at once from the command line and
the bot, the TOML export lossless), a player who left before round 1 (CXA 14.4), and the lots
drawn when the results are complete.  Store round trips of two-game matches and team events.

Every expected value is worked out by hand in the comments beside it.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from open_scenario import Command, in_process, ok

from bot import entering
from bot.parsing import ProblemReason, ResultEntry, match_entries, parse_message
from bot.service import BotService, BotSettings, Who
from ranking import Result, compute_standings, parse_tournament_toml, parse_trf
from ranking.tiebreaks.lots import results_seed
from site_builder import SiteSettings, build_site
from tiebreak.exports import export_text
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

DATA = Path(__file__).parent / "data" / "xiangqi"
CLI = Source("cli:test")
CHIEF = 1001


@pytest.fixture
def cli(tmp_path: Path) -> Command:
    path = tmp_path / "config.toml"
    path.write_text('[storage]\npath = "store.sqlite3"\n', encoding="utf-8")
    return in_process(path)


def round_of(cli: Command, slug: str, number: int) -> dict:
    return json.loads(ok(cli, "round", slug, str(number), "--json"))


def boards(cli: Command, slug: str, number: int) -> list[tuple[int, int, int, str | None]]:
    return [(b["board"], b["white"], b["black"], b["result"]) for b in round_of(cli, slug, number)["boards"]]


def standings(cli: Command, slug: str) -> dict[int, tuple]:
    rows = json.loads(ok(cli, "standings", slug, "--json"))["standings"]
    return {row["id"]: (row["rank"], row["points"], row["tiebreaks"]["GP"]) for row in rows}


# -- VN 21.2: two-game matches in the store -----------------------------------------------------------


@pytest.mark.parametrize("name", ["vn-match.toml", "cxa-team-rr.toml", "cxa-team-swiss.toml", "cxa-team-rr.trf"])
def test_two_game_matches_and_team_events_round_trip_through_the_store(tmp_path: Path, name: str) -> None:
    """What is imported is what the export gives back: TOML for every event (the lossless one),
    TRF too where it can hold the event (not a two-game match: one game a player and round)."""
    tournament = load_tournament(DATA / name)
    with SQLiteStore(tmp_path / "store.sqlite3") as store:
        store.create("event", tournament, CLI)
        stored = store.tournament("event")
    assert parse_tournament_toml(export_text(stored, "toml")) == parse_tournament_toml(
        export_text(tournament, "toml"))
    if name.endswith(".trf"):
        assert parse_trf(export_text(stored, "trf")) == parse_trf(export_text(tournament, "trf"))


def test_a_two_game_match_event_is_imported_and_its_trf_export_names_toml(cli: Command) -> None:
    """The import no longer runs the TRF check on a two-game match event: TOML keeps it."""
    out = ok(cli, "import", str(DATA / "vn-match.toml"))
    assert "4 players, 8 results" in out
    assert boards(cli, "vn-match", 1) == [(1, 1, 2, "1-0"), (2, 2, 1, "1/2-1/2"), (3, 3, 4, "1/2-1/2"),
                                          (4, 4, 3, "1/2-1/2")]
    status, _out, err = cli(["export", "vn-match", "--format", "trf"])
    assert status == 2 and "export the tournament as TOML" in err and "(--format toml)" in err
    assert parse_tournament_toml(ok(cli, "export", "vn-match", "--format", "toml")) == load_tournament(
        DATA / "vn-match.toml")
    # MP then GP as the file gives them (test_xiangqi_events.py): P1 1½ 5, P2 1 5, P3 1 4, P4 ½ 2
    assert standings(cli, "vn-match") == {1: (1, 1.5, 5), 2: (2, 1, 5), 3: (3, 1, 4), 4: (4, 0.5, 2)}


# vn-match-new.toml: five players rated 2400 down to 2200, so pairing numbers 1-5 are the ids.
# Round 1 (C.04.3): S1 = {1, 2}, S2 = {3, 4}, 5 gets the pairing-allocated bye (lowest). 1 takes the
# initial colour (red) and board 2 alternates: 1-3 and 4-2, each a match of two games, the second
# with the colours reversed, the k-th match on boards 2k-1 and 2k:
ROUND_1 = [(1, 1, 3), (2, 3, 1), (3, 4, 2), (4, 2, 4)]


def test_a_two_game_match_is_paired_as_two_games_with_the_colours_reversed(cli: Command) -> None:
    ok(cli, "import", str(DATA / "vn-match-new.toml"))
    shown = ok(cli, "pair", "vn-match-new")
    assert shown.startswith("paired round 1 of vn-match-new: 4 boards")
    assert [row[:3] for row in boards(cli, "vn-match-new", 1)] == ROUND_1
    assert round_of(cli, "vn-match-new", 1)["byes"] == [{"player": 5, "kind": "pab"}]


def test_both_games_of_a_match_are_entered_in_one_command_or_one_at_a_time(cli: Command) -> None:
    ok(cli, "import", str(DATA / "vn-match-new.toml"))
    ok(cli, "pair", "vn-match-new")
    # Naming board 2 enters the match of boards 1-2, the results in the order the games are played:
    # board 1 (1 red) 1-0, board 2 drawn.  1 scores 2 + 1 = 3 game points, 3 scores 1: 1 wins the match.
    out = ok(cli, "result", "vn-match-new", "1", "2", "1-0", "1/2-1/2")
    assert out.splitlines() == ["round 1 board 1: Lại Lý Huynh - Trần Chánh Tâm 2-0: recorded",
                                "round 1 board 2: Trần Chánh Tâm - Lại Lý Huynh 1-1: recorded"]
    # One game alone: board 3, 4 (red) - 2, black wins; board 4, 2 (red) - 4, black wins again: 2-2.
    ok(cli, "result", "vn-match-new", "1", "3", "黑胜")
    ok(cli, "result", "vn-match-new", "1", "4", "0-1")
    assert [row[3] for row in boards(cli, "vn-match-new", 1)] == ["1-0", "1/2-1/2", "0-1", "0-1"]
    # MP: 1 wins (1), 2 and 4 draw (½ each), 3 loses (0), 5's bye is a won match (1) worth two
    # won games (4 GP).  GP: 1 3, 2 2, 3 1, 4 2, 5 4.  By MP, then GP: 5, 1, then 2 and 4 tied, 3.
    assert standings(cli, "vn-match-new") == {5: (1, 1, 4), 1: (2, 1, 3), 2: (3, 0.5, 2), 4: (3, 0.5, 2),
                                              3: (5, 0, 1)}
    # A correction of both games at once needs --correct; the unchanged game is said so.
    status, _out, err = cli(["result", "vn-match-new", "1", "1", "1-0", "0-1"])
    assert status == 2 and "round 1 board 2 already has 1-1; give --correct" in err
    out = ok(cli, "result", "vn-match-new", "1", "1", "1-0", "0-1", "--correct")
    assert out.splitlines()[0].endswith("2-0: already recorded, nothing changed")
    assert out.splitlines()[1].endswith("0-2: corrected (was 1-1)")


def two_rounds_paired(cli: Command, first: tuple[str, str], second: tuple[str, str]) -> None:
    """vn-match-new imported, round 1 paired, both of its matches entered, round 2 paired."""
    ok(cli, "import", str(DATA / "vn-match-new.toml"))
    ok(cli, "pair", "vn-match-new")
    ok(cli, "result", "vn-match-new", "1", "1", *first)
    ok(cli, "result", "vn-match-new", "1", "3", *second)
    ok(cli, "pair", "vn-match-new")


def test_round_two_pairs_matches_that_have_not_met(cli: Command) -> None:
    two_rounds_paired(cli, ("1-0", "1/2"), ("0-1", "0-1"))
    games = boards(cli, "vn-match-new", 2)
    # two matches on boards 1-2 and 3-4, each the same pair with the colours reversed
    assert [board for board, *_ in games] == [1, 2, 3, 4]
    for first, second in (games[0:2], games[2:4]):
        assert (second[1], second[2]) == (first[2], first[1])
    met = {frozenset((white, black)) for _, white, black in ROUND_1}
    assert not met & {frozenset((white, black)) for _, white, black, _ in games}
    # 3, the only player without a match point and without a bye so far, gets the bye (C.04.3 A.5)
    assert round_of(cli, "vn-match-new", 2)["byes"] == [{"player": 3, "kind": "pab"}]


def test_two_results_for_a_single_game_are_refused_naming_the_rule(cli: Command) -> None:
    ok(cli, "import", str(DATA / "left-before-start.toml"))
    before = ok(cli, "log", "left-before-start")
    status, out, err = cli(["result", "left-before-start", "1", "1", "1-0", "0-1"])
    assert (status, out) == (2, "")
    assert err == ("tiebreak: error: round 1 board 1 is one game, not a two-game match (VN 21.2): give one result\n")
    assert ok(cli, "log", "left-before-start") == before


def test_the_site_of_a_stored_match_event_shows_both_games(tmp_path: Path) -> None:
    with SQLiteStore(tmp_path / "store.sqlite3") as store:
        store.create("vn-match", load_tournament(DATA / "vn-match.toml"), CLI)
        tournament = store.tournament("vn-match")
    out = tmp_path / "public"
    assert build_site({"vn-match": tournament}, SiteSettings(out_dir=out, languages=("en", "vi"))).skipped == {}
    html = (out / "vi" / "vn-match" / "round-2.html").read_text(encoding="utf-8")
    # round 2: 1-3 0-2 and 3-1 0-2 (each won with black), 2 wins both games against the absent 4
    for name in ("Lại Lý Huynh", "Trần Chánh Tâm", "Nguyễn Thành Bảo", "Uông Dương Bắc"):
        assert html.count(name) == 2
    assert (out / "vn-match" / "vn-match.toml").exists() and not (out / "vn-match" / "vn-match.trf").exists()
    # player 2's page: each round's two games, then the match's score: R1 lost with black, drawn with red:
    # 1 game point, the match lost (0); R2 two forfeit wins against the absent 4: the match won (1 in all)
    card = (out / "vi" / "vn-match" / "players" / "2.html").read_text(encoding="utf-8")
    body = card[card.index('<table class="games">'):]
    cells = re.findall(r'<td class="result">([^<]*)</td>\s*<td class="score">([^<]*)</td>', body)
    assert cells == [("0", ""), ("1", "0"), ("+", ""), ("+", "1")]


# -- the bot: one message for both games, or each game alone -----------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "bot.sqlite3") as opened:
        opened.create("vn-match-new", load_tournament(DATA / "vn-match-new.toml"), CLI)
        opened.create("left-before-start", load_tournament(DATA / "left-before-start.toml"), CLI)
        yield opened


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    from tiebreak.running import propose_pairing

    proposal = propose_pairing(store.tournament("vn-match-new"))
    store.append("vn-match-new", lambda state: [proposal.event(state)], CLI)
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


_messages = iter(range(1, 1000))


def send(service: BotService, slug: str, text: str, language: str) -> list[str]:
    number = next(_messages)
    who = Who(CHIEF, CHIEF, language, message_id=number, update_id=number)
    service.remember(who, tournament=slug)
    return "\n".join(reply.text for reply in entering.text(service, who, text)).split("\n")


def results(store: SQLiteStore, slug: str, number: int) -> list[str | None]:
    state = store.state(slug)
    return [game.result.value if game.result else None
            for (r, _board), game in sorted(state.games.items()) if r == number]


def test_one_message_enters_both_games_of_a_match_in_vietnamese(service: BotService, store: SQLiteStore) -> None:
    reply = send(service, "vn-match-new", "ván 1 bàn 1: đỏ thắng, hòa", "vi")
    assert reply[1:] == ["Ván 1, bàn 1: Lại Lý Huynh – Trần Chánh Tâm 2-0, đã ghi nhận",
                         "Ván 1, bàn 2: Trần Chánh Tâm – Lại Lý Huynh 1-1, đã ghi nhận"]
    assert results(store, "vn-match-new", 1) == ["1-0", "1/2-1/2", None, None]


def test_each_game_alone_and_both_in_chinese(service: BotService, store: SQLiteStore) -> None:
    send(service, "vn-match-new", "第1轮第3台 黑胜", "zh")  # one game: board 3 only
    assert results(store, "vn-match-new", 1) == [None, None, "0-1", None]
    send(service, "vn-match-new", "第1轮第2台 红胜 和", "zh")  # board 2 names the match of boards 1-2
    assert results(store, "vn-match-new", 1) == ["1-0", "1/2-1/2", "0-1", None]


def test_two_results_for_a_single_game_are_a_problem_and_nothing_is_entered(service: BotService,
                                                                            store: SQLiteStore) -> None:
    before = [entry.id for entry in store.log("left-before-start")]
    reply = send(service, "left-before-start", "R1 B1 1-0 0-1", "vi")
    assert "bàn 1 là một ván, không phải trận đấu hai ván: hãy ghi một kết quả" in reply[-1]
    assert [entry.id for entry in store.log("left-before-start")] == before


def test_the_parser_reads_two_results_after_one_board() -> None:
    parsed = parse_message("R1 B3 1-0 0-1\nB4 红胜 和\n5 1/2 1/2\nR2 B1 1-0", 2)
    assert [(e.round, e.board, e.result, e.second) for e in parsed.entries] == [
        (1, 3, Result.WHITE_WINS, Result.BLACK_WINS), (2, 4, Result.WHITE_WINS, Result.DRAW),
        (2, 5, Result.DRAW, Result.DRAW), (2, 1, Result.WHITE_WINS, None)]
    entries, problems = match_entries(parsed.entries, lambda number, board: {3: (3, 4), 4: (3, 4)}.get(board, (board,)))
    assert [(e.board, e.result) for e in entries] == [(3, Result.WHITE_WINS), (4, Result.BLACK_WINS),
                                                       (3, Result.WHITE_WINS), (4, Result.DRAW),
                                                       (1, Result.WHITE_WINS)]
    assert [(p.line, p.reason, p.detail) for p in problems] == [(3, ProblemReason.NOT_A_MATCH, "5")]
    assert all(isinstance(entry, ResultEntry) and entry.second is None for entry in entries)


# -- CXA 14.4: a player who left before round 1 --------------------------------------------------------
#
# left-before-start.toml (cxa-swiss-bh, 2/1/0, a PAB worth a win, BH counts a bye as the lowest score
# in the field): player 6 withdrew after round 0 and has no game.
#   R1  1-2 1-0, 3-4 drawn, 5 PAB        R2  5-1 drawn, 2-3 drawn, 4 PAB
# Points: 1 2+1 = 3, 2 0+1 = 1, 3 1+1 = 2, 4 1+2 = 3, 5 2+1 = 3 (6: 0, not in the field).
# The lowest score in the field is 1 (player 2), not 6's 0.  BH:
#   1: 2 (1) + 5 (3) = 4     2: 1 (3) + 3 (2) = 5     3: 4 (3) + 2 (1) = 4
#   4: 3 (2) + bye (1) = 3   5: bye (1) + 1 (3) = 4
# 1 and 5: 3 points, BH 4, one win each, no fouls; BPG: 1 played black in round 2, 5 never: 1 first.
LEFT_BEFORE_START = {1: (1, 3, 4), 5: (2, 3, 4), 4: (3, 3, 3), 3: (4, 2, 4), 2: (5, 1, 5)}


@pytest.mark.parametrize("name", ["left-before-start.toml", "left-before-start.trf"])
def test_a_player_who_left_before_round_1_is_not_counted_by_lowest_score(name: str) -> None:
    rows = compute_standings(load_tournament(DATA / name)).rows
    found = {row.player.id: (row.rank, row.points, row.values["BH"]) for row in rows}
    assert {pid: found[pid] for pid in LEFT_BEFORE_START} == LEFT_BEFORE_START


def test_a_player_removed_before_round_1_leaves_the_field(cli: Command) -> None:
    """``tiebreak player SLUG remove ID`` takes them out: no withdrawal, no row, not in the field."""
    ok(cli, "import", str(DATA / "left-before-start.toml"))
    ok(cli, "player", "left-before-start", "remove", "6")
    rows = json.loads(ok(cli, "standings", "left-before-start", "--json"))["standings"]
    assert {row["id"]: (row["rank"], row["points"], row["tiebreaks"]["BH"]) for row in rows} == LEFT_BEFORE_START
    assert not any(row["withdrawn"] for row in json.loads(ok(cli, "players", "left-before-start", "--json")))


def test_a_round_robin_is_drawn_again_for_the_players_left(cli: Command, tmp_path: Path) -> None:
    """Five players make a five-round robin with a free round each; with player 5 removed before
    round 1, four players: three rounds, Berger table of 4 (1-4, 2-3; 4-3, 1-2; 2-4, 3-1)."""
    text = (DATA / "vn-match-new.toml").read_text(encoding="utf-8").replace(
        'system = "swiss"', 'system = "round-robin"').replace('rules = "vn-match"', 'rules = "vn-rr"').replace(
        "rounds = 2", "rounds = 5").replace('slug = "vn-match-new"', 'slug = "rr5"')
    (tmp_path / "rr5.toml").write_text(text, encoding="utf-8")
    ok(cli, "import", str(tmp_path / "rr5.toml"))
    ok(cli, "player", "rr5", "remove", "5")
    assert json.loads(ok(cli, "show", "rr5", "--json"))["rounds"] == 3
    for number, pairs in ((1, [(1, 4), (2, 3)]), (2, [(4, 3), (1, 2)]), (3, [(2, 4), (3, 1)])):
        ok(cli, "pair", "rr5")
        assert [row[1:3] for row in boards(cli, "rr5", number)] == pairs
        assert round_of(cli, "rr5", number)["byes"] == []


# -- LOT: drawn when the results are complete ---------------------------------------------------------


def test_the_store_draws_the_lots_when_the_last_result_is_entered(cli: Command, tmp_path: Path) -> None:
    """vn-swiss ends its chain with LOT.  Before the last result nobody knows the seed (none is
    stored, and the one the standings would use is a digest of results still to come); the last
    result draws one at random and logs it, and undo leaves it drawn."""
    text = (DATA / "vn-match-new.toml").read_text(encoding="utf-8").replace(
        'rules = "vn-match"', 'rules = "vn-swiss"').replace("rounds = 2", "rounds = 1").replace(
        'slug = "vn-match-new"', 'slug = "lots"')
    (tmp_path / "lots.toml").write_text(text, encoding="utf-8")
    ok(cli, "import", str(tmp_path / "lots.toml"))
    ok(cli, "pair", "lots")
    ok(cli, "result", "lots", "1", "1", "1/2")
    assert "lots_seed" not in ok(cli, "export", "lots", "--format", "toml")
    ok(cli, "result", "lots", "1", "2", "1/2")
    log = [json.loads(line) for line in ok(cli, "log", "lots", "--json").splitlines()]
    assert [entry["kind"] for entry in log][-2:] == ["result", "lots-drawn"]
    seed = log[-1]["seed"]
    assert len(seed) == 16 and int(seed, 16) >= 0
    exported = ok(cli, "export", "lots", "--format", "toml")
    assert f'lots_seed = "{seed}"' in exported
    assert seed != results_seed(parse_tournament_toml(exported))  # drawn, not derived
    assert f"lots drawn with seed '{seed}'" in ok(cli, "standings", "lots")
    assert ok(cli, "undo", "lots").startswith("undone: round 1 board 2")  # the result, not the lots
    ok(cli, "result", "lots", "1", "2", "1-0")  # complete again: the seed drawn stays
    assert [json.loads(line)["kind"] for line in ok(cli, "log", "lots", "--json").splitlines()].count(
        "lots-drawn") == 1
    assert f"lots drawn with seed '{seed}'" in ok(cli, "standings", "lots")


def test_no_lots_are_drawn_for_a_chain_without_lot(cli: Command) -> None:
    two_rounds_paired(cli, ("1-0", "0-1"), ("1-0", "0-1"))
    for board in (1, 3):
        ok(cli, "result", "vn-match-new", "2", str(board), "1-0", "1-0")
    assert "lots-drawn" not in ok(cli, "log", "vn-match-new")



# -- their own words: withdrawals marked alike everywhere, the team preset named, GP first for 14.7 ------
#
# vn-rr-withdrawals.toml (VN 21.5.1, test_xiangqi_events.py): 5 withdrew after round 2 having played
# 2 of 5 games, all annulled (X, counting nothing), also round 3's 4-5 left without a result; 6
# withdrew after round 3 having played 3: round 5's 3-6, which the file never lists, is a forfeit
# won by 3: X for 3 and 0 for 6 (VN 21.5).


def card(state, player: int, language: str = "vi") -> list[list[str]]:
    from bot.messages import translator
    from bot.views import player_blocks

    text = html.unescape(re.sub(r"<[^>]+>", "", "\n".join(player_blocks(state, player, translator(language)))))
    return [line.split() for line in text.splitlines()[2:]]


def test_the_bots_player_card_marks_withdrawals_as_the_crosstable_does() -> None:
    from ranking import TournamentState

    state = TournamentState(load_tournament(DATA / "vn-rr-withdrawals.toml"))
    third = card(state, 3)
    assert [(row[0], row[-1]) for row in third] == [("1", "0"), ("2", "X"), ("3", "½"), ("4", "½"), ("5", "X")]
    assert [(row[0], row[-1]) for row in card(state, 5)] == [("1", "X"), ("2", "X"), ("3", "X")]
    assert [(row[0], row[-1]) for row in card(state, 6)][-1] == ("5", "0")


def test_an_annulled_board_is_an_x_on_the_round_page_and_in_the_bot(tmp_path: Path) -> None:
    from bot.messages import translator
    from bot.views import round_blocks
    from ranking import TournamentState

    tournament = load_tournament(DATA / "vn-rr-withdrawals.toml")
    blocks = round_blocks(TournamentState(tournament), 3, translator("zh"))
    assert [re.split(r"\s{2,}", line.strip())[2] for line in html.unescape(
        re.sub(r"<[^>]+>", "", blocks[-1])).splitlines()[1:]] == ["1-0", "½-½", "X"]  # board 3: 4-5, annulled
    out = tmp_path / "public"
    build_site({"w": tournament}, SiteSettings(out_dir=out, languages=("en", "zh")))
    page = (out / "zh" / "w" / "round-3.html").read_text(encoding="utf-8")
    assert '<td class="result"><abbr title="已取消">X</abbr></td>' in page
    assert '<td class="result">…</td>' not in page


@pytest.fixture
def team_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ranking.formats.toml_settings import with_tournament_keys

    swiss = load_tournament(DATA / "cxa-team-swiss.toml")
    out = tmp_path_factory.mktemp("teams") / "public"
    build_site({"rr": load_tournament(DATA / "cxa-team-rr.toml"),
                "gp": with_tournament_keys(swiss, {"team_rules": "cxa-team-gp"})},
               SiteSettings(out_dir=out, languages=("en", "zh", "vi")))
    return out


@pytest.mark.parametrize(("language", "words"), [
    ("zh", "<dt>团体规则</dt><dd><code>cxa-team-rr</code>: CXA 14.5：团体循环赛"),
    ("vi", "<dt>Luật đồng đội</dt><dd><code>cxa-team-rr</code>: CXA 14.5: đồng đội vòng tròn")])
def test_the_site_header_names_the_team_preset(team_site: Path, language: str, words: str) -> None:
    page = (team_site / language / "rr" / "index.html").read_text(encoding="utf-8")
    assert words in page


# cxa-team-swiss.toml ranked by cxa-team-gp (CXA 14.7: by game points; test_xiangqi_events.py):
# 上海 6 GP (4 MP), then 四川 and 北京 4 GP (2 MP), 广东 2 GP (0 MP): the GP column comes first.
def test_a_team_swiss_ranked_by_game_points_shows_them_first(team_site: Path, cli: Command) -> None:
    page = (team_site / "zh" / "gp" / "teams.html").read_text(encoding="utf-8")
    head = re.findall(r"<th scope=\"col\" class=\"num\"><abbr title=\"(\w+):", page)
    assert head[:3] == ["GP", "MP", "BH"]
    assert re.search(r"上海</a></th>\s*<td class=\"num\"><strong>6</strong></td><td class=\"num\">4</td>", page)
    rr = (team_site / "zh" / "rr" / "teams.html").read_text(encoding="utf-8")
    assert re.findall(r"<abbr title=\"(\w+):", rr)[:2] == ["MP", "GP"]  # CXA 14.5: match points first
    table = ok(cli, "standings", str(DATA / "cxa-team-swiss.toml"), "--rules", "cxa-team-gp")
    assert "#  Team  GP  MP  BH:MP  WIN:T  FOUL:T  PREV" in table
    assert "1  上海   6   4      4      2       0     0" in table  # a CJK character is two columns wide


def test_a_round_of_matches_paired_elsewhere_is_imported_as_two_games_each(cli: Command, tmp_path: Path) -> None:
    """A pairs file lists each match once (a pair, the bye as ``5 0``); it is stored as two games
    a match and compared with the Dutch pairing of the matches: the same as ROUND_1."""
    ok(cli, "import", str(DATA / "vn-match-new.toml"))
    (tmp_path / "round-1.txt").write_text("3\n1 3\n4 2\n5 0\n", encoding="utf-8")
    shown = ok(cli, "pair", "vn-match-new", "--pairs", str(tmp_path / "round-1.txt"))
    assert shown.rstrip().endswith("identical to the FIDE Dutch system's pairing (2 boards, bye 5, colours included)")
    assert [row[:3] for row in boards(cli, "vn-match-new", 1)] == ROUND_1
