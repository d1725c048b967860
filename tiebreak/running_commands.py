"""What the "Running an event" subcommands do (their arguments: ``tiebreak/cli_running.py``):
list, show, set, archive, restore, round, players, player add/edit/remove, unpair, return, bye,
foul, undo, and ``pairings``, ``check`` and ``generate`` (no store).  Each change is one event of
the store's log; each prints one line saying what it did, or raises ``InputError`` (a ``Refusal``
of the core, worded by ``tiebreak.wording``: one line, exit status 2) and writes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace

from ranking.errors import InputError
from ranking.event.log import Event, EventKind, TournamentState, bye_event, foul_event
from ranking.event.model import ByeKind, GameKind, Result, Tournament
from ranking.event.players import pairing_numbers, players_json
from ranking.event.refusals import Code, Refusal, number_ranges
from ranking.event.settings import parse_setting, setting_text
from ranking.pairing.dutch import RoundCheck, check_rounds, pairing_json, pairs_text, round_check_json
from ranking.pairing.swiss import pair_swiss
from ranking.scoring.rules import Options
from ranking.scoring.spelling import written_result
from ranking.standings.individual import default_rules
from tiebreak.columns import render_table
from tiebreak.control_characters import printable
from tiebreak.files import load_tournament, write_output
from tiebreak.running import (
    Undone,
    changed_settings,
    details,
    dutch_games,
    late_entry,
    player_edit,
    remove_player,
    return_player,
    round_json,
    round_to_show,
    summary,
    undo_last,
    unpair,
)
from tiebreak.store import Source, Store
from tiebreak.tables import scoring_words

_BYE_KINDS = {"half": ByeKind.HALF, "zero": ByeKind.ZERO, "full": ByeKind.FULL}
_BYE_WORDS = {ByeKind.PAIRING: "pairing-allocated bye", ByeKind.FULL: "full-point bye",
              ByeKind.HALF: "half-point bye", ByeKind.ZERO: "zero-point bye"}


def json_line(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def list_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    rows = [summary(store, slug) for slug in store.slugs(archived=args.all)]
    if args.json:
        json_line(rows)
        return
    if not rows:
        print("no tournaments" + ("" if args.all else " (archived ones: --all)") + ": `tiebreak import FILE`")
        return
    table = [[row["slug"], row["name"], row["game"], row["system"], str(row["players"]),
              f"{row['paired_rounds']}/{row['rounds']}", "archived" if row["archived"] else ""] for row in rows]
    print(render_table(["slug", "name", "game", "system", "players", "paired", ""], table,
                       [False, False, False, False, True, True, False]))


def show_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    data = details(store, args.slug)
    if args.json:
        json_line(data)
        return
    tournament = store.state(args.slug).snapshot()
    scoring = scoring_words(default_rules(tournament).scoring, tournament.game.first_colour)
    lines = [f"{printable(data['name'])} ({data['slug']}{', archived' if data['archived'] else ''})",
             f"{data['game']}, {data['system']}, {data['players']} players, "
             f"{data['paired_rounds']} of {data['rounds']} rounds paired",
             f"rules: {data['rules'] or '(own)'}; {scoring}; "
             f"tie-breaks: {', '.join(data['tiebreaks']) or 'none'}"]
    defaults = {name: getattr(value, "value", value) for name, value in vars(Options()).items()}
    changed = {key: value for key, value in data["options"].items() if value != defaults.get(key)}
    if changed:
        lines.append("options: " + ", ".join(f"{key} = {value}" for key, value in changed.items()))
    if data["playoff"]:
        lines.append(f"play-off: places {', '.join(map(str, data['playoff']['places']))}, {data['playoff']['when']}")
    lines.append(f"pairing numbers: {_SEEDING_WORDS[data['seeding']]}")
    if data["finished"]:
        lines.append("finished: every round is paired and every board has a result")
    elif data["current_round"] is not None:
        waiting = data["boards_without_result"]
        lines.append(f"round {data['current_round']}: " + (
            f"boards without a result: {', '.join(map(str, waiting))}" if waiting else "every board has a result"))
    for withdrawal in data["withdrawals"]:
        lines.append(f"player {withdrawal['player']} withdrew after round {withdrawal['after_round']}")
    print("\n".join(lines))


def set_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    changes = [parse_setting(text) for text in args.settings]
    store.append(args.slug, lambda state: changed_settings(state, changes), source)
    print(f"{args.slug}: " + ", ".join(setting_text(key, value) for key, value in changes))


def archive_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    def decide(state: TournamentState) -> list[Event]:
        if state.archived:
            raise Refusal(Code.ALREADY_ARCHIVED, slug=args.slug)
        return [Event(EventKind.ARCHIVED)]

    store.append(args.slug, decide, source)
    print(f"archived {args.slug}: hidden from `tiebreak list`, the bot and the site; nothing is deleted "
          f"(`tiebreak restore {args.slug}` brings it back)")


def restore_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    def decide(state: TournamentState) -> list[Event]:
        if not state.archived:
            raise Refusal(Code.NOT_ARCHIVED, slug=args.slug)
        return [Event(EventKind.RESTORED)]

    store.append(args.slug, decide, source)
    print(f"restored {args.slug}")


def round_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    state = store.state(args.slug)
    number = round_to_show(state, args.number)
    if args.json:
        json_line(round_json(state, number))
    else:
        print(round_table(state.snapshot(), number, round_json(state, number)))


def round_table(tournament: Tournament, number: int, shown: dict | None = None) -> str:
    """Round ``number``'s boards (board, both players with starting numbers, in the game's
    colour words, the result in the event's terms; a board the withdrawal rule decides shows
    its forfeit, or "annulled") and its byes."""
    names = {player.id: player.name for player in tournament.players}
    scoring = default_rules(tournament).scoring
    first = "Red" if tournament.game is GameKind.XIANGQI else "White"
    games = sorted((game for game in tournament.games if game.round == number), key=lambda game: game.board)
    decided = {board["board"]: board for board in (shown or {}).get("boards", [])}

    def result(board: int) -> str:
        entry = decided.get(board, {})
        if entry.get("annulled"):
            return "annulled"
        return written_result(Result(entry["result"]), scoring) if entry.get("result") else "-"

    rows = [[str(game.board), str(game.white), names[game.white],
             written_result(game.result, scoring) if game.result and game.board not in decided else result(game.board),
             str(game.black), names[game.black]]
            for game in games]
    lines = [f"{printable(tournament.name)}: round {number} of {tournament.rounds}"]
    if rows:
        lines.append(render_table(["Bd", "No", first, "Result", "No", "Black"], rows,
                                  [True, True, False, False, True, False]))
    for bye in sorted((bye for bye in tournament.byes if bye.round == number), key=lambda bye: bye.player):
        lines.append(f"{_BYE_WORDS[bye.kind]}: {bye.player} {printable(names[bye.player])}")
    return "\n".join(lines)


def players_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    """``tiebreak players SLUG``: the initial ranking list (``ranking.event.players.players_json``)."""
    tournament = store.tournament(args.slug)
    rows = players_json(tournament)
    if args.json:
        json_line(rows)
        return
    table = [[str(row["tpn"]), str(row["id"]), row["title"], printable(row["name"]), str(row["rating"] or ""),
              row["federation"], printable(row["club"]), "withdrawn" if row["withdrawn"] else ""] for row in rows]
    print(f"{printable(tournament.name)}: {len(rows)} players, {_SEEDING_WORDS[tournament.seeding.value]}")
    if table:
        print(render_table(["TPN", "No", "Title", "Name", "Rtg", "Fed", "Club", ""], table,
                           [True, True, False, False, True, False, False, False]))


_SEEDING_WORDS = {"rating": "ranked by rating, title and name (GHR 2)",
                  "as-numbered": "the starting numbers are the pairing numbers"}


def player_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    """``tiebreak player SLUG add|edit|remove``."""
    if args.action == "add":
        if args.name is None:
            raise InputError("player add needs --name NAME")
        appended = store.append(args.slug, lambda state: [late_entry(
            state, args.name, args.rating or 0, args.federation or "", args.club or "", args.title or "",
            args.fide_id or "")], source)
        player = appended[0].event.data["player"]
        print(f"{player['id']}: {printable(player['name'])} added to {args.slug} (a late entry); "
              f"pairing number {_tpn(store, args.slug, player['id'])}")
        return
    if args.id is None:
        raise InputError(f"player {args.action} needs the player's starting number, e.g. "
                         f"tiebreak player {args.slug} {args.action} 12")
    if args.action == "remove":
        event = remove_player(store, args.slug, args.id, source)
        print(f"player {args.id} {printable(event.data['player']['name'])} removed from {args.slug}")
        return
    changes = {"name": args.name, "rating": args.rating, "title": args.title, "federation": args.federation,
               "club": args.club, "fide_id": args.fide_id}
    appended = store.append(args.slug, lambda state: player_edit(state, args.id, **changes), source)
    if not appended:
        print(f"player {args.id} of {args.slug}: nothing changed")
        return
    data = appended[0].event.data
    shown = ", ".join(f"{key} {printable(str(data['previous'][key]))!r} -> {printable(str(value))!r}"
                      for key, value in data["changes"].items())
    print(f"player {args.id} of {args.slug}: {shown}; pairing number {_tpn(store, args.slug, args.id)}")


def _tpn(store: Store, slug: str, player: int) -> int:
    return pairing_numbers(store.tournament(slug))[player]


def unpair_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    """``tiebreak unpair SLUG [--force]``: the latest paired round taken back."""
    data = unpair(store, args.slug, source, args.force).data
    results = sum(1 for row in data["games"] if row[3])
    dropped = f"; {results} result{'s' if results != 1 else ''} taken back (`tiebreak undo` brings them back)" \
        if results else ""
    print(f"unpaired round {data['round']} of {args.slug}: {len(data['games'])} boards taken back{dropped}")


def return_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    """``tiebreak return SLUG PLAYER``: a withdrawn player comes back."""
    data = return_player(store, args.slug, args.player, source).data
    state = store.state(args.slug)
    name = state.base.player(args.player).name
    kept = [number for number, _ in data["byes"]] + [number for number, _, _ in data["forfeits"]]
    missed = f" (rounds {number_ranges(kept)} stay as the withdrawal made them)" if kept else ""
    print(f"player {args.player} {printable(name)} returns to {args.slug}: paired again from round "
          f"{state.clock().next_round}{missed}")


def bye_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    kind = _BYE_KINDS[args.kind]
    store.append(args.slug, lambda state: [bye_event(state, args.round, args.player, kind)], source)
    name = store.state(args.slug).base.player(args.player).name
    print(f"round {args.round}: {_BYE_WORDS[kind]} for {args.player} {printable(name)}")


def foul_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    side = "white" if args.side == "red" else args.side
    store.append(args.slug, lambda state: [foul_event(state, args.round, args.board, side, args.count)], source)
    state = store.state(args.slug)
    game = state.game(args.round, args.board)
    fouler = game.white if side == "white" else game.black
    print(f"round {args.round} board {args.board}: {args.count} foul{'s' if args.count != 1 else ''} against "
          f"{fouler} {printable(state.base.player(fouler).name)}; fouls on the board: "
          f"{game.fouls_white}-{game.fouls_black}")


def undo_command(store: Store, args: argparse.Namespace, source: Source) -> None:
    done = undo_last(store, args.slug, source.actor, source)
    if done is None:
        raise Refusal(Code.NOTHING_TO_UNDO, actor=source.actor)
    print(undone_line(done))


def undone_line(done: Undone) -> str:
    """What ``tiebreak undo`` took back and what there is now, e.g. ``undone: round 3 board 5
    1-0; the board now has no result``."""
    data = done.data
    kind = done.entry.event.kind
    tournament = done.tournament
    names = {player.id: player.name for player in tournament.players}
    scoring = default_rules(tournament).scoring
    if kind is EventKind.BYE:
        held = next((bye.kind for bye in tournament.byes if (bye.round, bye.player) == (data["round"], data["player"])),
                    None)
        now = _BYE_WORDS[held] if held else "no bye"
        return f"undone: round {data['round']} {_BYE_WORDS[ByeKind(data['kind'])]} of {data['player']}; now {now}"
    if kind in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION, EventKind.FOUL):
        game = next(game for game in tournament.games if (game.round, game.board) == (data["round"], data["board"]))
        where = f"round {data['round']} board {data['board']}"
        if kind is EventKind.FOUL:
            fouls = f"{game.fouls_white}-{game.fouls_black}"
            return f"undone: {where} foul ({data['side']}); fouls on the board now: {fouls}"
        was = written_result(Result(data["result"]), scoring)
        now = f"has {written_result(game.result, scoring)}" if game.result else "has no result"
        return f"undone: {where} {was}; the board now {now}"
    player = data.get("player")
    pid = player["id"] if isinstance(player, dict) else player
    name = player["name"] if isinstance(player, dict) else names.get(pid, "")
    who = f"{pid} {printable(name)}"
    lines = {
        EventKind.ROUND_PAIRED: lambda: f"the pairing of round {data.get('round')}; round {data.get('round')} is not "
                                        "paired now",
        EventKind.ROUND_UNPAIRED: lambda: f"the un-pairing of round {data.get('round')}; round {data.get('round')} "
                                          "is paired again as it was",
        EventKind.WITHDRAWAL: lambda: f"the withdrawal of {who}; they play on",
        EventKind.PLAYER_RETURNED: lambda: f"the return of {who}; they are withdrawn after round "
                                           f"{data.get('after_round')} again",
        EventKind.PLAYER_ADDED: lambda: f"the late entry of {who}; they are no longer in the tournament",
        EventKind.PLAYER_REMOVED: lambda: f"the removal of {who}; they are in the tournament again",
        EventKind.PLAYER_EDITED: lambda: f"the correction of {who}: " + ", ".join(
            f"{key} {printable(str(value))!r}" for key, value in data.get("previous", {}).items()) + " again",
        EventKind.SETTING: lambda: f"the setting {setting_text(data['key'], data['value'])}; the settings are as "
                                   "they were before it",
        EventKind.PLAYOFF_RESULT: lambda: f"the play-off result {data.get('white')} - {data.get('black')} "
                                          f"{data.get('result')}",
        EventKind.ARBITER_ADDED: lambda: f"Telegram user {data.get('user_id')} as an arbiter",
        EventKind.ARBITER_REMOVED: lambda: f"the removal of Telegram user {data.get('user_id')} as an arbiter",
        EventKind.ARCHIVED: lambda: "the archiving; the tournament is listed again",
        EventKind.RESTORED: lambda: "the restoring; the tournament is archived again",
    }
    return "undone: " + lines[kind]()


def pairings_command(args: argparse.Namespace) -> int:
    """``tiebreak pairings INPUT``: the Dutch pairing of a file's round, without a store."""
    tournament = load_tournament(args.input)
    if tournament.system.is_round_robin:
        raise InputError(f"{tournament.name or args.input} is a round robin: its rounds follow the Berger tables "
                         "(`tiebreak import` it and `tiebreak pair SLUG`)", source=args.input)
    pairing = pair_swiss(tournament, args.round)
    if args.format == "pairs":
        sys.stdout.write(pairs_text(pairing))
    elif args.format == "json":
        json_line(pairing_json(pairing, tournament))
    else:
        games, byes = dutch_games(pairing)
        shown = replace(tournament, games=tournament.games + games, byes=tournament.byes + byes)
        print(round_table(shown, pairing.round))
        for unpaired in pairing.unpaired:
            print(f"not paired: {unpaired.player} {printable(shown.player(unpaired.player).name)} "
                  f"({unpaired.reason.value})")
    return 0


