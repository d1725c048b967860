"""The ``tiebreak`` command (also ``python -m ranking``), as docs/architecture.md#command-line specifies it.

    tiebreak standings INPUT [--after-round N] [--rules PRESET] [--points W,D,L|NAME]
                             [--tiebreaks CODES] [--fide-edition 2024|2026] [--json]
                             [--teams] [--team-tiebreaks CODES]
    tiebreak presets
    tiebreak tiebreaks [CODE]
    tiebreak import FILE [--slug S] | export SLUG --format trf|toml | pair SLUG [--trf FILE]
    tiebreak result SLUG ROUND BOARD RESULT [RESULT2] [--correct] | withdraw SLUG PLAYER [--after-round N]
    tiebreak log SLUG | standings SLUG          (these take --config PATH, default ./config.toml)
    tiebreak arbiter link SLUG [--label NAME] | arbiter revoke SLUG LABEL | arbiter links SLUG

Bad input prints one line naming the file, line and problem and exits with status 2.

``tiebreak standings FILE --json``, its arguments read by the one parser, first reads the file
straight into the standings engine's columns (``quick_standings``: a crosstable, no tournament
model loaded) and ranks it with the engine every standings uses (``ranking.standings.engine``);
a file that reader leaves to the model (options, teams, a layout it does not check, any error)
is read into the model and ranked by the same engine, so the output and every message are the
same either way.  Every command ends normally, its exit status returned, without the garbage
collection at exit (``tiebreak.process``).
"""

from __future__ import annotations

import os
import sys

from ranking.errors import InputError
from tiebreak.process import no_collection_at_exit

TYPE_CHECKING = False  # typing costs start-up time; type checkers read the block below
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

    from ranking.event.model import Tournament
    from ranking.scoring.rules import Rules
    from ranking.standings.team import TeamStandings

EXIT_BAD_INPUT = 2


