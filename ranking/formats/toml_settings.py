"""A tournament's settings as its ``[tournament]`` table holds them: changed by key and read back
as a file would be (``tiebreak set``), kept and restored (undo)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ranking.event.model import Tournament
from ranking.formats.toml_export import _tournament_table
from ranking.formats.toml_lines import _Lines
from ranking.formats.toml_values import _Reader
from ranking.formats.tomlfile import _tournament_of

__all__ = ["restore_settings", "settings_table", "with_tournament_keys"]


def with_tournament_keys(t: Tournament, changes: Mapping[str, Any]) -> Tournament:
    """``t`` with keys of its ``[tournament]`` table changed (a value of None removes the key),
    read as a file with that table would be read and checked the same way: ``name``, ``game``,
    ``system``, ``rules``, ``scoring``, ``tiebreaks``, ``options``, ``playoff``, ``records``,
    ``team_rules``, ``team_tiebreaks``.  Rounds, players and games are ``t``'s own.

    >>> from ranking.event.model import Player
    >>> t = Tournament("Open", (Player(1, "A"),), 5)
    >>> with_tournament_keys(t, {"rules": "cxa-swiss-bh", "name": "Hà Nội Open"}).rules.scoring.win
    2.0
    """
    info = _tournament_table(t)
    for key, value in changes.items():
        if value is None:
            info.pop(key, None)
        else:
            info[key] = value
    info.pop("ranking_list", None)  # the players' own, kept as they are
    # read as the table in a file would be: no TOML text written and read again (a settings
    # event is replayed each time a process reads the log past its snapshot)
    read = _tournament_of({"tournament": info}, _Reader("the setting", _Lines("")))
    return replace(t, name=read.name, game=read.game, system=read.system, rules=read.rules, records=read.records,
                   team_rules=read.team_rules, team_tiebreaks=read.team_tiebreaks,
                   team_match_points=read.team_match_points, seeding=read.seeding)


def settings_table(t: Tournament) -> dict[str, Any]:
    """The settings of ``t`` as its ``[tournament]`` table holds them (plain TOML values), for
    ``restore_settings``."""
    table = _tournament_table(t)
    table.pop("ranking_list", None)
    return table


def restore_settings(t: Tournament, table: Mapping[str, Any]) -> Tournament:
    """``t`` with the settings of ``table`` (``settings_table`` of an earlier state) and no
    others: a key the table lacks is removed.  Rounds, players and games are ``t``'s own."""
    return with_tournament_keys(t, {key: None for key in _tournament_table(t)} | dict(table))
