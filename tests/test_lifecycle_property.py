"""Whatever the store accepts, its exports re-import to the same state (issue 11.2).

Hypothesis drives random sequences of the lifecycle commands arbiters give (pair the next
round, un-pair it, enter a result, correct one, add fouls, enter a requested bye, withdraw a
player and take them back, add a late entry, correct or remove a player, change a setting, undo
their last change) against a real SQLite store, each request accepted or refused by the store
exactly as the command line and the bot would have it; then the TOML export must read back to
the very tournament the log describes, with the same standings, and the TRF export (players
numbered by TPN) to the same points and places.  The next round is the clock's
(``ranking.event.clock``), as everywhere else.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranking.errors import InputError
from ranking.event.log import (
    Event,
    bye_event,
    foul_event,
    player_added_event,
    player_edited_event,
    player_removed_event,
    result_event,
    return_event,
    setting_event,
    unpair_event,
    withdrawal_event,
)
from ranking.event.model import ByeKind, GameKind, Player, Result, Seeding, System, Tournament
from ranking.event.players import pairing_numbers
from ranking.event.settings import parse_setting
from ranking.event.undo import undo_change
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.standings.final import final_standings
from ranking.tiebreaks.presets import get_preset
from tiebreak.exports import export_text
from tiebreak.running import propose_pairing
from tiebreak.store import Source, SQLiteStore

SOURCE = Source("cli:property")
OTHER = Source("tg:7")  # a second arbiter: undo takes back only one's own changes
RESULTS = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT,
           Result.DOUBLE_FORFEIT]

PLAYED = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW] * 4 + RESULTS
actions = st.one_of(
    st.tuples(st.just("pair")),
    st.tuples(st.just("pair")),
    *[st.tuples(st.just("result"), st.integers(0, 40), st.sampled_from(PLAYED))] * 6,
    st.tuples(st.just("correct"), st.integers(0, 40), st.sampled_from(RESULTS)),
    st.tuples(st.just("foul"), st.integers(0, 40), st.sampled_from(["white", "black"]), st.integers(1, 3)),
    st.tuples(st.just("bye"), st.integers(0, 14), st.integers(0, 2), st.sampled_from(list(ByeKind)[1:])),
    st.tuples(st.just("withdraw"), st.integers(0, 14), st.integers(0, 3)),
    st.tuples(st.just("late"), st.text("abcdefghij ", min_size=1, max_size=12).filter(str.strip),
              st.integers(0, 2500)),
    st.tuples(st.just("set"), st.sampled_from(["tiebreaks=BH,SB,WIN", "scoring=3,1,0", "playoff=1",
                                               "keep_rounds=3", "name=Renamed Open", "rules=cxa-swiss-bh"])),
    st.tuples(st.just("unpair"), st.booleans()),
    st.tuples(st.just("return"), st.integers(0, 14)),
    st.tuples(st.just("edit"), st.integers(0, 14), st.integers(0, 2600), st.sampled_from(["", "GM", "WIM"])),
    st.tuples(st.just("remove"), st.integers(0, 14)),
    st.tuples(st.just("undo"), st.booleans()),
    st.tuples(st.just("undo"), st.booleans()),
)


@st.composite
def events(draw: st.DrawFn) -> tuple[Tournament, list[tuple]]:
    size = draw(st.integers(3, 10))
    system = draw(st.sampled_from([System.SWISS, System.SWISS, System.ROUND_ROBIN]))
    rules = get_preset(draw(st.sampled_from(["fide-swiss", "cxa-swiss-bh", "cxa-rr", "fide-rr"])))
    rounds = system.scheduled_rounds(size) if system.is_round_robin else draw(st.integers(2, 6))
    players = tuple(Player(i, f"Player {i}", rating=2400 - 7 * i, club=draw(st.sampled_from(["", "Hà Nội"])))
                    for i in range(1, size + 1))
    game = draw(st.sampled_from(["chess", "xiangqi"]))
    seeding = draw(st.sampled_from(list(Seeding)))
    tournament = Tournament("Property Open", players, rounds, system=system, rules=rules, game=GameKind(game),
                            records=(("slug", "prop"), ("152", "W")), seeding=seeding)
    return tournament, draw(st.lists(actions, min_size=1, max_size=60))


def apply(store: SQLiteStore, action: tuple, number: int) -> None:
    """One command, as the store takes it; a refused one (InputError) writes nothing.  Every
    other command comes from the second arbiter."""
    source = OTHER if number % 2 else SOURCE

    def decide(state) -> list[Event]:
        kind = action[0]
        games = sorted(state.games.items())
        ids = sorted(state.ids)
        if kind == "pair":
            return [propose_pairing(state.snapshot()).event(state)]
        if kind == "unpair":
            return [unpair_event(state, force=action[1])]
        if kind == "undo":
            return list(undo_change(store.log("prop"), state, source.actor).events)
        if kind in ("result", "correct", "foul"):
            if not games:
                return []
            if kind == "result":  # mostly a board still waiting for its result
                games = [(key, game) for key, game in games if game.result is None] or games
            (number, board), _ = games[action[1] % len(games)]
            if kind == "foul":
                return [foul_event(state, number, board, action[2], action[3])]
            event = result_event(state, number, board, action[2], correct=kind == "correct")
            return [event] if event else []
        if kind == "bye":
            return [bye_event(state, state.clock().next_round + action[2], ids[action[1] % len(ids)], action[3])]
        if kind == "withdraw":
            after = max(0, state.snapshot().rounds_with_results - action[2])
            return [withdrawal_event(state, ids[action[1] % len(ids)], after)]
        if kind == "return":
            return [return_event(state, ids[action[1] % len(ids)])]
        if kind == "edit":
            event = player_edited_event(state, ids[action[1] % len(ids)], rating=action[2], title=action[3])
            return [event] if event else []
        if kind == "remove":
            return [player_removed_event(state, ids[action[1] % len(ids)])]
        if kind == "late":
            return [player_added_event(state, action[1], action[2])]
        return [setting_event(state, *parse_setting(action[1]))]

    with contextlib.suppress(InputError):  # refused: nothing written, as the command line says
        store.append("prop", decide, source)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(events())
def test_whatever_the_store_accepts_its_exports_read_back(case: tuple[Tournament, list[tuple]]) -> None:
    tournament, commands = case
    with SQLiteStore(":memory:") as store:
        store.create("prop", tournament, SOURCE)
        for number, action in enumerate(commands):
            apply(store, action, number)
        stored = store.tournament("prop")
    final = final_standings(stored)

    from_toml = parse_tournament_toml(export_text(stored, "toml"), source="export.toml")
    assert from_toml == stored  # the log-derived state itself
    assert final_standings(from_toml).as_json() == final.as_json()

    from_trf = parse_trf(export_text(stored, "trf"), source="export.trf")
    again = final_standings(from_trf)
    tpn = pairing_numbers(stored)  # the TRF numbers the players by pairing number
    assert again.points() == {tpn[pid]: points for pid, points in final.points().items()}
    assert again.ranks() == {tpn[pid]: rank for pid, rank in final.ranks().items()}


def test_the_property_explores_what_it_should(tmp_path: Path) -> None:
    """A fixed sequence through every command: paired rounds, results, a correction, a foul, a
    bye, a withdrawal and a late entry all reach the log, and the exports read back."""
    tournament = Tournament("Fixed", tuple(Player(i, f"P{i}") for i in range(1, 8)), 4,
                            rules=get_preset("cxa-swiss-bh"), records=(("152", "W"),))
    with SQLiteStore(tmp_path / "t.sqlite3") as store:
        store.create("prop", tournament, SOURCE)
        script = [("bye", 6, 0, ByeKind.HALF), ("pair",), *(("result", k, Result.WHITE_WINS) for k in range(3)),
                  ("correct", 0, Result.DRAW), ("foul", 1, "black", 2), ("withdraw", 2, 0), ("late", "Late", 1900),
                  ("edit", 0, 2300, "GM"), ("return", 2), ("late", "Later", 1500), ("remove", 8),
                  ("pair",), *(("result", k, Result.BLACK_WINS) for k in range(3, 7)), ("set", "tiebreaks=BH,WIN"),
                  ("undo", False), ("unpair", True), ("undo", False), ("pair",)]
        for action in script:
            apply(store, action, 0)
        kinds = [entry.event.kind.value for entry in store.log("prop")]
        stored = store.tournament("prop")
    assert kinds.count("round-paired") == 4 and "correction" in kinds and "foul" in kinds
    assert {"bye", "withdrawal", "player-added", "setting-changed", "player-edited", "player-returned",
            "player-removed", "settings-restored", "round-unpaired"} <= set(kinds)
    assert parse_tournament_toml(export_text(stored, "toml")) == stored
    assert final_standings(parse_trf(export_text(stored, "trf"))).ranks() == final_standings(stored).ranks()