def check_lines(check: RoundCheck | InputError) -> list[str]:
    """A round compared with the FIDE Dutch system's pairing of it, for ``tiebreak check`` and
    for a round imported with ``tiebreak pair --trf/--pairs``: identical, or the pairs in which
    it differs, then the absolute rules it breaks."""
    if isinstance(check, InputError):
        return [f"the FIDE Dutch system finds no pairing: {check.message}"]
    if check.same:
        bye = f", bye {check.dutch.bye}" if check.dutch.bye is not None else ""
        lines = [f"identical to the FIDE Dutch system's pairing ({len(check.dutch.boards)} boards{bye}, "
                 "colours included)"]
    else:
        count = len(check.differences)
        lines = [f"differs from the FIDE Dutch system in {count} pair{'s' if count != 1 else ''}:"]
        lines += [f"  {difference.text}" for difference in check.differences]
    return lines + [f"  rule broken ({violation.rule}): {violation.text}" for violation in check.violations]


def check_command(args: argparse.Namespace) -> int:
    """``tiebreak check FILE``: every paired round replayed with the FIDE Dutch system (the
    free pairings checker, FIDE C.04.A); exit status 1 when a round differs."""
    tournament = load_tournament(args.input)
    if tournament.system.is_round_robin or tournament.teams:
        kind = "a team event" if tournament.teams else "a round robin"
        raise InputError(f"{tournament.name or args.input} is {kind}: the checker replays the FIDE Dutch system, "
                         "which pairs individual Swiss events", source=args.input)
    results = check_rounds(tournament)
    differing = [rnd for rnd, check in results if isinstance(check, InputError) or not check.same]
    if args.json:
        json_line({"file": args.input, "tournament": tournament.name, "identical": not differing,
                   "differing_rounds": differing, "rounds": [round_check_json(rnd, check) for rnd, check in results]})
        return 1 if differing else 0
    print(f"{printable(tournament.name or args.input)}: {len(results)} paired round{'s' if len(results) != 1 else ''} "
          "replayed with the FIDE Dutch system (C.04.3, in force from 1 February 2026)")
    for rnd, check in results:
        first, *rest = check_lines(check)
        print(f"round {rnd}: {first}")
        for line in rest:
            print(line)
    if not results:
        print("no round is paired yet: nothing to check")
    elif differing:
        print(f"{len(results) - len(differing)} of {len(results)} rounds identical; differ: "
              + ", ".join(f"round {rnd}" for rnd in differing))
    else:
        print(f"all {len(results)} rounds identical")
    return 1 if differing else 0