def build_parser(only_standings: bool = False) -> argparse.ArgumentParser:
    """The command line's parser; ``only_standings``: with the ``standings`` command alone, which
    reads ``tiebreak standings ...`` exactly as the whole parser does (start-up time)."""
    import argparse  # the parser only (start-up time of `import tiebreak.cli`)

    class Parser(argparse.ArgumentParser):
        """argparse, with a usage error in one line (docs/architecture.md#command-line) that names the help."""

        def error(self, message: str) -> NoReturn:
            self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (`{self.prog} --help` says more)\n")

    parser = Parser(
        prog="tiebreak",
        description="Standings for chess and xiangqi tournaments with FIDE, CXA and VN tie-breaks.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    standings = commands.add_parser("standings", help="compute the standings of a TRF or tournament TOML file",
                                    description="Compute the standings of a TRF-16/TRF-2026 or tournament "
                                    "TOML file (detected by content).")
    standings.add_argument("input", metavar="INPUT", help="a TRF file or a tournament TOML file")
    standings.add_argument("--after-round", type=int, metavar="N", help="standings after round N")
    standings.add_argument("--rules", metavar="PRESET", help="a rule preset (see `tiebreak presets`); a team "
                           "preset (cxa-team-rr, ...) ranks the teams and implies --teams")
    standings.add_argument("--points", metavar="W,D,L", help="points for a win, draw and loss, e.g. 2,1,0, or a "
                           "scoring's name: chess, xiangqi, three-point, three-point-colour (CXA 13.3: a draw "
                           "scores 1 for red, 2 for black)")
    standings.add_argument("--tiebreaks", metavar="CODES", help="the tie-break chain, e.g. BH-C1,BH,SB,DE")
    standings.add_argument("--fide-edition", type=_edition, metavar="{2024,2026}",
                           help="FIDE C.07 edition for unplayed rounds, of the team tie-breaks too (default 2026)")
    standings.add_argument("--json", action="store_true", help="print the standings as JSON")
    standings.add_argument("--teams", action="store_true",
                           help="team standings too (a file with teams: TOML [[teams]], TRF 310 or 013); "
                           "JSON gets \"team_tiebreaks\" and a \"teams\" list")
    standings.add_argument("--team-tiebreaks", metavar="CODES",
                           help="the team tie-break chain (implies --teams), e.g. MPVGP,BH:MP/C1,EMGSB,EDEBT; "
                           "`tiebreak tiebreaks` lists the team codes")

    def add_config(command: argparse.ArgumentParser) -> None:  # standings' last option, in its help too
        command.add_argument("--config", metavar="PATH",
                             help="configuration file, when INPUT is a stored tournament's slug")

    if only_standings:
        add_config(standings)
        return parser
    commands.add_parser("presets", help="list the rule presets")
    codes = commands.add_parser("tiebreaks", help="list every tie-break code with its definition and source",
                                description="List every tie-break code with its definition and source, or "
                                            "explain one code (modifiers included), e.g. tiebreak tiebreaks BH-C1")
    codes.add_argument("code", metavar="CODE", nargs="?", help="a code to explain, e.g. BH-C1 or EDE")

    def store_command(name: str, help_text: str) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=help_text, description=help_text[0].upper() + help_text[1:] + ".")
        command.add_argument("--config", metavar="PATH", help="configuration file (default ./config.toml)")
        return command

    importing = store_command("import", "import a TRF or tournament TOML file into the store")
    importing.add_argument("file", metavar="FILE", nargs="?",
                           help="the file; without it, --from-config imports config.toml's [[tournaments]]")
    importing.add_argument("--from-config", action="store_true",
                           help="import every [[tournaments]] file of the configuration not yet in the store")
    importing.add_argument("--slug", help="the tournament's short name (default: the file's slug or name)")
    exporting = store_command("export", "write a stored tournament as TRF or TOML")
    exporting.add_argument("slug", metavar="SLUG")
    exporting.add_argument("--format", choices=["trf", "toml"], default="toml")
    exporting.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    pairing = store_command("pair", "pair the next round and print its boards (round robins from the Berger "
                                     "tables, Swiss events by the FIDE Dutch system), or import a round paired "
                                     "elsewhere and say where it differs from the Dutch system")
    pairing.add_argument("slug", metavar="SLUG")
    pairing.add_argument("--trf", metavar="FILE", help="a TRF in which another program paired the round")
    pairing.add_argument("--pairs", metavar="FILE",
                         help="the pairs list JaVaFo or bbpPairings wrote (-p): a count, then WHITE BLACK lines")
    pairing.add_argument("--unfinished", action="store_true",
                         help="pair a Swiss round although boards of earlier rounds have no result "
                              "(they count as draws for the pairing)")
    result = store_command("result", "enter the result of one board")
    result.add_argument("slug", metavar="SLUG")
    result.add_argument("round", metavar="ROUND", type=int)
    result.add_argument("board", metavar="BOARD", type=int)
    result.add_argument("result", metavar="RESULT",
                        help="1-0 0-1 1/2-1/2 = +- -+ -- (also 2-0 0-2 1-1, and every spelling the bot reads: "
                             "红胜, 和, đen thắng, hòa, tablas, ...)")
    result.add_argument("second", metavar="RESULT2", nargs="?",
                        help="in an event of two-game matches (VN 21.2): the result of the match's other game; "
                             "the two results in the order the games are played, BOARD either of them")
    result.add_argument("--correct", action="store_true", help="replace a different result already entered")
    withdraw = store_command("withdraw", "record that a player withdrew")
    withdraw.add_argument("slug", metavar="SLUG")
    withdraw.add_argument("player", metavar="PLAYER", type=int, help="the starting number")
    withdraw.add_argument("--after-round", type=int, metavar="N", help="default: the last round with a result")
    playoff = store_command("playoff", "show the play-offs for tied places, or enter a play-off game's result")
    playoff.add_argument("slug", metavar="SLUG")
    playoff.add_argument("game", nargs="*", metavar="ROUND WHITE BLACK RESULT",
                         help="a play-off game: its play-off round, the starting numbers as they played, the result")
    log = store_command("log", "show the audit trail of a tournament")
    log.add_argument("slug", metavar="SLUG")
    log.add_argument("--json", action="store_true", help="one JSON object per event")
    add_config(standings)
    from tiebreak.cli_running import add_running_commands  # the full command line only (start-up time)

    add_running_commands(commands, store_command)
    from tiebreak.cli_links import add_link_commands  # the full command line only (start-up time)

    add_link_commands(commands)
    return parser


