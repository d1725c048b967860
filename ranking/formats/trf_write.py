"""Writing a tournament as a FIDE TRF-16 file, with TRF-2026's records for what TRF-16 cannot hold.

Sources: FIDE C.04 Annex 2 "TRF-16" (Krause 2006, approved Elista 2015) for the ``001`` player
record and the ``012``/``013``/``092`` records; the TEC's TRF-2026 (approved by FIDE Council
12/05/2025) for ``142`` (rounds), ``152`` (initial colour), ``162`` (scoring), ``202``/``212``
(tie-breaks), ``240`` (byes), ``250`` (virtual points), ``260`` (forbidden pairs), ``300``, ``310``,
``320``, ``330`` and ``362`` (teams); the JaVaFo Advanced User Manual ("TRF(x)") for ``XXR``,
``XXS`` and ``XXC``.  What TRF has no record for follows in ``### tiebreak`` comment records
(``ranking.formats.trf_extras``); ``ranking.formats.trf_read`` reads the file back.

``trf_refusal`` says why a tournament does not fit TRF; ``write_trf`` turns a ``Tournament``
into TRF text.  Both are pure: no file I/O.

>>> from ranking.formats.trf_read import parse_trf
>>> t = parse_trf('''012 Mini
... 001    1      Alpha, A                          2100                             1.0    1     2 w 1
... 001    2      Beta, B                           2000                             0.0    2     1 b 0
... ''')
>>> parse_trf(write_trf(t)) == t
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from ranking.errors import InputError
from ranking.event.clock import next_round
from ranking.event.model import ByeKind, Game, Player, Result, System, TeamByeKind, Tournament
from ranking.event.rounds import Kind
from ranking.formats.trf_extras import extra_lines
from ranking.formats.trf_fields import FIDE_ID, LINE_BREAK, MAX_ID
from ranking.formats.trf_read import infer_system, system_from_type
from ranking.formats.trf_records import (
    _240_LETTERS,
    _LETTERS,
    _MAX_TEAM,
    BYES26,
    CHAIN_TAGS,
    ENCODED_TYPE,
    NAME,
    PLAYER,
    ROUNDS_TAGS,
    SCORING_TAGS,
    TEAM16,
    TEAM26,
    TEAM_FORFEIT,
    TEAM_FORFEITS,
    TEAM_ORDER,
    TEAM_PAB,
    TEAM_SCORING,
    TYPE,
    TYPE_NAMES,
)
from ranking.formats.trf_teams import _match_games, _team_codes
from ranking.scoring.rules import CHESS, Scoring

__all__ = ["trf_refusal", "write_trf"]

def trf_refusal(tournament: Tournament) -> str | None:
    """Why TRF cannot hold ``tournament`` without losing a game, or None.  TRF has one entry per
    player and round, so two games between the same players in one round (a two-game match,
    VN 21.2; a multiple round robin's match, CXA 14.2) do not fit; the TOML export keeps them.

    >>> from ranking.event.model import Game, Player, Result
    >>> t = Tournament("Match", (Player(1, "A"), Player(2, "B")), 1,
    ...                (Game(1, 1, 2, Result.DRAW), Game(1, 2, 1, Result.WHITE_WINS)))
    >>> trf_refusal(t).split(":")[0:2]
    ['round 1', ' players 1 and 2 play a match of 2 games (VN 21.2), and TRF holds one game a round']
    """
    games: dict[tuple[int, frozenset[int]], int] = {}
    for game in tournament.games:
        key = (game.round, frozenset((game.white, game.black)))
        games[key] = games.get(key, 0) + 1
    if len(games) == len(tournament.games):  # no pairing twice in a round: nothing to refuse (nor to sort)
        return None
    for (number, pair), count in sorted(games.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        if count > 1 and len(pair) == 2:
            first, second = sorted(pair)
            return (f"round {number}: players {first} and {second} play a match of {count} games (VN 21.2), and "
                    "TRF holds one game a round: export the tournament as TOML, which keeps every game")
    return None


def write_trf(
    tournament: Tournament,
    points: Mapping[int, float] | None = None,
    ranks: Mapping[int, int] | None = None,
) -> str:
    """The tournament as TRF text (FIDE C.04 Annex 2; TRF-2026 for teams), one ``001`` line
    per player.

    Order: ``012`` name, the kept records in order (records whose tag is not 3 characters,
    such as a TOML slug, are left out), ``XXR`` rounds, ``XXS`` when the scoring is not
    chess 1/½/0, ``212 PTS,...`` when the rules have a tie-break chain, ``092`` when the
    system is a round robin (or would not be inferred) and no ``092`` is kept, then the
    players by starting number with the points and rank columns filled from ``points`` and
    ``ranks`` when given.  A withdrawn player's rounds after the withdrawal, up to the next
    round to pair, are written as zero-point byes.  ``362`` (in the columns of ``162``)
    is written when the team match points are the event's own; a team chain (or a team primary
    score) as ``212 PTS:MP,...`` (``PTS:GP`` for an event ranked by game points first), the
    individual chain then as ``202``.  Teams follow the players (``_team_lines``): ``013``
    when numbered 1..n (else ``310``), ``320`` for team PABs (with the preset's PAB MP/GP),
    ``240`` for other team byes, ``330`` for forfeited team matches, ``300`` for a team whose
    players in a match, by board, are not in roster order.  TRF has no board numbers (only
    the order within a team match), team matches given by totals, or team forfeits without
    their opponent: those are lost.  The game, the slug, the rules' options and play-off rule,
    clubs, fouls, withdrawals, play-off games and the team preset follow in ``### tiebreak``
    comment records (``ranking.formats.trf_extras``), which other programs skip and ``parse_trf``
    reads back.  Raises InputError when a value does not fit its columns or a player has two
    entries in one round (``trf_refusal`` says why: two-game matches, VN 21.2, need TOML).
    """
    t = tournament
    refusal = trf_refusal(t)
    if refusal is not None:
        raise InputError(refusal)
    if LINE_BREAK.search(t.name):
        raise InputError("the tournament name contains a line break: TRF holds one line")
    if not 0 <= t.rounds <= MAX_ID:
        raise InputError(f"{t.rounds} rounds: TRF holds 0-9999")
    kept: list[tuple[str, str]] = []
    for tag, rest in t.records:
        if len(tag) != 3 or any(ch.isspace() for ch in tag) or tag in _REGENERATED or tag.startswith("###"):
            continue  # not a TRF record (e.g. a TOML slug), or written from the model below
        if tag == BYES26 and t.teams:
            continue  # a team file's 240 records are its team byes, written from them below
        if LINE_BREAK.search(rest):
            raise InputError(f"record {tag} contains a line break: TRF holds one line per record")
        kept.append((tag, rest))
    type_at = next((k for k, (tag, _) in enumerate(kept) if tag == TYPE), None)
    if type_at is not None and _derived_system(kept, t) is not t.system:
        kept[type_at] = (TYPE, TYPE_NAMES[t.system])  # the kept text contradicts the system

    lines = [f"{NAME} {t.name}".rstrip()]
    lines += [f"{tag} {rest}".rstrip() for tag, rest in kept]
    if t.rounds:
        lines += [f"142 {t.rounds}", f"XXR {t.rounds}"]
    if t.rules is not None and t.rules.scoring != CHESS:
        lines += [*_162(t.rules.scoring), _xxs(t.rules.scoring)]
    lines += _pairing_lines(t, kept)
    chain = t.rules.tiebreaks if t.rules is not None else ()
    team_chain = bool(t.teams) and bool(t.team_tiebreaks or t.team_primary)
    if team_chain:  # PTS:MP also where the codes alone would read as an individual chain
        primary = t.team_primary or ("" if _team_codes(t.team_tiebreaks) else "MP")
        lines.append("212 " + ",".join((f"PTS:{primary}" if primary else "PTS", *_codes(t.team_tiebreaks))))
    if chain:
        lines.append(("202 " if team_chain else "212 PTS,") + ",".join(_codes(chain)))
    if type_at is None and (t.system.is_round_robin or _derived_system(kept, t) is not t.system):
        lines.append(f"{TYPE} {TYPE_NAMES[t.system]}")
    if t.teams and t.team_match_points is not None:
        lines.append(_362(t.team_match_points))

    entries = _entries(t, _forfeited_boards(t))
    for player in sorted(t.players, key=lambda p: p.id):
        lines.append(_player_line(player, t.rounds, entries.get(player.id, {}), points, ranks))
    lines += _team_lines(t, kept, points is not None and ranks is not None)
    lines += extra_lines(t)
    return "\n".join(lines) + "\n"


#: Tags ``parse_trf`` turns into fields (never kept in ``records``) and ``write_trf`` writes
#: from those fields.  ``092`` is kept (its text says more than the system) unless it is
#: exactly the canonical name of ``TYPE_NAMES``; a second ``012`` is kept.
_REGENERATED = frozenset({PLAYER, *ROUNDS_TAGS, *SCORING_TAGS, *CHAIN_TAGS, TEAM26, TEAM_PAB, TEAM_FORFEIT, TEAM_ORDER,
                          TEAM_SCORING})


def _codes(codes: Iterable[str]) -> list[str]:
    """Tie-break codes for ``202``/``212``: none blank or holding a comma or a line break."""
    codes = list(codes)
    if any("," in code or not code.strip() or LINE_BREAK.search(code) for code in codes):
        raise InputError("a tie-break code is blank or contains a comma or a line break: it cannot be written to 212")
    return [code.strip() for code in codes]


def _columns(value: float, width: int, what: str) -> str:
    """A number in TRF's ``11.5`` format, right-aligned in ``width`` columns."""
    text = f"{value:{width}.1f}"
    if len(text) > width or float(text) != value:
        raise InputError(f"{what} {value:g} does not fit TRF's {width} columns with one decimal")
    return text


def _362(match_points: tuple[float, float, float]) -> str:
    """TRF-2026 ``362`` in the columns of ``162``: each code in 5-6, 14-15, 23-24, its points in
    the 4 columns after it."""
    won, drawn, lost = (_columns(value, 4, "362: match points") for value in match_points)
    return f"{TEAM_SCORING} TW{won}   TD{drawn}   TL{lost}"


def _trf_2026_teams(t: Tournament) -> bool:
    """Whether the team records are TRF-2026's (310 numbers the teams that 320, 240, 330, 300
    and 362 refer to; 013 is to be phased out)."""
    return bool(t.team_byes or any(match.forfeit for match in t.team_matches) or t.team_match_points is not None
                or t.team_pab is not None or t.team_tiebreaks or t.team_primary or _board_order_lines(t))


def _team_lines(t: Tournament, kept: list[tuple[str, str]], standings: bool) -> list[str]:
    """Team records after the players, in the columns of TRF-2026: ``013`` (TRF-16) when the
    teams are numbered 1..n in order and nothing else of TRF-2026 is written, else ``310``
    (with the match points, game points and place of the team standings when the players'
    points and places are written: ``standings``); then ``320`` for the pairing-allocated byes
    (with the event's PAB match and game points), ``240`` for the full-, half- and zero-point
    byes, ``330`` for the forfeited matches and ``300`` for each team that played a match
    (games between members of two teams) in a board order other than its roster's."""
    if not t.teams:
        if t.team_matches or t.team_byes:
            raise InputError("team matches or team byes without teams: TRF numbers them by team record")
        return []
    members = {p.id for p in t.players}
    for team in t.teams:
        if LINE_BREAK.search(team.name) or not team.name.strip():
            raise InputError(f"team {team.id}: the name {team.name!r} is blank or holds a line break")
        for pid in team.roster:
            if pid not in members:
                raise InputError(f"team {team.name!r}: player {pid} is not in the tournament's players")
    sixteen = [team.id for team in t.teams] == list(range(1, len(t.teams) + 1)) and not any(
        tag == TEAM16 for tag, _ in kept
    ) and not _trf_2026_teams(t)
    # The 320 values and the 310 standings need the event's team scoring; loading team standings
    # for every TRF read would cost start-up time (and only team files need it).
    from ranking.standings.team import team_event_of, team_standings

    event = team_event_of(t)
    rows = {row.team.id: row for row in team_standings(event).rows} if standings and not sixteen else {}
    lines = []
    for team in t.teams:
        roster = " ".join(f"{pid:>4}" for pid in team.roster)
        name = team.name.strip()[:32]
        if sixteen:
            lines.append(f"{TEAM16} {name:<32}{roster}".rstrip())
        else:
            if not 1 <= team.id <= _MAX_TEAM:
                raise InputError(f"team {team.id}: TRF team numbers are 1-999")
            row = rows.get(team.id)
            match_points = game_points = ""  # a team classification has neither (CXA 14.8)
            if row is not None and row.match_points is not None and row.game_points is not None:
                match_points = _columns(row.match_points, 6, "310: match points")
                game_points = _columns(row.game_points, 6, "310: game points")
            place = f"{row.rank:>3}" if row and row.rank <= 999 else ""
            lines.append(f"{TEAM26} {team.id:>3} {name:<32} {'':<5} {'':>6} {match_points:>6} {game_points:>6} "
                         f"{place:>3}  {roster}".rstrip())
    pabs: dict[int, list[int]] = defaultdict(list)
    byes: dict[tuple[str, int], list[int]] = defaultdict(list)
    for bye in t.team_byes:
        if bye.kind is TeamByeKind.PAB:
            pabs[bye.round].append(bye.team)
        elif bye.kind in _240_LETTERS:
            byes[(_240_LETTERS[bye.kind], bye.round)].append(bye.team)
    if pabs:
        match_points, game_points = (_columns(value, 4, "320: PAB points")
                                     for value in event.scoring.unplayed(Kind.PAIRING_BYE))
        last = max(pabs)
        for layer in range(max(len(teams) for teams in pabs.values())):
            fields = []
            for rnd in range(1, last + 1):
                teams = sorted(pabs.get(rnd, ()))
                fields.append(f"{teams[layer] if layer < len(teams) else 0:03d}")
            lines.append(f"{TEAM_PAB} {match_points} {game_points} {' '.join(fields)}")
    for (letter, rnd), teams in sorted(byes.items(), key=lambda item: (item[0][1], item[0][0])):
        if not 1 <= rnd <= _MAX_TEAM:
            raise InputError(f"round {rnd}: TRF's 240 holds rounds 1-999")
        lines.append(f"{BYES26} {letter} {rnd:03d}" + "".join(f"  {team:03d}" for team in sorted(teams)))
    for match in sorted(t.team_matches, key=lambda m: (m.round, m.first)):
        if match.forfeit is None:
            continue  # totals or boards: TRF has no team-match record for them
        if match.forfeit not in TEAM_FORFEITS:
            raise InputError(f"round {match.round}: forfeit {match.forfeit!r}: expected +-, -+ or --")
        lines.append(f"{TEAM_FORFEIT} {match.forfeit} {match.round:03d} {match.first:03d} {match.second:03d}")
    lines += _board_order_lines(t)
    return lines


def _forfeited_boards(t: Tournament) -> list[Game]:
    """The boards of each forfeited team match (``330``) whose players have no games in that
    round: the k-th members of the two rosters meet on board k, the first team with white on
    the odd boards, each board forfeited as the match is (C.07 12: a forfeit counts on every
    board).  FIDE's reference program reads a forfeited match from its boards in the player
    lines."""
    if not t.teams:
        return []
    rosters = {team.id: team.roster for team in t.teams}
    busy = {(game.round, pid) for game in t.games for pid in (game.white, game.black)}
    busy |= {(bye.round, bye.player) for bye in t.byes if bye.kind is not ByeKind.ZERO}  # not mere absences
    boards = []
    results = {"+-": Result.WHITE_WINS_FORFEIT, "-+": Result.BLACK_WINS_FORFEIT, "--": Result.DOUBLE_FORFEIT}
    for match in t.team_matches:
        if match.forfeit not in results:
            continue
        first, second = rosters.get(match.first, ()), rosters.get(match.second, ())
        pairs = list(zip(first, second, strict=False))
        if any((match.round, pid) in busy for pair in pairs for pid in pair):
            continue  # the file gives the boards (or the players played elsewhere): nothing to add
        for board, (own, other) in enumerate(pairs, start=1):
            result = results[match.forfeit]
            if board % 2:
                boards.append(Game(match.round, own, other, result, board))
            else:  # the second team has white on the even boards
                swapped = {Result.WHITE_WINS_FORFEIT: Result.BLACK_WINS_FORFEIT,
                           Result.BLACK_WINS_FORFEIT: Result.WHITE_WINS_FORFEIT}.get(result, result)
                boards.append(Game(match.round, other, own, swapped, board))
    return boards


def _board_order_lines(t: Tournament) -> list[str]:
    """``300`` for every team whose players in a match, by board, are not in roster order."""
    member_of = {pid: team.id for team in t.teams for pid in team.roster}
    roster_place = {team.id: {pid: k for k, pid in enumerate(team.roster)} for team in t.teams}
    lines = []
    matches = _match_games(t.games, member_of)
    for (rnd, pair), match in sorted(matches.items(), key=lambda item: (item[0][0], sorted(item[0][1]))):
        ordered = sorted(match, key=lambda game: game.board)
        for team_id in sorted(pair):
            players = [g.white if member_of[g.white] == team_id else g.black for g in ordered]
            if players == sorted(players, key=roster_place[team_id].__getitem__):
                continue
            (opponent,) = pair - {team_id}
            if not 1 <= rnd <= _MAX_TEAM or not 1 <= team_id <= _MAX_TEAM or not 1 <= opponent <= _MAX_TEAM:
                raise InputError(f"round {rnd}: team {team_id}'s board order: TRF's 300 holds rounds and teams 1-999")
            listed = " ".join(f"{pid:04d}" for pid in players)
            lines.append(f"{TEAM_ORDER} {rnd:03d} {team_id:03d} {opponent:03d} {listed}")
    return lines


def _derived_system(records: Iterable[tuple[str, str]], t: Tournament) -> System:
    """The system ``parse_trf`` would read back: the first 092, else 192, else inferred."""
    for wanted in (TYPE, ENCODED_TYPE):
        text = next((rest for tag, rest in records if tag == wanted), None)
        if text is not None:
            found = system_from_type(text)
            if found is not None:
                return found
    return infer_system(t.players, t.games)


def _fmt(value: float) -> str:
    """A number as JaVaFo writes it: ``1``, ``0.5``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _162(s: Scoring) -> list[str]:
    """TRF-2026 ``162`` for what it can say of a scoring system (W win, forfeit win and
    full-point bye; D draw and half-point bye; L loss; A zero-point bye and forfeit loss;
    P pairing-allocated bye), each code in columns 6, 15, 24, ... and its points in the four
    after; ``XXS``, written after it, says the rest exactly to readers that know it.  Nothing
    (an empty list) when a value does not fit those four columns: ``XXS`` alone says it."""
    codes = [("W", s.win), ("D", s.draw), ("L", s.loss)]
    if s.zero_bye or s.forfeit_loss_points:
        codes.append(("A", s.zero_bye))
    if s.pairing_bye_points != s.win:
        codes.append(("P", s.pairing_bye_points))
    try:
        return ["162" + "".join(f"  {code}{_columns(value, 4, f'162 {code}')}  " for code, value in codes).rstrip()]
    except InputError:
        return []


def _pairing_lines(t: Tournament, kept: list[tuple[str, str]]) -> list[str]:
    """What a pairing program needs of a Swiss event's pairing settings (``pairing.*``
    records), as TRF-2026 and JaVaFo write it: ``152``/``XXC`` the initial colour (when set,
    or when round 1 is not paired yet: the colour drawn by lot; afterwards round 1 shows it),
    ``250`` the virtual points of an accelerated event (C.04.7) and ``260`` the pairs that
    must not meet.  Records the file already had are kept as they were."""
    if t.system.is_round_robin or t.teams:
        return []
    from ranking.pairing.dutch.state import (  # the Dutch engine's reading of the records (loaded only here)
        Acceleration,
        PairingOptions,
        initial_colour,
        recorded_colour,
        virtual_points,
    )

    tags = {tag for tag, _ in kept}
    options = {tag.removeprefix("pairing."): rest.strip() for tag, rest in t.records if tag.startswith("pairing.")}
    lines = []
    unpaired = not t.games and not any(b.kind is ByeKind.PAIRING for b in t.byes)
    if not tags & {"152", "XXC"} and not recorded_colour(t) and (
            options.get("initial_colour") or (unpaired and t.players)):
        colour = initial_colour(t, PairingOptions(initial_colour=options.get("initial_colour", "")))
        lines += [f"152 {colour}", "XXC " + ("white1" if colour == "W" else "black1")]
    if options.get("acceleration", "").lower() == Acceleration.BAKU and not tags & {"XXA", "250"}:
        scoring = t.rules.scoring if t.rules is not None else Scoring()
        virtual = virtual_points(t, scoring, PairingOptions(acceleration=Acceleration.BAKU))
        lines += _250(virtual)
    for tag, rest in t.records:
        if tag == "pairing.forbidden":
            numbers = [int(token) for token in rest.replace(",", " ").split() if token.isdigit()]
            lines.append(f"260 001 {max(t.rounds, 1):03d} " + " ".join(f"{pid:4d}" for pid in numbers))
    return lines


def _250(virtual: Mapping[int, Mapping[int, object]]) -> list[str]:
    """TRF-2026 ``250`` records for per-player, per-round virtual points: one record per run
    of consecutive start numbers with the same points in the same run of rounds."""
    runs: dict[tuple[object, int, int], list[int]] = defaultdict(list)  # (points, first, last round) -> ids
    for pid in sorted(virtual):
        rounds = sorted(virtual[pid])
        points = virtual[pid]
        start = 0
        for k in range(1, len(rounds) + 1):
            if k == len(rounds) or rounds[k] != rounds[k - 1] + 1 or points[rounds[k]] != points[rounds[start]]:
                runs[(points[rounds[start]], rounds[start], rounds[k - 1])].append(pid)
                start = k
    lines = []
    for (points, first, last), ids in sorted(runs.items(), key=lambda item: (item[0][1], item[1][0])):
        begin = ids[0]
        for k in range(1, len(ids) + 1):
            if k == len(ids) or ids[k] != ids[k - 1] + 1:
                lines.append(f"250      {_columns(float(points), 4, '250: points')} {first:03d} {last:03d} "
                             f"{begin:04d} {ids[k - 1]:04d}")
                if k < len(ids):
                    begin = ids[k]
    return lines


def _xxs(s: Scoring) -> str:
    """``XXS`` (JaVaFo TRF(x)) for a scoring system; read back by ``ranking.formats.trf_fields.scoring_fields``."""
    parts = [f"W={_fmt(s.win)}", f"D={_fmt(s.draw)}", f"WL={_fmt(s.loss)}", f"BL={_fmt(s.loss)}"]
    if s.draw_first is not None or s.draw_second is not None:
        first = s.draw if s.draw_first is None else s.draw_first
        second = s.draw if s.draw_second is None else s.draw_second
        parts += [f"WD={_fmt(first)}", f"BD={_fmt(second)}"]
    if s.zero_bye != 0:
        parts.append(f"ZPB={_fmt(s.zero_bye)}")
    for key, value in (
        ("HPB", s.half_bye),
        ("FPB", s.full_bye),
        ("PAB", s.pairing_bye),
        ("FW", s.forfeit_win),
        ("FL", s.forfeit_loss),
    ):
        if value is not None:
            parts.append(f"{key}={_fmt(value)}")
    return "XXS " + " ".join(parts)


def _entries(t: Tournament, extra: Iterable[Game] = ()) -> dict[int, dict[int, tuple[str, str, str]]]:
    """player -> round -> (opponent, colour, letter) for every game (and the ``extra`` ones,
    which take the place of a zero-point bye), bye and withdrawal."""
    entries: dict[int, dict[int, tuple[str, str, str]]] = defaultdict(dict)
    known = {p.id for p in t.players}

    def put(pid: int, rnd: int, value: tuple[str, str, str]) -> None:
        if pid not in known:
            raise InputError(f"round {rnd}: player {pid} is not in the tournament's players")
        if not 1 <= rnd <= t.rounds:
            raise InputError(f"round {rnd} of player {pid} is outside rounds 1-{t.rounds}")
        if rnd in entries[pid]:
            raise InputError(f"player {pid} has two games or byes in round {rnd}: TRF holds one per round")
        entries[pid][rnd] = value

    extra = tuple(extra)
    for g in (*t.games, *extra):
        if g.result is None:
            white_letter = black_letter = " "
        else:
            rated = g.rated or g.result.is_forfeit
            white_letter, black_letter = _LETTERS[(g.result, rated)]
        white_colour, black_colour = ("w", "b") if g.colours_known else ("-", "-")
        put(g.white, g.round, (f"{g.black:>4}", white_colour, white_letter))
        put(g.black, g.round, (f"{g.white:>4}", black_colour, black_letter))
    taken = {(pid, g.round) for g in extra for pid in (g.white, g.black)}
    for b in t.byes:
        if b.kind is ByeKind.ZERO and (b.player, b.round) in taken:
            continue  # an absence in a round whose board the forfeited match fills
        put(b.player, b.round, ("0000", "-", b.kind.value))
    # every later round up to the next one to pair, so a pairing program never pairs the player
    # again (and reads no round beyond it as played: bbpPairings pairs the round after the file's last)
    horizon = min(t.rounds, next_round(t))
    for w in t.withdrawals:
        if w.player not in known:
            raise InputError(f"withdrawal of player {w.player}, who is not in the tournament's players")
        for rnd in range(w.after_round + 1, horizon + 1):
            if rnd not in entries[w.player]:
                entries[w.player][rnd] = ("0000", "-", ByeKind.ZERO.value)
    return entries


def _fit(value: str, width: int, what: str, pid: int) -> str:
    if len(value) > width or LINE_BREAK.search(value):
        raise InputError(f"player {pid}: {what} {value!r} does not fit TRF's {width} columns")
    return value


def _points_column(value: float) -> str:
    """Points as TRF's four columns hold them: ``4.5``, ``99.5``; a whole score of 100 or more
    without its decimal (``120``); blank when even that does not fit (readers count the points
    from the rounds, so the column is only a summary)."""
    text = f"{value:4.1f}"
    if len(text) > 4 and float(value).is_integer():
        text = f"{value:4.0f}"
    return text if len(text) <= 4 else ""


def _player_line(
    p: Player,
    rounds: int,
    entries: Mapping[int, tuple[str, str, str]],
    points: Mapping[int, float] | None,
    ranks: Mapping[int, int] | None,
) -> str:
    if not 1 <= p.id <= MAX_ID:
        raise InputError(f"player {p.id}: TRF start numbers are 1-9999")
    if p.sex and not (len(p.sex) == 1 and p.sex.isalpha()):
        raise InputError(f"player {p.id}: sex {p.sex!r} is not one letter")
    if not 0 <= p.rating <= MAX_ID:
        raise InputError(f"player {p.id}: rating {p.rating} does not fit TRF's 4 columns")
    if p.federation and not p.federation.isalpha():
        raise InputError(f"player {p.id}: federation {p.federation!r} is not letters")
    if p.fide_id and not FIDE_ID.fullmatch(p.fide_id):
        raise InputError(f"player {p.id}: FIDE id {p.fide_id!r} is not digits")
    name = p.name[:33]
    _fit(name, 33, "name", p.id)
    score = _points_column(points[p.id]) if points is not None and p.id in points else ""
    rank = ""
    if ranks is not None and p.id in ranks:
        rank = _fit(str(ranks[p.id]), 4, "rank", p.id)
    head = (
        f"{PLAYER} {p.id:>4} {_fit(p.sex, 1, 'sex', p.id):1}{_fit(p.title, 3, 'title', p.id):>3} {name:<33} "
        f"{str(p.rating) if p.rating else '':>4} {_fit(p.federation, 3, 'federation', p.id):<3} "
        f"{_fit(p.fide_id, 11, 'FIDE id', p.id):>11} {_fit(p.birth, 10, 'birth date', p.id):<10} "
        f"{score:>4} {rank:>4}"
    )
    blocks = []
    for rnd in range(1, rounds + 1):
        opponent, colour, letter = entries.get(rnd, ("    ", " ", " "))
        blocks.append(f"{opponent} {colour} {letter}  ")
    return (head + "  " + "".join(blocks)).rstrip()
