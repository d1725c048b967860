"""What a TRF has no record for, kept in comment records that other programs skip.

TRF-2026 makes ``###`` lines comments, so JaVaFo, bbpPairings, Swiss-Manager and Vega pass
over them; ``write_trf`` adds these after the players and ``parse_trf`` reads them back, so a
tournament exported to a pairing program and imported again keeps them::

    ### tiebreak game xiangqi                      the game (colour words; TRF knows chess only)
    ### tiebreak slug hanoi-open                   the tournament's short name
    ### tiebreak rules {"scoring": {...}, ...}     the rules (scoring, chain, options, play-off,
                                                   the preset's description), as JSON
    ### tiebreak club 3 Hà Nội                     a player's club
    ### tiebreak fouls 3 12 7 0 1                  round 3, white 12 against black 7: fouls 0 and 1
    ### tiebreak withdrawn 17 4                    player 17 withdrew after round 4
    ### tiebreak team-rules cxa-team-rr           a team event's team preset
    ### tiebreak playoff 1 12 7 1-0                a play-off game: its round, white, black, result

A withdrawal is also written the way pairing programs read it (``0000 - Z`` in every later
round), so a program never pairs the player again; read back with its record, those entries are
the withdrawal again, not byes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

from ranking.errors import InputError
from ranking.event.model import ByeKind, Game, GameKind, Result, Tournament, Withdrawal
from ranking.scoring.rules import Options, PlayoffRule, Rules, Scoring
from ranking.tiebreaks.presets import get_team_preset

__all__ = ["MARK", "apply_extras", "extra_lines"]

MARK = "### tiebreak "
SLUG = "slug"  # the record tag a TOML file's slug is kept under (ranking.formats.tomlfile.SLUG)


def extra_lines(t: Tournament) -> list[str]:
    """The ``### tiebreak`` records of ``t``."""
    lines = []
    if t.game is not GameKind.CHESS:
        lines.append(f"{MARK}game {t.game.value}")
    slug = next((rest for tag, rest in t.records if tag == SLUG), None)
    if slug:
        lines.append(f"{MARK}slug {slug}")
    if t.rules is not None:
        lines.append(f"{MARK}rules {json.dumps(_rules_json(t.rules), ensure_ascii=False, sort_keys=True)}")
    for player in sorted(t.players, key=lambda p: p.id):
        if player.club.strip():
            lines.append(f"{MARK}club {player.id} {_one_line(player.club)}")
    for game in sorted(t.games, key=lambda g: (g.round, g.white)):
        if game.fouls_white or game.fouls_black:
            lines.append(f"{MARK}fouls {game.round} {game.white} {game.black} {game.fouls_white} {game.fouls_black}")
    for withdrawal in sorted(t.withdrawals, key=lambda w: w.player):
        lines.append(f"{MARK}withdrawn {withdrawal.player} {withdrawal.after_round}")
    for game in t.playoff_games:
        if game.result is not None:
            lines.append(f"{MARK}playoff {game.round} {game.white} {game.black} {game.result.value}")
    if t.teams and t.team_rules:
        lines.append(f"{MARK}team-rules {t.team_rules}")
    return lines


