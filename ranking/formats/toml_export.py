"""Writing a tournament as a TOML file (tomli-w) that ``parse_tournament_toml`` reads back equal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

import tomli_w

from ranking.event.model import Game, Player, Seeding, Tournament
from ranking.formats.tomlfile import _BYE_NAMES, SLUG
from ranking.formats.trf_records import HEADER_RECORDS
from ranking.scoring.rules import SCORING_SYSTEMS, Options, Rules, Scoring
from ranking.tiebreaks.presets import PRESETS, preset_of

__all__ = ["write_tournament_toml"]


def _num(value: float) -> int | float:
    """Whole numbers as TOML integers (``2``), others as floats (``0.5``)."""
    return int(value) if float(value).is_integer() else float(value)


def _header_keys(records: list[tuple[str, str]]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The header records that open ``records`` in ``HEADER_RECORDS`` order (as the reader puts
    them) as ``[tournament]`` keys, and the records left; a header record elsewhere stays a record,
    so the file reads back equal."""
    keys: dict[str, str] = {}
    taken = 0
    for key, tag in HEADER_RECORDS.items():
        if taken < len(records) and records[taken][0] == tag:
            text = records[taken][1]
            later = any(other == tag for other, _ in records[taken + 1:])
            if text and text == text.strip() and "\n" not in text and "\r" not in text and not later:
                keys[key] = text
                taken += 1
    return keys, records[taken:]


def write_tournament_toml(t: Tournament) -> str:
    """The tournament as a TOML file that ``parse_tournament_toml`` reads back equal.

    The rules are written as the preset whose description they carry (``ranking.tiebreaks.presets``)
    plus only what differs from it, or as plain overrides of ``Rules()``; a description
    that no preset carries is not written.  The first ``("slug", ...)`` record becomes
    ``slug``, the header records after it ``place``, ``start_date``, ...; other records go to
    ``records``.
    """
    info = _tournament_table(t)
    sections = {
        "players": [_player_table(p) for p in t.players],
        "games": [_game_table(g) for g in t.games],
        "byes": [{"round": b.round, "player": b.player, "kind": _BYE_NAMES[b.kind]} for b in t.byes],
        "withdrawals": [{"player": w.player, "after_round": w.after_round} for w in t.withdrawals],
        "playoff_games": [_game_table(g) for g in t.playoff_games],
        "teams": [{"id": team.id, "name": team.name, "roster": list(team.roster)} for team in t.teams],
        "team_matches": [{key: value for key, value in (("round", m.round), ("first", m.first),
                                                        ("second", m.second), ("first_points", m.first_points),
                                                        ("second_points", m.second_points), ("forfeit", m.forfeit))
                          if value is not None} for m in t.team_matches],
        "team_byes": [{"round": b.round, "team": b.team, "kind": b.kind.value} for b in t.team_byes],
    }
    chunks = [tomli_w.dumps({"tournament": info})]
    for name, entries in sections.items():
        for entry in entries:
            chunks.append(f"[[{name}]]\n" + _entry_text(entry))
    return "\n".join(chunks)


def _tournament_table(t: Tournament) -> dict[str, Any]:
    """The ``[tournament]`` table of ``t``."""
    info: dict[str, Any] = {}
    records = list(t.records)
    slug = next((k for k, (tag, _) in enumerate(records) if tag == SLUG), None)
    if slug is not None:
        info["slug"] = records.pop(slug)[1]
    info["name"] = t.name
    info["game"] = t.game.value
    info["system"] = t.system.value
    info["rounds"] = t.rounds
    if t.seeding is not Seeding.RATING:
        info["seeding"] = t.seeding.value
    if t.ranking_list:
        info["ranking_list"] = list(t.ranking_list)
    if t.rules is not None:
        info.update(_rules_table(t.rules))
    if t.team_rules:
        info["team_rules"] = t.team_rules
    if t.team_tiebreaks:
        info["team_tiebreaks"] = list(t.team_tiebreaks)
    if t.team_primary:
        info["team_primary"] = t.team_primary
    if t.team_match_points is not None:
        info["team_match_points"] = [_num(value) for value in t.team_match_points]
    if t.team_pab is not None:
        info["team_pab"] = [_num(value) for value in t.team_pab]
    header, records = _header_keys(records)
    info.update(header)
    if records:
        info["records"] = [[tag, rest] for tag, rest in records]
    return info


def _entry_text(entry: Mapping[str, Any]) -> str:
    """One array-of-tables entry: its keys, with ``fouls`` as an inline table."""
    fouls = entry.get("fouls")
    text = tomli_w.dumps({key: value for key, value in entry.items() if key != "fouls"})
    if fouls:
        text += "fouls = { " + ", ".join(f"{key} = {value}" for key, value in fouls.items()) + " }\n"
    return text


def _player_table(p: Player) -> dict[str, Any]:
    table: dict[str, Any] = {"id": p.id, "name": p.name}
    if p.rating:
        table["rating"] = p.rating
    for key in ("federation", "club", "title", "sex", "fide_id", "birth"):
        if getattr(p, key):
            table[key] = getattr(p, key)
    return table


def _game_table(g: Game) -> dict[str, Any]:
    table: dict[str, Any] = {"round": g.round}
    if g.board:
        table["board"] = g.board
    table["white"] = g.white
    table["black"] = g.black
    if g.result is not None:
        table["result"] = g.result.value
    fouls = {key: value for key, value in (("white", g.fouls_white), ("black", g.fouls_black)) if value}
    if fouls:
        table["fouls"] = fouls
    if not g.rated:
        table["rated"] = False
    if not g.colours_known:
        table["colours_known"] = False
    return table


def _scoring_table(s: Scoring) -> dict[str, Any]:
    table: dict[str, Any] = {"win": _num(s.win), "draw": _num(s.draw), "loss": _num(s.loss)}
    for f in fields(Scoring):
        if f.name in table or f.name == "match":
            continue
        value = getattr(s, f.name)
        if value is not None and not (f.name == "zero_bye" and value == 0):
            table[f.name] = _num(value)
    if s.match is not None:
        table["match"] = [_num(v) for v in s.match]
    return table


def _preset_for(rules: Rules) -> tuple[str, Rules] | None:
    """The preset ``rules`` is (or was made from): equal, else the same description."""
    name = preset_of(rules)
    return None if name is None else (name, PRESETS[name])


def _rules_table(rules: Rules) -> dict[str, Any]:
    found = _preset_for(rules)
    table: dict[str, Any] = {}
    base = Rules()
    if found is not None:
        table["rules"], base = found
    if rules.scoring != base.scoring:
        name = next((name for name, scoring in SCORING_SYSTEMS.items() if scoring == rules.scoring), None)
        table["scoring"] = name or _scoring_table(rules.scoring)
    if rules.tiebreaks != base.tiebreaks:
        table["tiebreaks"] = list(rules.tiebreaks)
    options = {}
    for f in fields(Options):
        value = getattr(rules.options, f.name)
        if value != getattr(base.options, f.name):
            options[f.name] = value.value if hasattr(value, "value") else value
    if options:
        table["options"] = options
    if rules.playoff is not None:
        table["playoff"] = rules.playoff.as_json()
    if not table:
        table["tiebreaks"] = []  # rules equal to Rules(): one override keeps them from being None
    return table
