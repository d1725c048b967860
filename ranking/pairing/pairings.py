"""Pairings: FIDE Berger tables for round robins, imported Swiss pairings, board order.

Round robins are paired here, from the Berger tables of FIDE Handbook C.05 Annex 1
("Berger Tables for Round-Robin Tournaments").  Swiss rounds are not: the arbiter pairs
them with a FIDE-endorsed program (JaVaFo, bbpPairings, Swiss-Manager, Vega) and
``pairings_from_trf`` reads the round from a TRF exported from it.  ``order_boards``
numbers the boards of a Swiss round.  Everything here is pure: no I/O.

>>> berger_table(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> round_robin_schedule([11, 12, 13])[0]
[(12, 13), (11, None)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ranking.errors import InputError
from ranking.event.clock import clock_of
from ranking.event.model import Bye, ByeKind, Game, System, Tournament
from ranking.event.refusals import Code, Refusal
from ranking.formats.trf_read import parse_trf
from ranking.formats.trf_records import PLAYER
from ranking.pairing.berger import Pairing, berger_table, round_robin_schedule
from ranking.tiebreaks.presets import get_team_preset, team_preset_name

__all__ = [
    "berger_round",
    "berger_schedule",
    "berger_table",
    "next_round_pairing",
    "order_boards",
    "pairings_from_trf",
    "round_robin_schedule",
]

# ---------------------------------------------------------------------------------------
# Round robins (FIDE C.05 Annex 1)
# ---------------------------------------------------------------------------------------


def next_round_pairing(tournament: Tournament, number: int | None = None) -> tuple[list[Game], list[Bye]]:
    """The games and bye of round ``number`` of a round robin, by default the event clock's next
    round (``ranking.event.clock.next_round``: the one after the latest paired round).

    Players in starting-number order are the pairing numbers 1..n of ``berger_table``
    (FIDE C.05 Annex 1): the round is ``berger_round`` of ``berger_schedule``, as the site
    shows it before it is paired.

    Raises ``InputError`` for a Swiss (its pairings come from the arbiter's program:
    ``pairings_from_trf``), when every round is paired (the table's rounds, or fewer
    when ``tournament.rounds`` says so), when round ``number`` is paired already or is not
    a round of the table, or when a game already recorded is not the table's (the starting
    numbers are then not the pairing numbers).
    """
    if not tournament.system.is_round_robin:
        raise InputError(
            f"{tournament.name or 'the tournament'} is a Swiss: its rounds are paired by the arbiter's "
            "pairing program and imported from its TRF file"
        )
    schedule = berger_schedule(tournament)
    return berger_round(tournament, schedule, _round_to_pair(tournament, number, "round robin"))


def berger_schedule(tournament: Tournament) -> list[list[Pairing]]:
    """The Berger schedule of an individual round robin (FIDE C.05 Annex 1): the players in
    starting-number order are the pairing numbers 1..n of ``berger_table``; a
    ``DOUBLE_ROUND_ROBIN`` follows ``round_robin_schedule(..., double=True)``.  Raises
    ``InputError`` when a game already recorded is not the schedule's (the starting numbers
    are then not the pairing numbers)."""
    ids = sorted(player.id for player in tournament.players)
    schedule = round_robin_schedule(ids, double=tournament.system is System.DOUBLE_ROUND_ROBIN)
    _check_schedule(tournament, schedule)
    return schedule


def berger_round(tournament: Tournament, schedule: list[list[Pairing]], number: int) -> tuple[list[Game], list[Bye]]:
    """Round ``number`` of a round robin's Berger ``schedule`` (``berger_schedule``), for the
    pairing and for the site alike: its games without a result on boards 1..k, and in an odd
    field the player paired with the missing number, who sits the round out with the bye the
    tournament records for them in that round, else a zero-point bye (``ByeKind.ZERO``: not a
    pairing-allocated bye, which C.04.1 defines for Swiss systems only).

    >>> from ranking.event.model import Player
    >>> t = Tournament("RR", tuple(Player(i, f"P{i}") for i in (1, 2, 3)), 3, system=System.ROUND_ROBIN)
    >>> games, byes = berger_round(t, berger_schedule(t), 1)
    >>> [(g.board, g.white, g.black) for g in games], [(b.player, b.kind.value) for b in byes]
    ([(1, 2, 3)], [(1, 'Z')])
    """
    table = schedule[number - 1]
    games = [Game(number, white, black, None, board)
             for board, (white, black) in enumerate(((w, b) for w, b in table if b is not None), start=1)]
    recorded = {bye.player: bye for bye in tournament.byes if bye.round == number}
    byes = [recorded.get(player, Bye(number, player, ByeKind.ZERO)) for player, black in table if black is None]
    return games, byes


def next_team_round_pairing(tournament: Tournament, number: int | None = None) -> tuple[list[Game], list[Bye]]:
    """The board games of round ``number`` of a team round robin (FIDE C.05 Annex 1 Berger
    tables over the teams in id order), by default the event clock's next round (as
    ``next_round_pairing``): a round given by its match totals is paired too.

    Board k opposes the two teams' k-th players (rosters in board order; the number of boards
    is the team preset's, or the shortest roster); the first team of the pairing has white
    (red) on the odd boards, the second on the even ones (FIDE team practice).  A team left
    without an opponent in an odd field sits the round out.
    """
    if not tournament.system.is_round_robin:
        raise InputError("a team Swiss is paired by the pairing program: import its games with --trf")
    teams = sorted(tournament.teams, key=lambda team: team.id)
    if len(teams) < 2:
        raise InputError("a team round robin needs at least two teams")
    preset = get_team_preset(team_preset_name(tournament))
    boards = min(preset.scoring.boards, *(len(team.roster) for team in teams))
    if boards < 1:
        raise InputError("every team needs a roster (players in board order) to be paired")
    schedule = round_robin_schedule([team.id for team in teams],
                                    double=tournament.system is System.DOUBLE_ROUND_ROBIN)
    number = _round_to_pair(tournament, number, "team round robin")
    by_id = {team.id: team for team in teams}
    games: list[Game] = []
    for first, second in schedule[number - 1]:
        if second is None:
            continue
        for board in range(boards):
            a, b = by_id[first].roster[board], by_id[second].roster[board]
            white, black = (a, b) if board % 2 == 0 else (b, a)
            games.append(Game(number, white, black, None, board=len(games) + 1))
    return games, []


def _round_to_pair(tournament: Tournament, number: int | None, what: str) -> int:
    """Round ``number`` (by default the clock's next round), checked by the event's clock
    (``ranking.event.clock``): one of its rounds (``Clock.may_pair``: the schedule's, or fewer
    when ``tournament.rounds`` says so), not paired yet."""
    clock = clock_of(tournament)
    if number is None:
        number = clock.next_round
        if not clock.may_pair(number):
            raise InputError(f"every round of the {what} is paired ({clock.limit} rounds)")
    if not clock.may_pair(number):
        raise InputError(f"round {number}: the {what} has rounds 1-{clock.limit}")
    if number in clock.paired:
        raise InputError(f"round {number} of the {what} is already paired")
    return number


def _check_schedule(tournament: Tournament, schedule: list[list[Pairing]]) -> None:
    """Every recorded game must be a game of the schedule's round (colours aside)."""
    pairs = [{frozenset((w, b)) for w, b in rnd if b is not None} for rnd in schedule]
    for game in sorted(tournament.games, key=lambda g: (g.round, g.board, g.white)):
        if not 1 <= game.round <= len(schedule):
            raise InputError(
                f"round {game.round}: a round robin of {len(tournament.players)} players has {len(schedule)} rounds"
            )
        if frozenset((game.white, game.black)) not in pairs[game.round - 1]:
            raise InputError(
                f"round {game.round}: the game {game.white}-{game.black} is not in the Berger table for "
                "these starting numbers (FIDE C.05 Annex 1), so the next round cannot be taken from it: "
                "import the pairings instead"
            )


# ---------------------------------------------------------------------------------------
# Swiss: pairings made by the arbiter's program
# ---------------------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def pairings_from_trf(
    tournament: Tournament, trf_text: str, round_number: int, source: str = "<trf>"
) -> tuple[list[Game], list[Bye]]:
    """Round ``round_number`` as the arbiter's pairing program wrote it in a TRF file.

    The arbiter pairs with a FIDE-endorsed program (Swiss-Manager, Vega, JaVaFo,
    bbpPairings) and exports a TRF (FIDE C.04 Annex 2) whose player lines hold the new
    round: the opponent and colour with a blank result, or a bye (``0000 - U``
    pairing-allocated, ``F``/``H``/``Z`` full-, half-, zero-point).
    The file is read with ``ranking.formats.trf_read.parse_trf`` and checked against ``tournament``,
    the state before the round:

    - every player of the file is a player of the tournament with the same start number,
      and the same name (ignoring case and repeated blanks) when both have one; every
      player of the tournament is in the file;
    - ``round_number`` is one of the tournament's rounds (``Clock.may_pair``), no game of it (or of a later
      round) is recorded yet, every earlier round with games is before it, and the file
      pairs someone in it;
    - the file's earlier rounds do not contradict the tournament's games (a player with
      another opponent means the program paired from other data); the new round pairs no
      player who withdrew before it, and agrees with the byes already recorded for it.

    Returns the round's games, with result None unless the file already has one and
    boards numbered as ``parse_trf`` does (by the lower start number: ``order_boards``
    renumbers them by FIDE rules), and its byes, less those the tournament already
    records.  A player whom the file leaves blank in the round gets nothing.  Every
    problem raises ``InputError`` naming ``source``, the line and the player.
    """
    t = tournament
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise InputError(f"round {round_number!r}: expected a round number 1 or more", source=source)
    clock = clock_of(t)
    if not clock.may_pair(round_number):
        raise InputError(f"round {round_number}: the tournament has {clock.limit} rounds", source=source)
    paired_now = clock.paired  # ranking.event.clock: a game, a team match or a PAB
    later = next((number for number in paired_now if number >= round_number), None)
    if later is not None:
        raise InputError(f"round {round_number}: round {later} is already paired in the tournament", source=source)
    last_paired = paired_now[-1] if paired_now else 0
    if round_number > last_paired + 1:
        raise InputError(
            f"round {round_number}: round {last_paired + 1} is not paired yet; pair the rounds in order",
            source=source,
        )

    paired = parse_trf(trf_text, source)
    lines = _player_lines(trf_text)
    mine = {p.id: p for p in t.players}
    for player in paired.players:
        line = lines.get(player.id)
        own = mine.get(player.id)
        if own is None:
            raise InputError(
                f"player {player.id} ({player.name or 'no name'}) is not in the tournament: expected the "
                "start numbers of the tournament's players",
                source=source,
                line=line,
            )
        if own.name and player.name and _name_key(own.name) != _name_key(player.name):
            raise InputError(
                f"player {player.id} is {player.name!r} in the file but {own.name!r} in the tournament: "
                "the start numbers do not match",
                source=source,
                line=line,
            )
    in_file = {p.id for p in paired.players}
    missing = [p for p in t.players if p.id not in in_file]
    if missing:
        listed = ", ".join(f"{p.id} ({p.name})" if p.name else str(p.id) for p in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InputError(f"the file has no line for player(s) {listed}{more} of the tournament", source=source)

    games = [g for g in paired.games if g.round == round_number]
    byes = [b for b in paired.byes if b.round == round_number]
    if not games and not byes:
        last = max((g.round for g in paired.games), default=0)
        raise InputError(
            f"the file pairs nobody in round {round_number}" + (f" (its last paired round is {last})" if last else ""),
            source=source,
        )

    _check_history(t, paired.games, round_number, lines, source)
    withdrawn = {w.player: w.after_round for w in t.withdrawals}
    recorded = {b.player: b for b in t.byes if b.round == round_number}
    for game in games:
        for pid in (game.white, game.black):
            if pid in withdrawn and withdrawn[pid] < round_number:
                raise InputError(
                    f"round {round_number}: player {pid} is paired, but withdrew after round {withdrawn[pid]}",
                    source=source,
                    line=lines.get(pid),
                )
            if pid in recorded:
                raise InputError(
                    f"round {round_number}: player {pid} is paired, but the tournament records a "
                    f"{recorded[pid].kind.name.lower()} bye ({recorded[pid].kind.value}) for that round",
                    source=source,
                    line=lines.get(pid),
                )
    new_byes: list[Bye] = []
    for bye in byes:
        before = recorded.get(bye.player)
        if before is None:
            new_byes.append(bye)
        elif before.kind is not bye.kind:
            raise InputError(
                f"round {round_number}: player {bye.player} has bye {bye.kind.value} in the file, but the "
                f"tournament records bye {before.kind.value}",
                source=source,
                line=lines.get(bye.player),
            )
    return games, new_byes


def _check_history(
    t: Tournament, file_games: Iterable[Game], round_number: int, lines: Mapping[int, int], source: str
) -> None:
    """A player's opponent in an earlier round must be the same in the file and the tournament."""
    ours: dict[tuple[int, int], int] = {}
    for g in t.games:
        ours[(g.round, g.white)] = g.black
        ours[(g.round, g.black)] = g.white
    for g in sorted(file_games, key=lambda g: (g.round, min(g.white, g.black))):
        if g.round >= round_number:
            continue
        for pid, opponent in sorted(((g.white, g.black), (g.black, g.white))):
            recorded = ours.get((g.round, pid))
            if recorded is not None and recorded != opponent:
                raise InputError(
                    f"round {g.round}: player {pid} met {opponent} in the file but {recorded} in the "
                    "tournament: the pairing program worked from other results",
                    source=source,
                    line=lines.get(pid),
                )


def _player_lines(text: str) -> dict[int, int]:
    """Start number -> line number of each ``001`` record (the text parsed without error)."""
    found: dict[int, int] = {}
    for number, line in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1):
        if line.startswith(PLAYER + " "):
            start = line[4:8].strip()
            if start.isdigit():
                found.setdefault(int(start), number)
    return found


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