def apply_extras(t: Tournament, lines: Sequence[tuple[int, str]], source: str) -> Tournament:
    """``t`` as read from the TRF, with its ``### tiebreak`` records (``(line number, text)``)
    applied.  A record that is not one of ours, or does not fit the tournament, raises
    InputError with its line.  ``t``'s games come by round and board (``parse_trf``); they are
    looked up, and put in that order again, only when a ``fouls`` record changes one."""
    players = {p.id: p for p in t.players}
    games: dict[tuple[int, int, int], Game] | None = None  # by (round, white, black), for fouls records
    byes = {(b.round, b.player): b for b in t.byes}
    withdrawals: dict[int, Withdrawal] = {w.player: w for w in t.withdrawals}
    records = list(t.records)
    playoff: list[Game] = list(t.playoff_games)
    game_kind = t.game
    rules = t.rules
    team_rules = t.team_rules
    for number, text in lines:
        kind, _, rest = text.removeprefix(MARK).partition(" ")

        def fail(expected: str, kind: str = kind, rest: str = rest, number: int = number) -> InputError:
            return InputError(f"{MARK.strip()} {kind}: expected {expected}, got {rest!r}", source=source, line=number)

        words = rest.split()
        try:
            if kind == "game":
                game_kind = GameKind(rest.strip())
            elif kind == "slug":
                if not rest.strip():
                    raise fail("the tournament's short name")
                records = [(tag, value) for tag, value in records if tag != SLUG]
                records.insert(0, (SLUG, rest.strip()))
            elif kind == "rules":
                rules = _rules_from_json(json.loads(rest))
            elif kind == "club":
                pid, _, club = rest.partition(" ")
                players[int(pid)] = replace(players[int(pid)], club=club.strip())
            elif kind == "fouls":
                rnd, white, black, on_white, on_black = (int(word) for word in words)
                if games is None:
                    games = {(g.round, g.white, g.black): g for g in t.games}
                if (rnd, white, black) not in games:  # a game without colours is read lower number first
                    white, black, on_white, on_black = black, white, on_black, on_white
                key = (rnd, white, black)
                games[key] = replace(games[key], fouls_white=on_white, fouls_black=on_black)
            elif kind == "withdrawn":
                pid, after = (int(word) for word in words)
                if pid not in players:
                    raise KeyError(pid)
                withdrawals[pid] = Withdrawal(pid, after)
                for rnd in range(after + 1, t.rounds + 1):  # the Z entries stand for the withdrawal
                    if (rnd, pid) in byes and byes[(rnd, pid)].kind is ByeKind.ZERO:
                        del byes[(rnd, pid)]
            elif kind == "team-rules":
                team_rules = rest.strip()
                try:
                    get_team_preset(team_rules)
                except InputError as error:
                    raise InputError(f"{MARK.strip()} team-rules: {error.message}", source=source,
                                     line=number) from None
            elif kind == "playoff":
                rnd, white, black = (int(word) for word in words[:3])
                if len(words) != 4 or white not in players or black not in players:
                    raise fail("ROUND WHITE BLACK RESULT")
                playoff.append(Game(rnd, white, black, Result.parse(words[3])))
            else:
                raise InputError(f"unknown record {MARK}{kind}: expected game, slug, rules, club, fouls, withdrawn, "
                                 "team-rules or playoff", source=source, line=number)
        except InputError:
            raise
        except json.JSONDecodeError:
            raise fail("the rules as JSON") from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise fail({"game": "chess or xiangqi", "club": "a starting number and the club",
                        "fouls": "ROUND WHITE BLACK FOULS-WHITE FOULS-BLACK of a game in the file",
                        "withdrawn": "a starting number and the round after which the player withdrew",
                        "playoff": "ROUND WHITE BLACK RESULT"}.get(kind, "a valid record")) from None
    read = replace(t, players=tuple(players[pid] for pid in sorted(players)),
                   games=t.games if games is None else tuple(sorted(games.values(), key=lambda g: (g.round, g.board))),
                   byes=tuple(byes[key] for key in sorted(byes)),
                   withdrawals=tuple(withdrawals[pid] for pid in sorted(withdrawals)),
                   records=tuple(records), playoff_games=tuple(playoff), game=game_kind, rules=rules,
                   team_rules=team_rules)
    return read


def _rules_json(rules: Rules) -> dict[str, Any]:
    scoring = {f.name: getattr(rules.scoring, f.name) for f in fields(Scoring)
               if getattr(rules.scoring, f.name) is not None}
    return {"scoring": scoring, "tiebreaks": list(rules.tiebreaks),
            "options": {f.name: getattr(getattr(rules.options, f.name), "value", getattr(rules.options, f.name))
                        for f in fields(Options)},
            "description": rules.description, "playoff": rules.playoff.as_json() if rules.playoff else None}


def _rules_from_json(data: dict[str, Any]) -> Rules:
    values = dict(data["scoring"])
    if values.get("match") is not None:
        values["match"] = tuple(values["match"])
    playoff = data.get("playoff")
    return Rules(scoring=Scoring(**values), tiebreaks=tuple(data["tiebreaks"]),
                 options=Options.from_mapping(data["options"]), description=data.get("description", ""),
                 playoff=PlayoffRule.from_mapping(playoff) if playoff else None)


def _one_line(text: str) -> str:
    return " ".join(text.split())