def generate_command(args: argparse.Namespace) -> int:
    """``tiebreak generate``: a random Swiss tournament as TRF-2026, every round paired by the
    FIDE Dutch system (FIDE C.04.A's random tournament generator)."""
    import secrets  # only here

    # the generator and the TRF writer: only this command needs them (start-up time of the others)
    from ranking.pairing.dutch.generate import GeneratorSettings, generate_tournament
    from tiebreak.exports import export_text  # the TRF writer (start-up time of the other commands)

    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    settings = GeneratorSettings(players=args.players, rounds=args.rounds, seed=seed, draw_rate=args.draw_rate,
                                 forfeit_rate=args.forfeit_rate, bye_rate=args.bye_rate, retire_rate=args.retire_rate)
    settings.check()
    text = export_text(generate_tournament(settings), "trf")
    write_output(text, args.out, f"wrote {args.out}: {args.players} players, {args.rounds} rounds, seed {seed}")
    return 0


#: the subcommands of this module that work on a file, without a store (``tiebreak.cli.main``)
FILE_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "pairings": pairings_command,
    "check": check_command,
    "generate": generate_command,
}

#: the store subcommands of this module, for ``tiebreak.commands.run``
HANDLERS: dict[str, Callable[[Store, argparse.Namespace, Source], None]] = {
    "list": list_command,
    "show": show_command,
    "set": set_command,
    "archive": archive_command,
    "restore": restore_command,
    "round": round_command,
    "players": players_command,
    "player": player_command,
    "unpair": unpair_command,
    "return": return_command,
    "bye": bye_command,
    "foul": foul_command,
    "undo": undo_command,
}
