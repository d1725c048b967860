"""The ``tiebreak`` subcommands that read or write the store (import, export, pair, result,
withdraw, log, and standings of a stored tournament).

Each prints one line saying what it did; bad input raises ``InputError`` (exit status 2)
and writes nothing.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from pathlib import Path

from ranking.errors import InputError
from ranking.event.log import (
    EventKind,
    LoggedEvent,
    match_result_events,
    pairing_event,
    playoff_result_event,
    withdrawal_event,
)
from ranking.event.matches import match_boards
from ranking.event.model import Result, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.event.settings import setting_text
from ranking.scoring.spelling import WORD_JOINER, parse_result, written_result
from ranking.standings.final import final_standings
from ranking.standings.individual import default_rules
from ranking.standings.playoffs import PlayoffStandings
from tiebreak import library
from tiebreak.cli_links import arbiter_command
from tiebreak.config import load_config
from tiebreak.exports import export_text
from tiebreak.files import load_tournament, write_output
from tiebreak.library import import_configured, import_tournament, pairing_from_file
from tiebreak.notices import file_warnings, warn
from tiebreak.running import check_imported, propose_pairing
from tiebreak.running_commands import HANDLERS, check_lines, round_table
from tiebreak.store import Source, Store
from tiebreak.tables import playoff_lines, printable

#: the subcommands that only read the store: they work on a read-only database too
READ_ONLY = frozenset({"export", "log", "list", "show", "round", "players"})


def open_store(config_path: str | None, *, create: bool = False, readonly: bool = False) -> Store:
    """The configured store; only ``import`` (``create``) makes a new one: for every other
    command a mistyped path is "no store exists there", not a new empty database."""
    return library.open_store(load_config(config_path), create=create, readonly=readonly)


def stored_tournament(slug: str, config_path: str | None) -> Tournament:
    """A tournament of the store, for ``tiebreak standings SLUG``."""
    with open_store(config_path, readonly=True) as store:
        return store.tournament(slug)


def _source() -> Source:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return Source(actor=f"cli:{user}")


def run(args: argparse.Namespace) -> int:
    handler = {
        "import": import_command,
        "export": export_command,
        "pair": pair_command,
        "result": result_command,
        "withdraw": withdraw_command,
        "log": log_command,
        "playoff": playoff_command,
        **{name: _running(name) for name in HANDLERS},
        "arbiter": lambda store, args: arbiter_command(store, args, _source()),
    }[args.command]
    readonly = args.command in READ_ONLY or (args.command == "playoff" and not args.game)
    config = load_config(args.config)
    new = args.command == "import" and not config.storage.exists()
    with library.open_store(config, create=args.command == "import", readonly=readonly) as store:
        handler(store, args)
    if new:  # never silently: a store made where the command ran may not be the one meant
        where = f"the paths of {config.path} are relative to it" if config.path else (
            "no config.toml here; --config PATH names one")
        print(f"tiebreak: note: created a new store {config.storage} ({where})", file=sys.stderr)
    return 0


def _running(name: str):
    """A subcommand of ``tiebreak.running_commands``, called as the ones here are."""
    def handler(store: Store, args: argparse.Namespace) -> None:
        HANDLERS[name](store, args, _source())
    return handler


def import_command(store: Store, args: argparse.Namespace) -> None:
    if args.from_config:
        if args.file or args.slug:
            raise InputError("--from-config imports the configuration's files: give no FILE or --slug with it")
        for done in import_configured(store, load_config(args.config), _source()):
            if done.imported:
                _imported(done.tournament, done.slug)
            else:
                print(f"{done.slug}: already in the store")
        return
    if not args.file:
        raise InputError("give the FILE to import (a TRF or tournament TOML), or --from-config")
    tournament = load_tournament(args.file)
    _imported(tournament, import_tournament(store, tournament, args.file, args.slug, _source()))
    warn(file_warnings(args.file, tournament))


def _imported(tournament: Tournament, slug: str) -> None:
    print(f"imported {tournament.name!r} as {slug}: {len(tournament.players)} players, "
          f"{sum(game.result is not None for game in tournament.games)} results")


def export_command(store: Store, args: argparse.Namespace) -> None:
    text = export_text(store.tournament(args.slug), args.format)
    write_output(text, args.output, f"wrote {args.slug} as {args.format.upper()} to {args.output}")


def pair_command(store: Store, args: argparse.Namespace) -> None:
    """``tiebreak pair SLUG``: the next round from the Berger tables (round robins) or the FIDE
    Dutch system (Swiss); ``--trf``/``--pairs``: a round paired elsewhere, then where it differs
    from the Dutch pairing.  Prints the boards."""
    tournament = store.tournament(args.slug)
    if args.trf and args.pairs:
        raise InputError("give either --trf or --pairs, not both")
    if args.trf or args.pairs:
        path = args.trf or args.pairs
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read: {getattr(error, 'strerror', None) or error}", source=path) from None
        round_number, games, byes = pairing_from_file(tournament, text, path, "trf" if args.trf else "pairs")
        store.append(args.slug, lambda state: [pairing_event(state, round_number, games, byes)], _source())
    else:
        proposal = propose_pairing(tournament)
        waiting = ", ".join(f"R{number} B{board}" for number, board in proposal.unfinished[:10])
        if proposal.unfinished and proposal.system == "dutch" and not args.unfinished:
            raise Refusal(Code.BOARDS_WITHOUT_RESULT,
                          boards=[f"R{number} B{board}" for number, board in proposal.unfinished[:10]])
        if proposal.unfinished:  # the Berger tables need no results; say so all the same
            print(f"tiebreak: note: boards without a result: {waiting}", file=sys.stderr)
        round_number = proposal.round
        store.append(args.slug, lambda state: [proposal.event(state)], _source())
    paired = store.tournament(args.slug)
    boards = sum(game.round == round_number for game in paired.games)
    print(f"paired round {round_number} of {args.slug}: {boards} boards")
    print(round_table(paired, round_number))
    if args.trf or args.pairs:
        print(dutch_comparison(paired, round_number))


def dutch_comparison(tournament: Tournament, number: int) -> str:
    """Where an imported round differs from the Dutch system's pairing, pair by pair, and the
    absolute rules it breaks (``ranking.pairing.dutch.check_round``)."""
    try:
        check = check_imported(tournament, number)
    except InputError as error:
        return f"the Dutch system: {error.message}"
    if check is None:
        return "a round robin: the Berger tables fix its rounds"
    return "\n".join(check_lines(check))


def result_command(store: Store, args: argparse.Namespace) -> None:
    """``tiebreak result SLUG ROUND BOARD RESULT [RESULT2]``: one board's result, or both games
    of a two-game match (VN 21.2, ``ranking.event.log.match_result_events``), one line per board."""
    results = [_read_result(args.result)] + ([_read_result(args.second)] if args.second is not None else [])

    def decide(state):
        return match_result_events(state, args.round, args.board, results, correct=args.correct)

    appended = store.append(args.slug, decide, _source())
    state = store.state(args.slug)
    boards = (match_boards(state.snapshot(), args.round, args.board) if len(results) > 1 else (args.board,))
    names = {player.id: player.name for player in state.base.players}
    scoring = default_rules(state.snapshot()).scoring
    changed = {entry.event.data["board"]: entry.event for entry in appended if "board" in entry.event.data}
    for board in boards:
        game = state.game(args.round, board)
        event = changed.get(board)
        if event is None:
            what = "already recorded, nothing changed"
        elif event.kind is EventKind.CORRECTION:
            what = f"corrected (was {written_result(Result(event.data['previous']), scoring)})"
        else:
            what = "recorded"
        print(f"round {args.round} board {board}: {printable(names[game.white])} - {printable(names[game.black])} "
              f"{written_result(game.result, scoring) if game.result else ''}: {what}")


def _read_result(text: str) -> Result:
    result = parse_result(text)
    if result is None:
        raise InputError(f"unknown result {text.lstrip(WORD_JOINER)!r}: expected 1-0, 0-1, 1/2-1/2 "
                         "(or 2-0, 0-2, 1-1, =, 红胜, hòa, ... as the bot reads them), +-, -+ or --")
    return result


def withdraw_command(store: Store, args: argparse.Namespace) -> None:
    def decide(state):
        return [withdrawal_event(state, args.player, args.after_round)]

    appended = store.append(args.slug, decide, _source())
    print(f"player {args.player} withdrew from {args.slug} after round {appended[0].event.data['after_round']}")


def playoff_command(store: Store, args: argparse.Namespace) -> None:
    """``tiebreak playoff SLUG``: who plays whom; ``... ROUND WHITE BLACK RESULT``: a result,
    refused unless the play-off scheduled that game."""
    def status(tournament: Tournament) -> PlayoffStandings:
        playoffs = final_standings(tournament).playoffs
        if playoffs is None:
            raise InputError(f"{args.slug} names no play-off places: add playoff = {{ places = [1] }} to [tournament]")
        return playoffs

    if args.game:
        if len(args.game) != 4 or not all(word.isdigit() for word in args.game[:3]):
            raise InputError("expected ROUND WHITE BLACK RESULT, e.g. 1 12 7 1-0 (play-off round, starting numbers)")
        number, white, black, result = int(args.game[0]), int(args.game[1]), int(args.game[2]), args.game[3]

        def decide(state):
            if status(state.snapshot()).pending_game(white, black, number) is None:
                raise InputError(f"play-off round {number} has no game {white} - {black} waiting for a result "
                                 f"(`tiebreak playoff {args.slug}` lists them)")
            return [playoff_result_event(state, number, white, black, result)]

        store.append(args.slug, decide, _source())
        print(f"play-off round {number}: {white} - {black} {result} recorded")
    playoffs = status(store.tournament(args.slug))
    print(playoff_lines(playoffs, playoffs.standings) or "no play-off is needed")


def log_command(store: Store, args: argparse.Namespace) -> None:
    for logged in store.log(args.slug):
        if args.json:
            print(json.dumps(_log_json(logged), ensure_ascii=False))
        else:
            print(describe(logged))


def _log_json(logged: LoggedEvent) -> dict:
    data = dict(logged.event.data)
    data.pop("toml", None)
    if "kind" in data:  # a bye's kind: the event's own kind keeps its key
        data["bye_kind"] = data.pop("kind")
    return {"id": logged.id, "at": logged.at, "actor": logged.actor, "kind": logged.event.kind.value,
            "chat_id": logged.chat_id, "message_id": logged.message_id, **data}


def describe(logged: LoggedEvent) -> str:
    """One line of the audit trail: when, who, what."""
    data = logged.event.data
    kind = logged.event.kind.value
    where = f" R{data['round']} B{data['board']}" if "board" in data else (
        f" R{data['round']}" if "round" in data else "")
    byes = ", ".join(f"{player} {letter}" for player, letter in data.get("byes", []))
    added = data.get("player") if isinstance(data.get("player"), dict) else {}
    with_results = sum(1 for row in data.get("games", []) if len(row) > 3 and row[3])
    details = {
        "imported": "tournament imported",
        "round-paired": f"{len(data.get('games', []))} boards" + (f"; byes: {byes}" if byes else ""),
        "result": data.get("result", ""),
        "forfeit": data.get("result", ""),
        "correction": f"{data.get('previous')} -> {data.get('result')}",
        "annulment": f"{data.get('previous')} annulled",
        "bye": f"player {data.get('player')} {data.get('kind')}",
        "bye-cancelled": f"player {data.get('player')}'s bye taken back",
        "foul": f"{data.get('side')} {int(data.get('count', 1)):+d}",
        "withdrawal": f"player {data.get('player')} after round {data.get('after_round')}",
        "playoff-result": f"play-off round {data.get('round')}: {data.get('white')} - {data.get('black')} "
                          f"{data.get('result')}",
        "arbiter-added": f"Telegram user {data.get('user_id')} may enter results",
        "arbiter-removed": f"Telegram user {data.get('user_id')} may no longer enter results",
        "setting-changed": setting_text(data.get("key", "?"), data.get("value")),
        "player-added": f"player {added.get('id')}: {added.get('name')}",
        "archived": "hidden from the lists and the site",
        "restored": "shown again",
        "round-unpaired": f"{len(data.get('games', []))} boards taken back"
                          + (f", {with_results} with results" if with_results else ""),
        "player-edited": f"player {data.get('player')}: " + ", ".join(
            f"{key} {data.get('previous', {}).get(key)!r} -> {value!r}"
            for key, value in data.get("changes", {}).items()),
        "player-removed": f"player {added.get('id')}: {added.get('name')} removed",
        "player-returned": f"player {data.get('player')} returns (withdrew after round {data.get('after_round')})",
        "settings-restored": "the settings as they were",
        "lots-drawn": f"the results are complete: lots seed {data.get('seed')} drawn",
    }.get(kind, "")
    if "undo" in data:
        details += f" (undoes event {data['undo']})"
    message = f" (chat {logged.chat_id} message {logged.message_id})" if logged.message_id else ""
    line = f"{logged.id:>5}  {logged.at}  {logged.actor:<16} {kind:<15}{where:<9} {details}{message}"
    return printable(line.rstrip())
