"""A stored tournament's settings, changed after the import (``tiebreak set SLUG KEY=VALUE``).

Each change is an event of the log (``ranking.event.log``, kind ``setting-changed``) holding the
key and its value as plain JSON; replaying it applies ``apply_setting``.  The values mean what
the same keys mean in a tournament TOML file (docs/architecture.md#files) and are checked the
same way (``ranking.formats.toml_settings.with_tournament_keys``), so an export of the changed tournament
reads back the same.

>>> from ranking.event.model import Player, Tournament
>>> t = Tournament("Open", tuple(Player(i, f"P{i}") for i in (1, 2)), 5)
>>> key, value = parse_setting("tiebreaks=BH,SB")
>>> apply_setting(t, key, value).rules.tiebreaks
('BH', 'SB')
>>> apply_setting(t, *parse_setting("scoring=xiangqi")).rules.scoring.win
2.0
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from ranking.errors import InputError
from ranking.event.model import Tournament
from ranking.event.refusals import Code, Refusal
from ranking.formats.toml_settings import with_tournament_keys
from ranking.scoring.rules import SCORING_SYSTEMS, Options, Rules, Scoring
from ranking.tiebreaks.codes import split_codes

__all__ = ["SETTINGS", "Setting", "apply_setting", "check_setting", "parse_setting", "setting_text"]

MAX_ROUNDS = 9999


@dataclass(frozen=True)
class Setting:
    """A key ``tiebreak set`` accepts: what it is, and how its text becomes a JSON value."""

    key: str
    help: str
    read: Callable[[str], Any]


def _text(value: str) -> str:
    if not value.strip() or "\n" in value:
        raise ValueError("expected some text on one line")
    return value.strip()


def _rounds(value: str) -> int:
    if not value.strip().isdigit() or not 1 <= int(value) <= MAX_ROUNDS:
        raise ValueError(f"expected a number of rounds, 1-{MAX_ROUNDS}")
    return int(value)


def _scoring(value: str) -> dict[str, float] | str:
    """``2,1,0`` (win, draw, loss), a scoring name (``xiangqi``), or a TOML table."""
    text = value.strip()
    if text in SCORING_SYSTEMS:
        scoring = SCORING_SYSTEMS[text]
        return {f.name: getattr(scoring, f.name) for f in fields(Scoring)
                if getattr(scoring, f.name) is not None and f.name != "match"}
    if text.startswith("{"):
        return _toml_value(text)
    parsed = Scoring.parse(text)
    return {"win": parsed.win, "draw": parsed.draw, "loss": parsed.loss}


def _codes(value: str) -> list[str]:
    codes = [code for code in split_codes(value) if code]
    if not codes:
        raise ValueError("expected tie-break codes such as BH,SB,DE (`tiebreak tiebreaks` lists them)")
    return codes


def _playoff(value: str) -> dict[str, Any] | None:
    """``none``, places (``1`` or ``1,2``) with an optional ``:after-tiebreaks``, or a TOML table."""
    text = value.strip()
    if text.lower() in ("none", "no", "off", ""):
        return None
    if text.startswith("{"):
        return _toml_value(text)
    places, _, when = text.partition(":")
    numbers = places.replace(" ", "").split(",")
    if not all(number.isdigit() for number in numbers):
        raise ValueError("expected none, or the places a play-off decides, e.g. 1 or 1,2 (or 1:after-tiebreaks)")
    table: dict[str, Any] = {"places": [int(number) for number in numbers]}
    if when:
        table["when"] = when.strip()
    return table


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not a TOML value: {error}") from None


def _whole(value: str) -> int:
    if not value.strip().isdigit():
        raise ValueError("expected a whole number")
    return int(value)


def _option(key: str) -> Setting:
    return Setting(key, f"option {key} (README, Options)", _whole if key == "keep_rounds" else _text)


SETTINGS: dict[str, Setting] = {setting.key: setting for setting in (
    Setting("name", "the tournament's name", _text),
    Setting("rounds", "the number of rounds", _rounds),
    Setting("game", "chess or xiangqi (the colour words)", _text),
    Setting("system", "swiss, round-robin or double-round-robin (before round 1 is paired)", _text),
    Setting("seeding", "rating (the initial ranking list, GHR 2) or as-numbered (the starting numbers are the "
                       "pairing numbers), before round 1 is paired", _text),
    Setting("rules", "a preset (`tiebreak presets`); its scoring, chain and options replace the ones set", _text),
    Setting("scoring", "win,draw,loss points (e.g. 2,1,0), or chess, xiangqi, three-point, three-point-colour",
            _scoring),
    Setting("tiebreaks", "the tie-break chain, e.g. BH-C1,BH,SB,DE", _codes),
    Setting("playoff", "the places a play-off decides: 1, 1,2, 1:after-tiebreaks, or none", _playoff),
    *(_option(f.name) for f in fields(Options)),
    Setting("pairing.acceleration", "Swiss pairing: baku (C.04.7) or none", _text),
    Setting("pairing.initial_colour", "Swiss pairing: white or black for the first player in round 1", _text),
    Setting("pairing.forfeit_is_meeting", "Swiss pairing: true makes a forfeit a meeting (outside FIDE rules)",
            _text),
)}


def parse_setting(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as the command line gives it -> (key, JSON value); InputError names the
    keys when the key is unknown, and what was expected when the value is wrong."""
    key, equals, value = text.partition("=")
    key = key.strip().removeprefix("options.")
    if not equals:
        raise InputError(f"{text!r}: expected KEY=VALUE, e.g. rounds=9 or tiebreaks=BH,SB")
    setting = SETTINGS.get(key)
    if setting is None:
        raise InputError(f"unknown setting {key!r}: expected one of {', '.join(SETTINGS)}")
    try:
        return key, setting.read(value)
    except ValueError as error:
        raise InputError(f"{key}={value}: {error}") from None