def _edition(text: str) -> str:
    """``--fide-edition``: one of ``ranking.scoring.rules.Edition``'s values, checked only when given (the
    rules' module costs a third of a standings command's start-up when the file is read into columns)."""
    import argparse  # loaded by the parser already

    from ranking.scoring.rules import Edition  # only when the option is given (start-up time)

    values = [edition.value for edition in Edition]
    if text not in values:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(map(repr, values))})")
    return text


def main(argv: Sequence[str] | None = None) -> int:
    no_collection_at_exit()
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(only_standings=arguments[:1] == ["standings"]).parse_args(_dash_results(arguments))
    try:
        if args.command == "presets":
            from tiebreak.listings import presets_table  # the listings load the registries (start-up time)

            print(presets_table())
        elif args.command == "tiebreaks":
            import shutil  # the listing only: it wraps to the terminal

            from tiebreak.listings import tiebreak_explained, tiebreaks_listing  # the listings (start-up time)

            print(tiebreak_explained(args.code) if args.code else
                  tiebreaks_listing(shutil.get_terminal_size((100, 24)).columns))
        elif args.command == "standings":
            status = quick_standings(args)
            return _flushed(standings_command(args) if status is None else status)
        elif args.command in ("pairings", "check", "generate"):  # no store: the Dutch engine on a file
            from tiebreak.running_commands import FILE_COMMANDS  # loaded only for them (start-up time)

            return FILE_COMMANDS[args.command](args)
        else:  # the store's commands: sqlite3 and the event log load only for them (start-up time)
            from tiebreak import commands

            return commands.run(args)
    except InputError as error:
        from tiebreak.wording import cli_text  # only for a refusal (start-up time)

        print(f"tiebreak: error: {cli_text(error)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        return _flushed(0)
    return 0


def _flushed(status: int) -> int:
    """``status``, the output written; a reader that went away (output piped into ``head``) is
    no error: what is left of the output goes nowhere, so the interpreter's own flush at exit
    has nothing to complain about."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


def quick_standings(args: argparse.Namespace) -> int | None:
    """``tiebreak standings FILE --json`` with the file read straight into the engine's columns
    (``ranking.formats.crosstable``, ranked by ``ranking.standings.engine``): the exit status, or
    None when the file must be read into the model because the options, the file or the rules
    are anything the columns' readers do not read exactly as the model's readers do (a preset,
    teams, a named scoring, a slug, an unreadable file, LOT, an error in the file)."""
    path = args.input
    if not args.json or args.rules is not None or args.teams or args.team_tiebreaks is not None:
        return None
    if not os.path.isfile(path):
        return None
    points = None
    if args.points is not None:
        from ranking.scoring.rules import Scoring  # loaded by the parser already (its editions)

        try:
            scoring = Scoring.parse(args.points)
        except ValueError:
            return None  # a scoring's name, or a mistake the full path words
        points = (scoring.win, scoring.draw, scoring.loss)
    from ranking.formats.crosstable import read_toml, read_trf  # the columns' readers (start-up time)
    from ranking.standings.engine import crosstable_standings  # no model loaded (start-up time)
    from ranking.tiebreaks.codes import split_codes  # the code grammar, loaded with the engine
    from tiebreak.files import decode, detect_format, read_file  # reading files, without their readers

    try:
        data = read_file(path)
    except InputError:
        return None
    text, utf8 = decode(data)
    kind = detect_format(text, path)
    table = read_trf(text, path) if kind == "trf" else read_toml(text, path) if kind == "toml" and utf8 else None
    if table is None:
        return None
    tiebreaks = split_codes(args.tiebreaks) if args.tiebreaks is not None else None
    standings = crosstable_standings(table, tiebreaks, points, args.fide_edition, args.after_round)
    if standings is None:
        return None
    import json  # only once there is something to print

    sys.stdout.write(json.dumps(standings, ensure_ascii=False) + "\n")
    if points is None and args.after_round is None:  # as standings_command warns
        from tiebreak.notices import printed_totals_warnings, totals_warnings, warn  # only here (start-up time)

        def points_by_id() -> dict[int, float]:
            return {row["id"]: row["points"] for row in standings["standings"]}

        if utf8 and not data.startswith(b"\xef\xbb\xbf"):  # the text the warnings read: not read again
            warn(totals_warnings(text, points_by_id(), path))
        else:
            warn(printed_totals_warnings(path, points_by_id))
    return 0


def standings_command(args: argparse.Namespace) -> int:
    from ranking.standings.final import final_standings  # the full standings path (start-up time)
    from ranking.standings.individual import collection_paused, default_rules  # the full standings path (start-up time)
    from tiebreak.files import load_tournament  # the readers load only for standings (start-up time)
    from tiebreak.notices import chain_warnings, file_warnings, warn  # the full standings path (start-up time)

    if os.path.isfile(args.input) or os.sep in args.input or args.input.endswith((".trf", ".toml", ".txt")):
        with collection_paused():  # the model of a large file: many objects, no reference cycle
            tournament = load_tournament(args.input)  # a file (a missing one is reported as such)
    else:
        from tiebreak.commands import stored_tournament  # the store loads only for a slug (start-up time)

        tournament = stored_tournament(args.input, args.config)
    team_preset = None
    if args.rules is not None:
        from ranking.tiebreaks.presets import TEAM_PRESETS  # the full standings path (start-up time)

        if args.rules in TEAM_PRESETS:  # a team preset ranks the teams; the players keep the file's rules
            from dataclasses import replace  # the full standings path (start-up time)

            team_preset, args.rules = args.rules, None
            tournament = replace(tournament, team_rules=team_preset, team_tiebreaks=(), team_primary="")
    rules = choose_rules(tournament_rules=default_rules(tournament), preset=args.rules, points=args.points,
                         tiebreaks=args.tiebreaks, fide_edition=args.fide_edition)
    if args.rules is None and args.tiebreaks is None:
        check_file_chain(rules, args.input)
    if team_preset is not None:
        args.teams = True
    final = final_standings(tournament, rules, args.after_round)
    standings, playoffs = final.standings, final.playoffs
    warn(chain_warnings(standings))
    if args.points is None and args.rules is None and args.after_round is None and os.path.isfile(args.input):
        same_points = args.fide_edition is None  # only the chain may differ from the file's rules
        warn(file_warnings(args.input, tournament, final if same_points else None))
    teams = None
    if args.teams or args.team_tiebreaks is not None:
        teams = team_standings_of(tournament, args.input, args.team_tiebreaks, args.fide_edition, args.after_round)
    if args.json:
        import json  # only once there is something to print

        data = final.as_json()
        if teams is not None:
            team_data = teams.as_json()
            data["team_tiebreaks"] = team_data["tiebreaks"]
            data["teams"] = team_data["standings"]
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        from tiebreak.tables import playoff_lines, standings_table, team_table  # the tables only (start-up time)

        print(standings_table(standings))
        if playoffs is not None:
            print(playoff_lines(playoffs, standings))
        if teams is not None:
            print()
            print(team_table(teams))
    return 0


def team_standings_of(tournament: Tournament, path: str, tiebreaks: str | None, fide_edition: str | None,
                      after_round: int | None) -> TeamStandings:
    """docs/architecture.md#command-line: the team standings under the chain ``--team-tiebreaks`` (else the
    file's: TOML ``team_tiebreaks``, TRF-2026 ``212``/``202`` with team codes, else the team
    preset's) and the C.07 edition ``--fide-edition``."""
    from ranking.scoring.rules import Edition  # team files only (start-up time)
    from ranking.standings.team import team_event_of, team_standings  # team files only (start-up time)
    from ranking.tiebreaks.codes import split_codes  # team files only (start-up time)

    event = team_event_of(tournament, Edition(fide_edition) if fide_edition else None)
    if tiebreaks is not None:
        return team_standings(event, tuple(split_codes(tiebreaks)), after_round=after_round)
    try:
        return team_standings(event, after_round=after_round)
    except InputError as error:
        if not tournament.team_tiebreaks or "tie-break" not in error.message:
            raise
        raise InputError(f"the team tie-break chain in the file: {error.message}; choose a chain with "
                         "--team-tiebreaks", source=path, line=_chain_line(path, ("212", "202", "team_tiebreaks"))
                         ) from None


def choose_rules(tournament_rules: Rules, preset: str | None, points: str | None,
                 tiebreaks: str | None, fide_edition: str | None) -> Rules:
    """The tournament's rules, replaced by ``--rules`` and then overridden field by field."""
    from dataclasses import replace  # the full standings path (start-up time)

    from ranking.scoring.rules import SCORING_SYSTEMS, Edition, Scoring  # the full standings path (start-up time)
    from ranking.tiebreaks.codes import split_codes  # the full standings path (start-up time)
    from ranking.tiebreaks.presets import get_preset  # the full standings path (start-up time)

    rules = get_preset(preset) if preset else tournament_rules
    if points and points.strip() in SCORING_SYSTEMS:  # a scoring by name (three-point-colour: CXA 13.3)
        rules = replace(rules, scoring=SCORING_SYSTEMS[points.strip()])
    elif points:
        try:
            parsed = Scoring.parse(points)
        except ValueError as error:
            raise InputError(f"--points: {error}, or a scoring's name: {', '.join(SCORING_SYSTEMS)}") from None
        rules = replace(rules, scoring=replace(rules.scoring, win=parsed.win, draw=parsed.draw, loss=parsed.loss,
                                               draw_first=None, draw_second=None))
    if tiebreaks is not None:
        codes = tuple(split_codes(tiebreaks))
        rules = replace(rules, tiebreaks=codes)
    if fide_edition:
        rules = replace(rules, options=replace(rules.options, fide_edition=Edition(fide_edition)))
    return rules


def check_file_chain(rules: Rules, path: str) -> None:
    """A chain written in the file (TRF ``202``/``212``) must be one Tiebreak knows; the error
    names the file and the line, and says how to choose another chain."""
    from ranking.standings.individual import parse_chain  # the full standings path (start-up time)

    try:
        parse_chain(rules.tiebreaks)
    except InputError as error:
        raise InputError(f"the tie-break chain in the file: {error.message}; "
                         "choose a chain with --tiebreaks or --rules", source=path,
                         line=_chain_line(path, ("212", "202", "tiebreaks"))) from None


def _chain_line(path: str, starts: tuple[str, ...]) -> int | None:
    """The first line of the file at ``path`` that starts with one of ``starts``, if any."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, start=1):
                if text.startswith(starts):
                    return number
    except OSError:
        pass
    return None



def _dash_results(argv: list[str]) -> list[str]:
    """``tiebreak result SLUG ROUND BOARD -+`` (``--``, ``-:+``, ...): the result, not an option.

    argparse takes a word starting with ``-`` for an option (and swallows ``--`` as "end of
    options"), so such a result gets a word joiner in front, which the result reader drops.
    """
    if "result" not in argv[:1]:
        return argv
    from ranking.scoring.spelling import WORD_JOINER, parse_result  # loaded only for ``result`` (start-up time)

    return [WORD_JOINER + word if word.startswith("-") and word not in ("-h", "--help", "--correct", "--config")
            and parse_result(word) is not None else word for word in argv]


if __name__ == "__main__":
    sys.exit(main())
