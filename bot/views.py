"""The bot's HTML views of the core's values: the standings table (with its play-off marks),
the team standings, a round's boards (team matches first), a player's card and the play-offs.

Pure functions of a tournament (or its event-log state) and a ``Translator``; each returns
blocks (escaped HTML lines and ``<pre>`` tables) that ``bot.replies.packed`` joins into
messages.  Standings always come from ``ranking.final_standings``.
"""

from __future__ import annotations

from bot import messages as M
from bot.formatting import escape, pre_table, shorten
from ranking import (
    ByeKind,
    FinalStandings,
    Game,
    GameKind,
    InputError,
    PlayoffFormat,
    PlayoffGroup,
    PlayoffStage,
    Scoring,
    TeamStandings,
    Tournament,
    TournamentState,
    bye_points,
    default_rules,
    final_standings,
    game_points,
    rules_source,
    team_event_of,
    withdrawal_mark,
    written_points,
    written_result,
)
from ranking.event.clock import decided_games
from ranking.scoring.team_sheet import match_score
from tiebreak.headings import column_heading
from tiebreak.i18n import Translator
from tiebreak.notices import chain_warnings
from tiebreak.tables import format_column

STANDINGS_DEFAULT_TOP = 20
PHONE_COLUMNS = 4  # tie-break columns /standings shows unless asked for all

_FORMAT_NAMES = {
    PlayoffFormat.MATCH: M.PLAYOFF_FORMAT_MATCH,
    PlayoffFormat.ROUND_ROBIN: M.PLAYOFF_FORMAT_ROUND_ROBIN,
    PlayoffFormat.KNOCKOUT: M.PLAYOFF_FORMAT_KNOCKOUT,
}


def player_names(tournament: Tournament) -> dict[int, str]:
    """Starting number -> name."""
    return {player.id: player.name for player in tournament.players}


def colour_word(tournament: Tournament, first: bool, tr: Translator) -> str:
    """The first mover's colour (``first``) or the second's, in the game's own words and the
    reader's language: white or red (xiangqi), black."""
    if tournament.game is GameKind.XIANGQI:
        return tr.gettext(M.COLOUR_RED if first else M.COLOUR_BLACK)
    return tr.gettext(M.COLOUR_WHITE if first else M.COLOUR_BLACK)


def column_name(code: str, tr: Translator, team: bool = False) -> str:
    """A standings column for tie-break ``code`` in the reader's language, as a phone shows it
    (小分 for SB, HS in Vietnamese; ``tiebreak.headings``); a modifier stays as written (BH-C1
    is 对手分-C1)."""
    return column_heading(code, tr.language, team=team, short=True)


def points_column(scoring: Scoring, tr: Translator) -> str:
    """The score's column: points, or match points where they are the score (VN 21.2)."""
    return column_name("MP", tr, team=True) if scoring.match else tr.gettext(M.COLUMN_POINTS)


def bye_name(tournament: Tournament, kind: ByeKind, tr: Translator) -> str:
    """A round without a game: in a round robin the free round of an odd field (轮空, miễn đấu,
    ronda libre; C.07 15.2-15.3), in a Swiss its kind of bye."""
    return tr.gettext(M.FREE_ROUND if tournament.system.is_round_robin else M.BYE_NAMES[kind])


def localised(cells: list[str], tr: Translator) -> list[str]:
    """A column of numbers with the reader's decimal sign (``7,5`` in Vietnamese and Spanish)."""
    sign = tr.decimal_sign
    return [cell.replace(".", sign) for cell in cells] if sign != "." else cells


def own_points(value: float, tr: Translator) -> str:
    """A game's or a bye's points for one player: ``1``, ``½``, ``2``, ``1½``
    (``ranking.scoring.spelling.written_points``)."""
    return written_points(value, "½", tr.decimal_sign)


# -- standings ------------------------------------------------------------------------------------

def _final(tournament: Tournament, final: FinalStandings | None) -> FinalStandings:
    """``final`` when it is of ``tournament`` as it is now, else the final standings computed."""
    if final is not None and final.standings.tournament is tournament:
        return final
    return final_standings(tournament)