# ---------------------------------------------------------------------------------------
# Board order
# ---------------------------------------------------------------------------------------


def pairings_from_list(
    tournament: Tournament, text: str, round_number: int, source: str = "<pairs>"
) -> tuple[list[Game], list[Bye]]:
    """Round ``round_number`` from the pairs list that JaVaFo and bbpPairings write (``-p``).

    The JaVaFo Advanced User Manual format: the first line holds the number of pairs, then
    one line per board ``WHITE BLACK`` (starting numbers, in board order); ``0`` as black
    is the pairing-allocated bye.  Every player must be in the tournament, appear once, and
    not have withdrawn before the round; the round must be the next one to pair.
    """
    lines = [(number, line.split()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not lines:
        raise InputError("empty pairs file: expected the number of pairs, then one 'WHITE BLACK' line each",
                         source=source)
    first_line, first = lines[0]
    if len(first) != 1 or not first[0].isdigit():
        raise InputError(f"expected the number of pairs, got {' '.join(first)!r}", source=source, line=first_line)
    expected = int(first[0])
    if len(lines) - 1 != expected:
        raise InputError(f"the file announces {expected} pairs but lists {len(lines) - 1}", source=source,
                         line=first_line)
    clock = clock_of(tournament)
    if not clock.may_pair(round_number):
        raise InputError(f"round {round_number}: the tournament has {clock.limit} rounds", source=source)
    if clock.paired and clock.paired[-1] >= round_number:
        raise InputError(f"round {round_number} is paired already", source=source)
    ids = {player.id for player in tournament.players}
    withdrawn = {w.player: w.after_round for w in tournament.withdrawals}
    seen: set[int] = set()
    games: list[Game] = []
    byes: list[Bye] = []
    for line, fields in lines[1:]:
        if len(fields) != 2 or not all(field.isdigit() for field in fields):
            raise InputError(f"expected 'WHITE BLACK' starting numbers, got {' '.join(fields)!r}", source=source,
                             line=line)
        white, black = int(fields[0]), int(fields[1])
        for player in (white, black) if black else (white,):
            if player not in ids:
                raise Refusal(Code.PLAYER_UNKNOWN, player=player, ids=sorted(ids)).located(source, line)
            if player in seen:
                raise Refusal(Code.PLAYER_TWICE, player=player, round=round_number).located(source, line)
            if withdrawn.get(player, round_number) < round_number:
                raise Refusal(Code.PLAYER_WITHDRAWN, player=player, after_round=withdrawn[player]).located(source, line)
            seen.add(player)
        if black:
            games.append(Game(round_number, white, black, None, board=len(games) + 1))
        else:
            byes.append(Bye(round_number, white, ByeKind.PAIRING))
    return games, byes


def order_boards(games: Sequence[Game], scores: Mapping[int, float], ranks: Mapping[int, int]) -> list[Game]:
    """The games of one Swiss round renumbered 1..k in FIDE board order.

    FIDE C.04.1 F.1 (Swiss System Based on Rating, the Dutch rules of the Handbook before
    2012): "After a pairing is complete sort the pairing before making them public.  The
    sorting criteria are (with descending priority) the score of the higher player of the
    pairing involved; the sum of the scores of both players of the pairing involved; the
    rank according to A2 of the higher player of the pairing involved."  So: the higher
    of the two scores, then the sum of the scores (both higher first), then the better
    (smaller) of the two ``ranks``, A2 being the pairing order (score, then pairing
    number).  ``scores`` are the scores before the round; every player of ``games`` needs
    a score and a rank, else ``InputError``.  Byes have no board.

    >>> games = [Game(3, 6, 3, None), Game(3, 7, 4, None), Game(3, 1, 8, None), Game(3, 5, 2, None)]
    >>> scores = {1: 1.0, 2: 2.0, 3: 1.0, 4: 1.0, 5: 1.5, 6: 0.5, 7: 1.0, 8: 1.0}
    >>> ranks = {2: 1, 5: 2, 1: 3, 3: 4, 4: 5, 7: 6, 8: 7, 6: 8}
    >>> [(g.board, g.white, g.black) for g in order_boards(games, scores, ranks)]
    [(1, 5, 2), (2, 1, 8), (3, 7, 4), (4, 6, 3)]
    """
    rounds = {g.round for g in games}
    if len(rounds) > 1:
        raise InputError(f"order_boards orders one round at a time, got rounds {sorted(rounds)}")

    def value(table: Mapping[int, float] | Mapping[int, int], pid: int, what: str) -> float:
        try:
            return table[pid]
        except KeyError:
            raise InputError(f"round {next(iter(rounds))}: no {what} for player {pid}") from None

    def key(g: Game) -> tuple[float, float, float, int]:
        white, black = value(scores, g.white, "score"), value(scores, g.black, "score")
        best = min(value(ranks, g.white, "rank"), value(ranks, g.black, "rank"))
        return (-max(white, black), -(white + black), best, min(g.white, g.black))

    return [replace(g, board=board) for board, g in enumerate(sorted(games, key=key), start=1)]
