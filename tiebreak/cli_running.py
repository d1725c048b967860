"""The command line of docs/architecture.md#command-line: the subcommands' arguments
(only argparse here, so ``tiebreak standings`` starts fast; ``tiebreak/running_commands.py``
carries them out).

    tiebreak list [--all] [--json]          tiebreak show SLUG [--json]
    tiebreak set SLUG KEY=VALUE ...         tiebreak archive SLUG | restore SLUG
    tiebreak round SLUG [N] [--json]        tiebreak players SLUG [--json]
    tiebreak player SLUG add --name NAME [--rating R] [--title T] [--federation F] [--club C]
    tiebreak player SLUG edit ID [--name N] [--rating R] [--title T] [--federation F] [--club C]
    tiebreak player SLUG remove ID          tiebreak return SLUG PLAYER
    tiebreak unpair SLUG [--force]          tiebreak bye SLUG ROUND PLAYER half|zero|full
    tiebreak foul SLUG ROUND BOARD white|black [COUNT]
    tiebreak undo SLUG                      tiebreak pairings INPUT [--round N] [--format ...]
    tiebreak check FILE [--json]            tiebreak generate --players N --rounds R [--seed S] ...
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

#: the keys ``tiebreak set`` takes (``ranking.event.settings.SETTINGS``; a test keeps the two equal)
SETTING_KEYS = ("name, rounds, game (chess, xiangqi), system and seeding (rating, as-numbered; before round 1 is "
                "paired), rules (a preset), "
                "scoring (2,1,0 or chess, xiangqi, three-point, three-point-colour), tiebreaks (BH-C1,BH,SB), "
                "playoff (1, 1,2, 1:after-tiebreaks or none), the options fide_edition, bye_value_in_bh, "
                "keep_rounds, de_mode, prev_mode, lots_seed, rr_withdrawal, and for Swiss pairing "
                "pairing.acceleration (baku, none), pairing.initial_colour (white, black), "
                "pairing.forfeit_is_meeting (true, false)")


def add_running_commands(commands: argparse._SubParsersAction,
                         store_command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the subcommands that run an event (each takes ``--config``), and ``pairings``,
    ``check`` and ``generate``, which work on files without a store."""
    listing = store_command("list", "list the stored tournaments (archived ones only with --all)")
    listing.add_argument("--all", action="store_true", help="include archived tournaments")
    listing.add_argument("--json", action="store_true",
                         help='a list of {"slug", "name", "game", "system", "players", "rounds", "paired_rounds", '
                              '"archived"}')
    show = store_command("show", "show a stored tournament's settings and state")
    show.add_argument("slug", metavar="SLUG")
    show.add_argument("--json", action="store_true", help="the list keys plus rules, tiebreaks, scoring, ...")
    setting = store_command("set", "change settings of a stored tournament (each change is logged as an event)")
    setting.add_argument("slug", metavar="SLUG")
    setting.add_argument("settings", metavar="KEY=VALUE", nargs="+", help=f"KEY is one of {SETTING_KEYS}")
    for name, what in (("archive", "hide a tournament from `tiebreak list`, the bot's lists and the site "
                                   "(nothing is deleted)"),
                       ("restore", "bring an archived tournament back")):
        command = store_command(name, what)
        command.add_argument("slug", metavar="SLUG")
    showing = store_command("round", "show a round's boards, results and byes")
    showing.add_argument("slug", metavar="SLUG")
    showing.add_argument("number", metavar="N", type=int, nargs="?", help="the round (default: the current one)")
    showing.add_argument("--json", action="store_true",
                         help='{"round": N, "boards": [{"board", "white", "black", "result"}], '
                              '"byes": [{"player", "kind"}]}')
    players = store_command("players", "the initial ranking list: pairing number (TPN), starting number, title, "
                                       "name, rating, federation, club")
    players.add_argument("slug", metavar="SLUG")
    players.add_argument("--json", action="store_true",
                         help='a list of {"tpn", "id", "name", "rating", "title", "federation", "club", "withdrawn"} '
                              "in TPN order")
    player = store_command("player", "a late entry (add: prints the new starting number), a correction (edit) or a "
                                     "player taken out before their first paired round (remove)")
    player.add_argument("slug", metavar="SLUG")
    player.add_argument("action", choices=["add", "edit", "remove"])
    player.add_argument("id", metavar="ID", type=int, nargs="?", help="edit, remove: the player's starting number")
    player.add_argument("--name", help="the player's name, e.g. 'Nguyễn, Văn A'")
    player.add_argument("--rating", type=int, help="the rating (0: unrated)")
    player.add_argument("--title", help="GM, IM, WGM, FM, WIM, CM, WFM, WCM ('' for none)")
    player.add_argument("--federation", help="a three-letter code such as VIE")
    player.add_argument("--club", help="the club")
    player.add_argument("--fide-id", help="the FIDE id, its digits ('' for none): a rated event's rating report "
                                          "names each player by it")
    unpair = store_command("unpair", "take back the latest paired round (its boards and its pairing-allocated bye)")
    unpair.add_argument("slug", metavar="SLUG")
    unpair.add_argument("--force", action="store_true",
                        help="take back its results and fouls too (logged; `tiebreak undo` brings them back)")
    back = store_command("return", "a withdrawn player comes back: paired again from the next round not yet paired")
    back.add_argument("slug", metavar="SLUG")
    back.add_argument("player", metavar="PLAYER", type=int, help="the starting number")
    bye = store_command("bye", "enter a requested bye (before the round is paired)")
    bye.add_argument("slug", metavar="SLUG")
    bye.add_argument("round", metavar="ROUND", type=int)
    bye.add_argument("player", metavar="PLAYER", type=int, help="the starting number")
    bye.add_argument("kind", choices=["half", "zero", "full"], help="half-, zero- or full-point bye")
    foul = store_command("foul", "record fouls (犯规) against one side of a board")
    foul.add_argument("slug", metavar="SLUG")
    foul.add_argument("round", metavar="ROUND", type=int)
    foul.add_argument("board", metavar="BOARD", type=int)
    foul.add_argument("side", choices=["white", "black", "red"], help="red is the first mover (white) in xiangqi")
    foul.add_argument("count", metavar="COUNT", type=int, nargs="?", default=1, help="default 1")
    undo = store_command("undo", "take back your last change of any kind (a result, a correction, a foul, a bye, "
                                 "a pairing, a withdrawal, a return, a late entry, a correction of a player, "
                                 "a setting)")
    undo.add_argument("slug", metavar="SLUG")

    pairings = commands.add_parser(
        "pairings", help="pair a round of a TRF or tournament TOML file (FIDE Dutch system), without a store",
        description="Pair round N (default: the next) of a Swiss event in a TRF or tournament TOML file with "
                    "the FIDE Dutch system (C.04.3, rules in force from 1 February 2026). Entries the file "
                    "already holds for the round (half- and zero-point byes, absences) are honoured; players "
                    "who withdrew are not paired.")
    pairings.add_argument("input", metavar="INPUT", help="a TRF file or a tournament TOML file")
    pairings.add_argument("--round", type=int, metavar="N", help="the round to pair (default: the next)")
    pairings.add_argument("--format", choices=["table", "pairs", "json"], default="table",
                          help="table (default), pairs (the JaVaFo/bbpPairings list: the number of pairs, "
                               "then WHITE BLACK per board, PLAYER 0 for the bye) or json")
    check = commands.add_parser(
        "check", help="replay every round of a TRF file with the FIDE Dutch system (the free pairings checker)",
        description="Replay every paired round of a Swiss event in a TRF-16 or TRF-2026 file (or a tournament "
                    "TOML file) with the FIDE Dutch system (C.04.3, rules in force from 1 February 2026): each "
                    "round is paired from the rounds before it, keeping its requested byes and absences, and "
                    "compared with the file, colours included. Exit status 0 when every round is identical, 1 "
                    "when a round differs (the summary names it), 2 for a file that cannot be read.")
    check.add_argument("input", metavar="FILE", help="a TRF file (or a tournament TOML file)")
    check.add_argument("--json", action="store_true",
                       help='{"file", "tournament", "identical", "differing_rounds", "rounds": [{"round", '
                            '"identical", "boards", "bye", "differences", "violations", "error"}]}')
    generate = commands.add_parser(
        "generate", help="write a random Swiss tournament (TRF-2026), every round paired by the FIDE Dutch system",
        description="Write a complete random Swiss tournament as TRF-2026: ratings drawn at random (start numbers "
                    "in rating order), the initial colour by lot, every round paired by the FIDE Dutch system and "
                    "its results drawn by rating (the Elo expectation) with the rates given, in percent. The same "
                    "arguments and seed give the same file.")
    generate.add_argument("--players", type=int, required=True, metavar="N", help="players (2-9999)")
    generate.add_argument("--rounds", type=int, required=True, metavar="R", help="rounds (fewer than the players)")
    generate.add_argument("--seed", type=int, metavar="S", help="the random seed (default: a new one, "
                                                                "named in the file's 012 record)")
    generate.add_argument("--draw-rate", type=float, default=30.0, metavar="P",
                          help="percent of the games played that are drawn (default 30)")
    generate.add_argument("--forfeit-rate", type=float, default=0.0, metavar="P",
                          help="percent of the games forfeited (default 0)")
    generate.add_argument("--bye-rate", type=float, default=0.0, metavar="P",
                          help="each player's chance, in percent, to take a half-point bye in a round but the "
                               "last (default 0)")
    generate.add_argument("--retire-rate", type=float, default=0.0, metavar="P",
                          help="percent of the players who withdraw after a random round (default 0)")
    generate.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