def standings_blocks(tournament: Tournament, tr: Translator, top: int | None = STANDINGS_DEFAULT_TOP,
                     all_columns: bool = False, final: FinalStandings | None = None) -> list[str]:
    """The standings table (the first tie-break columns, or ``all_columns``, with a line naming
    the ones left out); with a play-off rule, the places the play-off decided, a ``*`` on the
    players whose place still needs it, and what the play-off still has to play.  ``final``:
    the tournament's final standings when the caller has them (``BotService.final``)."""
    final = _final(tournament, final)
    standings, playoffs = final.standings, final.playoffs
    required = playoffs.required if playoffs is not None else frozenset()
    rows = standings.rows if top is None else standings.rows[:top]
    every = list(standings.tiebreaks)
    codes = every if all_columns else every[:PHONE_COLUMNS]  # a phone shows a few columns well
    columns = [localised(format_column([row.points for row in rows]), tr)]
    columns += [localised(format_column([row.values[code] for row in rows]), tr) for code in codes]
    table = [[str(row.rank) + ("*" if row.player.id in required else ""), shorten(row.player.name, 18),
              *(column[index] for column in columns)]
             for index, row in enumerate(rows)]
    heading = f"<b>{escape(standings.tournament.name)}</b>\n" + escape(
        tr.format(M.STANDINGS_AFTER, round=standings.after_round))
    if top is not None and top < len(standings.rows):
        heading += "\n" + escape(tr.format(M.STANDINGS_TOP, count=top, total=len(standings.rows)))
    header = ["#", "", points_column(standings.rules.scoring, tr), *(column_name(code, tr) for code in codes)]
    blocks = [heading, *pre_table(header, table, [True, False, True, *([True] * len(codes))])]
    if len(codes) < len(every):
        blocks.append(escape(tr.format(M.MORE_TIEBREAKS, codes=", ".join(every[len(codes):]))))
    blocks += [escape(tr.format(M.WARNING_LINE, warning=line)) for line in chain_warnings(standings)]
    if playoffs is not None and playoffs.groups:
        names = {row.player.id: row.player.name for row in standings.rows}
        lines = [tr.gettext(M.PLAYOFF_MARK_NOTE)] if required else []
        scoring = standings.rules.scoring
        for group in playoffs.groups:
            lines.append(_playoff_group_line(group, names, scoring, tr))
            lines += [tr.format(M.PLAYOFF_GAME, round=game.round, white=names[game.white],
                                black=names[game.black]) for game in group.pending]
        blocks.append(escape("\n".join(lines)))
    return blocks


def team_standings_blocks(tournament: Tournament, standings: TeamStandings, tr: Translator) -> list[str]:
    """The team standings: place, team, match points and game points (each once; none for an
    individual event's team classification), the first tie-breaks."""
    scores = list(standings.scores)  # the one that ranks first first (CXA 14.7: GP)
    codes = [code for code in standings.tiebreaks if code.upper() not in ("MP", "GP")][:3]
    rows = standings.rows
    columns = [localised(format_column([row.match_points if score == "MP" else row.game_points for row in rows]), tr)
               for score in scores]
    columns += [localised(format_column([row.values[code] for row in rows]), tr) for code in codes]
    table = [[str(row.rank), shorten(row.team.name, 16), *(column[index] for column in columns)]
             for index, row in enumerate(rows)]
    heading = f"<b>{escape(tournament.name)}</b>\n" + escape(
        tr.format(M.TEAM_STANDINGS_AFTER, round=standings.after_round))
    header = ["#", "", *(column_name(code, tr, team=True) for code in (*scores, *codes))]
    return [heading, *pre_table(header, table, [True, False, *([True] * (len(scores) + len(codes)))])]


# -- a round ---------------------------------------------------------------------------------------

def round_blocks(state: TournamentState, number: int, tr: Translator) -> list[str]:
    """Round ``number``: its team matches (if any), its other boards, its byes."""
    names = player_names(state.base)
    scoring = default_rules(state.base).scoring
    blocks = [f"<b>{escape(state.base.name)}</b>\n" + escape(tr.format(M.ROUND_HEADING, round=number))]
    games = [item for item in decided_games(state.snapshot(), number) if item.listed]  # withdrawals applied
    if state.base.teams:
        matched, match_blocks = _team_match_blocks(state, number, names, tr)
        blocks += match_blocks
        games = [item for item in games if (item.game.round, item.game.board) not in matched]
    if games:
        rows = [_board_row(item.game, names, scoring) for item in games]
        for row, item in zip(rows, games, strict=True):
            if item.annulled:  # VN 21.5.1: counts nothing
                row[2] = "X"
        blocks += pre_table(_board_header(state.base, tr), rows, [True, False, False, False])
    for (round_number, player), bye in sorted(state.byes.items()):
        if round_number == number:
            if state.base.system.is_round_robin:
                blocks.append(escape(tr.format(M.FREE_ROUND_LINE, name=names[player])))
            else:
                kind = tr.gettext(M.BYE_NAMES[bye.kind])
                blocks.append(escape(tr.format(M.BYE_LINE, name=names[player]) + f" ({kind})"))
    return blocks


