"""The ``tiebreak`` command (also ``python -m ranking``), as DESIGN.md specifies it.

    tiebreak standings INPUT [--after-round N] [--rules PRESET] [--points W,D,L]
                             [--tiebreaks CODES] [--fide-edition 2024|2026] [--json]
    tiebreak presets
    tiebreak tiebreaks
    tiebreak import FILE [--slug S] | export SLUG --format trf|toml | pair SLUG [--trf FILE]
    tiebreak result SLUG ROUND BOARD RESULT [--correct] | withdraw SLUG PLAYER [--after-round N]
    tiebreak log SLUG | standings SLUG          (these take --config PATH, default ./config.toml)

Bad input prints one line naming the file, line and problem and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import typing
from collections.abc import Sequence
from dataclasses import replace

from ranking.codes import split_codes
from ranking.errors import InputError
from ranking.final import final_standings
from ranking.presets import get_preset
from ranking.rules import Edition, Rules, Scoring
from ranking.standings import default_rules, parse_chain
from tiebreak.cli_running import add_running_commands
from tiebreak.notices import chain_warnings, file_warnings, warn
from tiebreak.tables import (
    playoff_lines,
    presets_table,
    standings_table,
    team_table,
    tiebreak_explained,
    tiebreaks_listing,
)

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error in one line (DESIGN.md "Errors") that names the help."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (`{self.prog} --help` says more)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tiebreak",
        description="Standings for chess and xiangqi tournaments with FIDE, CXA and VN tie-breaks.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    standings = commands.add_parser("standings", help="compute the standings of a TRF or tournament TOML file",
                                    description="Compute the standings of a TRF-16/TRF-2026 or tournament "
                                    "TOML file (detected by content).")
    standings.add_argument("input", metavar="INPUT", help="a TRF file or a tournament TOML file")
    standings.add_argument("--after-round", type=int, metavar="N", help="standings after round N")
    standings.add_argument("--rules", metavar="PRESET", help="a rule preset (see `tiebreak presets`)")
    standings.add_argument("--points", metavar="W,D,L", help="points for a win, draw and loss, e.g. 2,1,0")
    standings.add_argument("--tiebreaks", metavar="CODES", help="the tie-break chain, e.g. BH-C1,BH,SB,DE")
    standings.add_argument("--fide-edition", choices=[edition.value for edition in Edition],
                           help="FIDE C.07 edition for unplayed rounds (default 2026)")
    standings.add_argument("--json", action="store_true", help="print the standings as JSON")
    standings.add_argument("--teams", action="store_true",
                           help="team standings too (a file with [[teams]]); JSON gets a \"teams\" list")
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
    standings.add_argument("--config", metavar="PATH",
                           help="configuration file, when INPUT is a stored tournament's slug")
    add_running_commands(commands, store_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(_dash_results(list(sys.argv[1:] if argv is None else argv)))
    try:
        if args.command == "presets":
            print(presets_table())
        elif args.command == "tiebreaks":
            print(tiebreak_explained(args.code) if args.code else
                  tiebreaks_listing(shutil.get_terminal_size((100, 24)).columns))
        elif args.command == "standings":
            return standings_command(args)
        elif args.command == "pairings":  # no store: the Dutch engine on a file
            from tiebreak.running_commands import pairings_command  # loaded only for it (start-up time)

            return pairings_command(args)
        else:  # the store's commands: sqlite3 and the event log load only for them (start-up time)
            from tiebreak import commands

            return commands.run(args)
    except InputError as error:
        print(f"tiebreak: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return 0


def standings_command(args: argparse.Namespace) -> int:
    from tiebreak.files import load_tournament  # the readers load only for standings (start-up time)

    if os.path.isfile(args.input) or os.sep in args.input or args.input.endswith((".trf", ".toml", ".txt")):
        tournament = load_tournament(args.input)  # a file (a missing one is reported as such)
    else:
        from tiebreak.commands import stored_tournament  # the store loads only for a slug (start-up time)

        tournament = stored_tournament(args.input, args.config)
    rules = choose_rules(tournament_rules=default_rules(tournament), preset=args.rules, points=args.points,
                         tiebreaks=args.tiebreaks, fide_edition=args.fide_edition)
    if args.rules is None and args.tiebreaks is None:
        check_file_chain(rules, args.input)
    final = final_standings(tournament, rules, args.after_round)
    standings, playoffs = final.standings, final.playoffs
    warn(chain_warnings(standings))
    if args.points is None and args.rules is None and args.after_round is None and os.path.isfile(args.input):
        warn(file_warnings(args.input, tournament))
    teams = None
    if args.teams:
        from ranking.teams import team_event_of, team_standings  # team files only (start-up time)

        teams = team_standings(team_event_of(tournament), after_round=args.after_round)
    if args.json:
        data = final.as_json()
        if teams is not None:
            team_data = teams.as_json()
            data["team_tiebreaks"] = team_data["tiebreaks"]
            data["teams"] = team_data["standings"]
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        print(standings_table(standings))
        if playoffs is not None:
            print(playoff_lines(playoffs, standings))
        if teams is not None:
            print()
            print(team_table(teams))
    return 0






def _dash_results(argv: list[str]) -> list[str]:
    """``tiebreak result SLUG ROUND BOARD -+`` (``--``, ``-:+``, ...): the result, not an option.

    argparse takes a word starting with ``-`` for an option (and swallows ``--`` as "end of
    options"), so such a result gets a word joiner in front, which the result reader drops.
    """
    from ranking.spelling import WORD_JOINER, parse_result  # loaded only for ``result`` (start-up time)

    if "result" not in argv[:1]:
        return argv
    return [WORD_JOINER + word if word.startswith("-") and word not in ("-h", "--help", "--correct", "--config")
            and parse_result(word) is not None else word for word in argv]


def choose_rules(tournament_rules: Rules, preset: str | None, points: str | None,
                 tiebreaks: str | None, fide_edition: str | None) -> Rules:
    """The tournament's rules, replaced by ``--rules`` and then overridden field by field."""
    rules = get_preset(preset) if preset else tournament_rules
    if points:
        try:
            parsed = Scoring.parse(points)
        except ValueError as error:
            raise InputError(f"--points: {error}") from None
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
    try:
        parse_chain(rules.tiebreaks)
    except InputError as error:
        line = None
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                for number, text in enumerate(handle, start=1):
                    if text.startswith(("212", "202", "tiebreaks")):
                        line = number
                        break
        except OSError:
            pass
        raise InputError(f"the tie-break chain in the file: {error.message}; "
                         "choose a chain with --tiebreaks or --rules", source=path, line=line) from None








if __name__ == "__main__":
    sys.exit(main())