def apply_setting(tournament: Tournament, key: str, value: Any) -> Tournament:
    """``tournament`` with setting ``key`` changed to ``value`` (as ``parse_setting`` gives it)."""
    if key == "rounds":
        return replace(tournament, rounds=int(value))
    if key.startswith("pairing."):
        records = tuple((tag, rest) for tag, rest in tournament.records if tag != key)
        return replace(tournament, records=(*records, (key, str(value))))
    if key in SETTINGS and key not in ("name", "game", "system", "seeding", "rules", "scoring", "tiebreaks", "playoff"):
        rules = tournament.rules or Rules()
        try:
            options = Options.from_mapping({key: value}, base=rules.options)
        except (ValueError, TypeError) as error:
            raise InputError(f"{key}: {error}") from None
        return replace(tournament, rules=replace(rules, options=options))
    changes: dict[str, Any] = {key: value}
    if key == "rules":  # a preset wholesale: what was set before gives way, the play-off stays
        changes.update(scoring=None, tiebreaks=None, options=None)
    try:
        return with_tournament_keys(tournament, changes)
    except InputError as error:
        raise InputError(f"{key}: {error.message.removeprefix('[tournament]: ')}") from None


def check_setting(tournament: Tournament, key: str, value: Any) -> Tournament:
    """``apply_setting``, refusing what the tournament's own state forbids: fewer rounds than
    it has played or paired (the stored rounds would be orphaned), another system or seeding
    once a round is paired, pairing options the Dutch engine would not read."""
    used = max([game.round for game in tournament.games] + [bye.round for bye in tournament.byes]
               + [w.after_round for w in tournament.withdrawals], default=0)
    if key == "rounds" and int(value) < used:
        raise Refusal(Code.ROUNDS_BELOW_USED, value=value, round=used)
    changed = apply_setting(tournament, key, value)
    if key == "system" and changed.system is not tournament.system and tournament.games:
        raise Refusal(Code.SYSTEM_AFTER_PAIRING, value=value, system=tournament.system.value)
    if key == "seeding" and changed.seeding is not tournament.seeding and tournament.games:
        raise Refusal(Code.SEEDING_AFTER_PAIRING, value=value)
    if key.startswith("pairing."):
        from ranking.pairing.dutch import options_from_tournament  # the Dutch engine loads only to check these

        options_from_tournament(changed)
    return changed


def setting_text(key: str, value: Any) -> str:
    """A setting as ``tiebreak log`` shows it: ``tiebreaks=BH,SB``, ``scoring=2,1,0``."""
    if isinstance(value, list):
        shown = ",".join(str(item) for item in value)
    elif isinstance(value, dict):
        if set(value) >= {"win", "draw", "loss"} and key == "scoring":
            shown = ",".join(f"{value[part]:g}" for part in ("win", "draw", "loss"))
        elif key == "playoff":
            shown = ",".join(str(place) for place in value.get("places", [])) + (
                f":{value['when']}" if "when" in value else "")
        else:
            shown = ", ".join(f"{k} = {v}" for k, v in value.items())
    elif value is None:
        shown = "none"
    else:
        shown = str(value)
    return f"{key}={shown}"