def _team_match_blocks(state: TournamentState, number: int, names: dict[int, str],
                       tr: Translator) -> tuple[set[tuple[int, int]], list[str]]:
    """The round's team matches: a heading with the match score (``match_score``: game points
    so far, with ``…`` while the match is not finished), then its boards.  Returns the boards shown."""
    try:
        event = team_event_of(state.snapshot())
    except InputError:
        return set(), []
    teams = {team.id: team for team in event.teams}
    header = _board_header(state.base, tr)
    shown: set[tuple[int, int]] = set()
    blocks: list[str] = []
    for match in sorted((m for m in event.matches if m.round == number),
                        key=lambda m: min((game.board for game in m.boards), default=0)):
        first, second = teams[match.first], teams[match.second]
        shown.update((game.round, game.board) for game in match.boards)
        own, other, finished = match_score(event, match)
        score = match.forfeit or f"{own_points(own, tr)}–{own_points(other, tr)}"
        blocks.append(f"<b>{escape(first.name)} {escape(score)} {escape(second.name)}</b>"
                      + ("" if finished else " …"))
        if match.boards:
            blocks += pre_table(header, [_board_row(game, names, event.scoring.game) for game in match.boards],
                                [True, False, False, False])
    return shown, blocks


def _board_header(tournament: Tournament, tr: Translator) -> list[str]:
    return ["", colour_word(tournament, True, tr), "", colour_word(tournament, False, tr)]


def _board_row(game: Game, names: dict[int, str], scoring: Scoring) -> list[str]:
    result = written_result(game.result, scoring, "½") if game.result else "…"
    return [str(game.board), shorten(names[game.white], 16), result, shorten(names[game.black], 16)]


# -- a player ---------------------------------------------------------------------------------------

def player_blocks(state: TournamentState, player_id: int, tr: Translator,
                  final: FinalStandings | None = None) -> list[str]:
    """A player's card: place and points, then each round: board, colour word, opponent and
    the player's own result in the event's points (1, ½, 0; 2, 1, 0 in xiangqi; + and − for
    forfeits), byes with their points; every header in the reader's language.  ``final`` as
    ``standings_blocks``'s."""
    tournament = state.snapshot()
    rules = default_rules(tournament)
    scoring = rules.scoring
    standings = _final(tournament, final).standings
    row = next(row for row in standings.rows if row.player.id == player_id)
    names = player_names(state.base)
    line = M.PLAYER_LINE_MATCHES if scoring.match else M.PLAYER_LINE
    lines = [f"<b>{escape(tr.format(line, name=row.player.name, number=player_id, points=tr.format_number(row.points), rank=row.rank))}</b>"]  # noqa: E501
    table = []
    withdrawn = {item.player: item.after_round for item in tournament.withdrawals}
    vn = rules_source(rules).startswith("VN")
    shown = [(item.game.board if item.listed else None, item.game, item.annulled)  # as the standings count them
             for item in decided_games(tournament) if player_id in (item.game.white, item.game.black)]
    for board, game, annulled in shown:
        white = game.white == player_id
        opponent = game.black if white else game.white
        mark = withdrawal_mark(game, player_id, withdrawn, vn, annulled)
        table.append([str(game.round), str(board or ""), colour_word(tournament, white, tr),
                      shorten(f"{opponent}. {names[opponent]}", 18),
                      mark if mark is not None else _own_result(game, white, scoring, tr)])
    for (number, player), bye in sorted(state.byes.items()):
        if player == player_id:
            nothing = tournament.system.is_round_robin and bye.kind is ByeKind.ZERO  # a free round, not a loss
            table.append([str(number), "", "", bye_name(tournament, bye.kind, tr),
                          "–" if nothing else own_points(bye_points(scoring, bye.kind), tr)])
    table.sort(key=lambda cells: int(cells[0]))
    if table:
        header = [tr.gettext(M.COLUMN_ROUND), tr.gettext(M.COLUMN_BOARD), tr.gettext(M.COLUMN_COLOUR),
                  tr.gettext(M.COLUMN_OPPONENT), tr.gettext(M.COLUMN_RESULT)]
        lines += pre_table(header, table, [True, True, False, False, True])
    return lines


def _own_result(game: Game, white: bool, scoring: Scoring, tr: Translator) -> str:
    """What the game gave this player: their points, ``+``/``−`` for a forfeit won or lost."""
    if game.result is None:
        return "…"
    if game.result.is_forfeit:
        won = game.result.value == ("+-" if white else "-+")
        return "+" if won else "−"
    return own_points(game_points(scoring, game.result, white), tr)


