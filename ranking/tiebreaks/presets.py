"""Named rule presets (docs/rules.md#presets): a scoring system, a tie-break chain and options;
and the team presets (match scoring, team chain).

Each preset cites the article it implements; ``tiebreak presets`` lists them and every field
can be overridden on the command line or in a tournament file.
"""

from __future__ import annotations

from dataclasses import dataclass

from ranking.errors import InputError
from ranking.event.model import Game, GameKind, Result, Tournament
from ranking.scoring.rules import (
    CHESS,
    XIANGQI,
    ByeValue,
    DirectEncounterMode,
    Options,
    RoundRobinWithdrawal,
    Rules,
    Scoring,
    TeamRules,
    TeamScoring,
)
from ranking.standings.ordering import FIDE_RR_CHAIN, FIDE_SWISS_CHAIN

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
        Options(keep_rounds=7, de_mode=DirectEncounterMode.ALL_MET),
        description="ZS: Chinese national events, Swiss (direct encounter only when all tied players met; "
        "keep at least 7 rounds when cutting)",
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
        Options(rr_withdrawal=RoundRobinWithdrawal.ANNUL_AT_MOST_HALF),
        description="VN 21.3: round robin, direct encounter, hệ số (SB), wins, wins with black, lots; "
        "a withdrawal with half the games played or fewer annuls them all (21.5.1)",
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


#: The rules each preset implements, as tables and pages name them: its own article for a CXA,
#: ZS, VN or AXF preset; the FIDE presets name the C.07 edition instead (``rules_source``).
PRESET_SOURCES: dict[str, str] = {
    "cxa-rr": "CXA 14.1", "cxa-multi-rr": "CXA 14.2", "cxa-swiss-bh": "CXA 14.3.1", "cxa-swiss-ps": "CXA 14.3.2",
    "cxa-national-swiss": "ZS", "cxa-national-rr": "ZS", "zs-swiss-1": "ZS ①", "zs-swiss-2": "ZS ②",
    "vn-rr": "VN 21.3", "vn-swiss": "VN 21.4", "vn-match": "VN 21.2", "axf-swiss": "AXF",
}


def rules_source(rules: Rules) -> str:
    """The rules a chain follows, as tables and pages name them: a CXA, ZS, VN or AXF preset's
    own article ("CXA 14.3.1"), even with fields overridden; "FIDE C.07 2026" (or 2024, the
    edition chosen) for a FIDE preset or any chain of FIDE codes alone; "" for a chain that
    mixes in other codes.  The C.07 edition is named only for FIDE chains.

    >>> rules_source(PRESETS["cxa-swiss-bh"]), rules_source(PRESETS["fide-swiss"])
    ('CXA 14.3.1', 'FIDE C.07 2026')
    >>> rules_source(Rules(XIANGQI, ("BH", "FOUL")))
    ''
    """
    from ranking.tiebreaks.individual import REGISTRY  # the codes' articles (start-up time)

    name = preset_of(rules)
    if name in PRESET_SOURCES:
        return PRESET_SOURCES[name]
    if all(REGISTRY[REGISTRY.parse(code).name].article.startswith("FIDE") for code in rules.tiebreaks):
        return f"FIDE C.07 {rules.options.fide_edition}"
    return ""


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
    """A team preset: its team scoring, its team rules and what it says in words."""

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
    "cxa-team-rr": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("GP", "WIN:T", "DE", "FOUL:T", "BWG:T", "BPG:T")),
        "CXA 14.5: team round robin, match points 2/1/0, then game points, the team's game wins, "
        "direct encounter, team fouls, games won with black, games played with black"),
    "cxa-team-swiss": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("BH:MP", "GP", "WIN:T", "FOUL:T", "PREV")),
        "CXA 14.6: team Swiss, match points 2/1/0, then the opponents' match points, game points, "
        "the team's game wins, team fouls, then the last round's match results and so on"),
    "cxa-team-gp": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("BH:MP", "WIN:T", "FOUL:T", "PREV"), primary="GP"),
        "CXA 14.7: team Swiss ranked by game points, then the opponents' match points, the team's "
        "game wins, team fouls, then the last round's match results and so on"),
    "cxa-team-places": TeamPreset(
        TeamScoring(game=XIANGQI), TeamRules(("SUMRANK",), primary="PLACES"),
        "CXA 14.8 (WXF team championship): the sum of the members' places in the event's own "
        "individual standings, then the best single place; also for an individual event with a "
        "team classification"),
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
