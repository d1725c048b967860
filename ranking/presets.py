"""Named rule presets (docs/rules.md#presets): a scoring system, a tie-break chain and options;
and the team presets (match scoring, team chain).

Each preset cites the article it implements; ``tiebreak presets`` lists them and every field
can be overridden on the command line or in a tournament file.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranking.errors import InputError
from ranking.model import Game, GameKind, Result, Tournament
from ranking.ordering import FIDE_RR_CHAIN, FIDE_SWISS_CHAIN
from ranking.rules import (
    CHESS,
    XIANGQI,
    ByeValue,
    DirectEncounterMode,
    Options,
    Rules,
    Scoring,
    TeamRules,
    TeamScoring,
)

#: CXA 14.2: games between two players in one round of a multiple round robin form a match,
#: scored 2/1/0 match points from the 2/1/0 game points.
XIANGQI_MATCH = Scoring(win=2.0, draw=1.0, loss=0.0, match=(2.0, 1.0, 0.0))

PRESETS: dict[str, Rules] = {
    "fide-swiss": Rules(
        CHESS, FIDE_SWISS_CHAIN,
        description="FIDE C.07 (2026) default for individual Swiss events",
    ),
    "fide-rr": Rules(
        CHESS, FIDE_RR_CHAIN,
        description="FIDE C.07 (2026) default for individual round robins",
    ),
    "cxa-rr": Rules(
        XIANGQI, ("SB", "WIN", "DE", "FOUL", "BPG", "DEB"),
        description="CXA 14.1: individual round robin, 小分 (SB), wins, direct encounter, fouls, "
        "games as second mover, second mover in the direct game",
    ),
    "cxa-multi-rr": Rules(
        XIANGQI_MATCH, ("GP", "WIN", "DE", "FOUL", "BWG"),
        description="CXA 14.2: double or multiple round robin, match points then game points, wins, "
        "direct encounter, fouls, wins as second mover",
    ),
    "cxa-swiss-bh": Rules(
        XIANGQI, ("BH", "WIN", "FOUL", "BPG", "PREV"),
        Options(bye_value_in_bh=ByeValue.LOWEST_SCORE),
        description="CXA 14.3.1: Swiss by opponents' score (bye counts as the lowest score, CXA 14.4), "
        "wins, fouls, games as second mover, then earlier rounds",
    ),
    "cxa-swiss-ps": Rules(
        XIANGQI, ("PS", "WIN", "FOUL", "BPG", "PS-D"),
        description="CXA 14.3.2: Swiss by progressive score, wins, fouls, games as second mover, "
        "then progressive score without the first rounds",
    ),
    "cxa-national-swiss": Rules(
        XIANGQI, ("DE", "BH", "BH-M1", "WIN", "LOT"),
        Options(de_mode=DirectEncounterMode.ALL_MET),
        description="ZS: Chinese national events, Swiss (direct encounter only when all tied players met)",
    ),
    "cxa-national-rr": Rules(
        XIANGQI, ("DE", "SB", "WIN", "LOT"),
        Options(de_mode=DirectEncounterMode.ALL_MET),
        description="ZS: Chinese national events, round robin",
    ),
    "zs-swiss-1": Rules(
        XIANGQI, ("DE", "WIN", "BPG", "BH-C1", "BH", "SB"),
        Options(keep_rounds=7, de_mode=DirectEncounterMode.ALL_MET),
        description="ZS Swiss ①: keep at least 7 rounds when cutting",
    ),
    "zs-swiss-2": Rules(
        XIANGQI, ("DE", "BH", "BH-M1", "WIN"),
        Options(keep_rounds=7, de_mode=DirectEncounterMode.ALL_MET),
        description="ZS Swiss ②: keep at least 7 rounds when cutting",
    ),
    "vn-rr": Rules(
        CHESS, ("DE", "SB", "WIN", "BWG", "LOT"),
        description="VN 21.3: round robin, direct encounter, hệ số (SB), wins, wins with black, lots",
    ),
    "vn-swiss": Rules(
        CHESS, ("BH", "SB", "WIN", "BWG", "LOT"),
        description="VN 21.4: Swiss by hệ số; Buchholz first (inferred reading), then SB, wins, "
        "wins with black, lots",
    ),
    "vn-match": Rules(
        Scoring(win=2.0, draw=1.0, loss=0.0, match=(1.0, 0.5, 0.0)), ("GP",),
        description="VN 21.2: two-game matches, match points 1/½/0 then game points 2/1/0 per game; "
        "an absent player's opponent wins both games by forfeit (1 match point, 4 game points)",
    ),
    "axf-swiss": Rules(
        XIANGQI, ("BH", "DE", "WIN", "BWG", "BPG", "FOUL"),
        description="Asian Xiangqi Federation championships, Swiss",
    ),
}


def preset_of(rules: Rules) -> str | None:
    """The preset ``rules`` are (or were made from: the same description), or None."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    if rules.description:
        return next((name for name, preset in PRESETS.items() if preset.description == rules.description), None)
    return None


def get_preset(name: str) -> Rules:
    """The preset called ``name``; an unknown name raises InputError listing the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise InputError(f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}") from None


# -- team presets (docs/rules.md#presets) ----------------------------------------------------------------


@dataclass(frozen=True)
class TeamPreset:
    scoring: TeamScoring
    rules: TeamRules
    description: str


#: The team presets (docs/rules.md#presets).
TEAM_PRESETS: dict[str, TeamPreset] = {
    "fide-team": TeamPreset(
        TeamScoring(), TeamRules(("GP", "EDE", "EMGSB")),
        "FIDE C.07 11-13 team events: match points, then game points, extended direct "
        "encounter (13.3), extended Sonneborn-Berger opponents' MP x own GP (13.2)"),
    "cxa-team": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("GP", "EDE", "BH:MP")),
        "CXA 13.2 / ZS team events: match points 2/1/0 from board totals, then game points, "
        "direct encounter, Buchholz on match points"),
    "cxa-team-places": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("SUMRANK",), primary="PLACES"),
        "CXA 14.8 (WXF team championship): the sum of the members' individual places, "
        "then the best single place"),
}

#: VN 21.2 two-game individual matches: an individual preset ("vn-match").
VN_MATCH = PRESETS["vn-match"]


def vn_absence_games(round_number: int, present: int, absent: int) -> tuple[Game, Game]:
    """VN 21.2: an absent player loses both games by forfeit, so the opponent scores 1 match
    point and 4 game points (two forfeit wins of 2)."""
    return (Game(round_number, present, absent, Result.WHITE_WINS_FORFEIT),
            Game(round_number, absent, present, Result.BLACK_WINS_FORFEIT))


def get_team_preset(name: str) -> TeamPreset:
    try:
        return TEAM_PRESETS[name]
    except KeyError:
        raise InputError(f"unknown team preset {name!r}: expected one of {', '.join(TEAM_PRESETS)}") from None


def team_preset_name(tournament: Tournament) -> str:
    """The tournament's team preset: its ``team_rules``, else ``cxa-team`` for xiangqi and
    ``fide-team`` for chess."""
    return tournament.team_rules or ("cxa-team" if tournament.game is GameKind.XIANGQI else "fide-team")