# -- the play-offs ------------------------------------------------------------------------------------

def playoff_blocks(tournament: Tournament, tr: Translator, final: FinalStandings | None = None) -> list[str]:
    """The play-offs in detail: each group, its stages and games, and what is still to play
    (``final`` as ``standings_blocks``'s)."""
    final = _final(tournament, final)
    standings, playoffs = final.standings, final.playoffs
    heading = f"<b>{escape(tournament.name)}</b>"
    if playoffs is None:
        return [heading, escape(tr.gettext(M.NO_PLAYOFF_RULE))]
    if not playoffs.due:  # the event is not over (``ranking.standings.playoffs.event_over``)
        return [heading, escape(tr.format(M.PLAYOFF_AFTER_LAST_ROUND, round=tournament.rounds))]
    if not playoffs.groups:
        return [heading, escape(tr.gettext(M.NO_PLAYOFF_NEEDED))]
    names = {row.player.id: row.player.name for row in standings.rows}
    scoring = default_rules(tournament).scoring
    blocks = [heading]
    for group in playoffs.groups:
        lines = [f"<b>{escape(_playoff_group_line(group, names, scoring, tr))}</b>"]
        if group.eliminated:
            lines.append(escape(tr.format(M.PLAYOFF_ELIMINATED,
                                          players=", ".join(names[player] for player in group.eliminated))))
        for stage in group.stages:
            lines.append(escape(_stage_name(stage, tr)) + (" ✓" if stage.decided else ""))
            for game in stage.games:
                if game.result is None:
                    line = tr.format(M.PLAYOFF_GAME, round=game.round, white=names[game.white],
                                     black=names[game.black])
                else:
                    line = tr.format(M.PLAYOFF_GAME_RESULT, round=game.round, white=names[game.white],
                                     black=names[game.black], result=written_result(game.result, scoring, "½"))
                lines.append("  " + escape(line))
        if group.pending:
            lines.append(escape(tr.gettext(M.PLAYOFF_PENDING_HEADER)))
            lines += ["  " + escape(tr.format(M.PLAYOFF_GAME, round=game.round, white=names[game.white],
                                              black=names[game.black])) for game in group.pending]
        blocks.append("\n".join(lines))
    return blocks


def _playoff_group_line(group: PlayoffGroup, names: dict[int, str], scoring: Scoring, tr: Translator) -> str:
    """Who plays off for which places; once decided, the play-off's result (each stage's
    points, ``PlayoffStage.points``) and the places it gave (C.07 3)."""
    last = group.first_place + len(group.players) - 1
    places = f"{group.first_place}-{last}" if last > group.first_place else str(group.first_place)
    form = tr.gettext(_FORMAT_NAMES[group.format])
    if group.decided:
        result = "; ".join(_stage_result(stage, names, scoring, tr) for stage in group.stages)
        order = ", ".join(f"{place}. {names[player]}" for place, player in enumerate(group.order, group.first_place))
        return tr.format(M.PLAYOFF_DECIDED, places=places, format=form, result=result, players=order)
    return tr.format(M.PLAYOFF_REQUIRED, places=places, format=form,
                     players=", ".join(names[player] for player in group.players))


def _stage_result(stage: PlayoffStage, names: dict[int, str], scoring: Scoring, tr: Translator) -> str:
    """A stage's result: ``A 3–1 B`` for two players, ``A 4, B 2, C 0`` for more."""
    points = stage.points(scoring)
    if len(points) == 2:
        (first, mine), (second, theirs) = points
        return f"{names[first]} {own_points(mine, tr)}–{own_points(theirs, tr)} {names[second]}"
    return ", ".join(f"{names[player]} {own_points(value, tr)}" for player, value in points)


def _stage_name(stage: PlayoffStage, tr: Translator) -> str:
    """A stage of ``ranking.standings.playoffs`` ("match", "semi-final 2", "final armageddon", ...) in words."""
    name = stage.name
    armageddon = name.endswith(" armageddon")
    name = name.removesuffix(" armageddon")
    if name.startswith("semi-final "):
        text = tr.format(M.PLAYOFF_STAGE_SEMIFINAL, number=name.removeprefix("semi-final "))
    else:
        message = {"match": M.PLAYOFF_STAGE_MATCH, "round robin": M.PLAYOFF_STAGE_ROUND_ROBIN,
                   "final": M.PLAYOFF_STAGE_FINAL, "third place": M.PLAYOFF_STAGE_THIRD_PLACE}.get(name)
        text = tr.gettext(message) if message else name
    return tr.format(M.PLAYOFF_STAGE_ARMAGEDDON, stage=text) if armageddon else text
