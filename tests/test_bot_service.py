"""The bot without Telegram (bot/players.py, bot/entering.py, bot/running.py, bot/service.py):
every command and message of players and arbiters against a real SQLite store in a temporary
directory."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from generators import generate_swiss

from bot import answers, arbiters, entering, pairings, players, running, tournament_files
from bot import messages as M
from bot.callbacks import Action, encode
from bot.formatting import MESSAGE_LIMIT, escape, shorten
from bot.handlers import press
from bot.messages import format_problem, translator
from bot.parsing import MAX_CALLBACK_BYTES, encode_callback, parse_message
from bot.replies import Reply
from bot.service import BotService, BotSettings, Who
from ranking.event.log import EventKind
from ranking.event.model import ByeKind, Game, Player, Result, System, Tournament
from ranking.formats.toml_export import write_tournament_toml
from ranking.formats.tomlfile import parse_tournament_toml
from ranking.formats.trf_read import parse_trf
from ranking.scoring.spelling import written_result
from ranking.standings.individual import compute_standings, default_rules
from tiebreak.files import load_tournament
from tiebreak.store import Source, SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "ranking" / "examples"
XIANGQI = EXAMPLES / "xiangqi-rr.toml"
SWISS = EXAMPLES / "chess-swiss.trf"
CLI = Source("cli:test")

CHIEF = 1001  # in BotSettings.arbiters: every tournament, /import, /arbiters add
PLAYER = 2002
STRANGER = 3003
HELPER = 4004  # becomes an arbiter of one tournament with /arbiters add

EVIL = "<script>alert(1)</script>"

_ids = itertools.count(1)


def who(user: int, lang: str | None = "en", chat: int | None = None) -> Who:
    """An update from ``user`` (in their private chat unless ``chat``), with fresh ids."""
    number = next(_ids)
    return Who(user, user if chat is None else chat, lang, message_id=number, update_id=number)


def text_of(replies: Sequence[Reply]) -> str:
    return "\n".join(reply.text for reply in replies)


def buttons(reply: Reply) -> list:
    return [button for row in reply.buttons for button in row]


def visible(text: str) -> str:
    """What Telegram shows of an HTML message (its 4,096-character limit counts this)."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def assert_telegram_html(replies: Sequence[Reply]) -> None:
    """Only the tags the bot uses, every ``&`` an entity, ``<pre>`` balanced, within the limit,
    and every button's callback_data within 64 bytes."""
    for reply in replies:
        text = reply.text
        if reply.document is None:
            assert text, reply
        assert set(re.findall(r"</?([a-z]+)[^>]*>", text)) <= {"b", "pre"}, text
        assert re.fullmatch(r"(?:[^&<>]|&(?:lt|gt|amp|quot);|</?(?:b|pre)>)*", text, re.DOTALL), text
        assert text.count("<pre>") == text.count("</pre>")
        assert len(visible(text).encode("utf-16-le")) // 2 <= MESSAGE_LIMIT
        for button in buttons(reply):
            assert 1 <= len(button.data.encode("utf-8")) <= MAX_CALLBACK_BYTES, button


def game(store: SQLiteStore, slug: str, round_number: int, board: int) -> Game:
    return store.state(slug).games[(round_number, board)]


def kinds(store: SQLiteStore, slug: str) -> list[EventKind]:
    return [entry.event.kind for entry in store.log(slug)]


# -- fixtures ------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    with SQLiteStore(tmp_path / "data" / "bot.sqlite3") as opened:
        yield opened


@pytest.fixture
def service(store: SQLiteStore) -> BotService:
    return BotService(store, BotSettings(arbiters=frozenset({CHIEF})))


def import_round_robin(store: SQLiteStore, slug: str = "xq") -> str:
    """The xiangqi round robin without its games: /pair makes its rounds."""
    store.create(slug, replace(load_tournament(XIANGQI), games=()), CLI)
    return slug


def import_swiss(store: SQLiteStore, slug: str = "swiss", *, unplayed_last_round: bool = True) -> str:
    """The chess Swiss; round 7 paired but without results."""
    tournament = load_tournament(SWISS)
    if unplayed_last_round:
        last = max(g.round for g in tournament.games)
        tournament = replace(tournament, games=tuple(replace(g, result=None) if g.round == last else g
                                                     for g in tournament.games))
    store.create(slug, tournament, CLI)
    return slug


@pytest.fixture
def rr(service: BotService, store: SQLiteStore) -> str:
    """The xiangqi round robin with round 1 paired (Berger: 1-10, 2-9, 3-8, 4-7, 5-6) and no result."""
    slug = import_round_robin(store)
    replies = running.pair(service, who(CHIEF))
    assert replies[0].text.startswith(escape(translator("en").format(M.PAIRED, round=1, boards=5)))
    return slug


def names(store: SQLiteStore, slug: str) -> dict[int, str]:
    return {player.id: player.name for player in store.state(slug).base.players}


def recorded(store: SQLiteStore, slug: str, round_number: int, board: int, result: str, lang: str = "en",
             message: str = M.RESULT_RECORDED, **extra: object) -> str:
    """The confirmation of ``result`` (as stored, e.g. ``1/2-1/2``), which the bot writes in the
    event's own points (``1-1`` under 2/1/0, issue 14.1)."""
    g = game(store, slug, round_number, board)
    name_of = names(store, slug)
    written = in_event_terms(store, slug)
    extra = {key: written(value) if key == "previous" else value for key, value in extra.items()}
    return escape(translator(lang).format(message, round=round_number, board=board, white=name_of[g.white],
                                          black=name_of[g.black], result=written(result), **extra))


def named(store: SQLiteStore, slug: str, *lines: str) -> str:
    """A confirmation of a change: the tournament's name first, bold (issue 20), then ``lines``."""
    return "\n".join([f"<b>{escape(store.state(slug).base.name)}</b>", *lines])


def in_event_terms(store: SQLiteStore, slug: str):
    scoring = default_rules(store.tournament(slug)).scoring
    return lambda value: written_result(Result(value), scoring)


# -- choosing a tournament -------------------------------------------------------------------


def test_start_with_a_deep_link_selects_the_tournament(service: BotService, store: SQLiteStore) -> None:
    import_round_robin(store)
    import_swiss(store)
    stranger = who(STRANGER)
    assert service.selected(stranger) is None  # two tournaments, none chosen
    assert text_of(players.standings(service, stranger)) == escape(translator("en").gettext(M.NO_TOURNAMENT_SELECTED))

    replies = players.start(service, who(STRANGER), "swiss")
    assert_telegram_html(replies)
    text = text_of(replies)
    assert text.startswith("Tournament: <b>Atlantic Open 2026</b>\n")
    assert "/standings" in text
    assert "R3 B5 1-0" not in text  # the arbiters' help is for arbiters
    assert service.selected(who(STRANGER)) == "swiss"
    assert store.user(STRANGER).chat_id == STRANGER

    unknown = players.start(service, who(STRANGER), "no-such-slug")
    assert "Tournament:" not in text_of(unknown)
    assert service.selected(who(STRANGER)) == "swiss"  # unchanged

    chief = text_of(players.start(service, who(CHIEF, "vi"), "xq"))
    assert chief.startswith(translator("vi").format(M.TOURNAMENT_SELECTED,
                                                    name="<b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>"))
    assert escape(translator("vi").gettext(M.HELP_ARBITER)) in chief


def test_tournaments_buttons_and_selecting_by_callback(service: BotService, store: SQLiteStore) -> None:
    assert text_of(players.tournaments(service, who(PLAYER))) == "There are no tournaments yet."
    import_round_robin(store)
    import_swiss(store)
    [menu] = players.tournaments(service, who(PLAYER))
    assert_telegram_html([menu])
    assert menu.text == "Tournaments"
    assert [(b.text, b.data) for b in buttons(menu)] == [
        ("Hanoi–Hangzhou Xiangqi Invitational 2026", encode_callback("sel", store.tournament_key("xq"))),
        ("Atlantic Open 2026", encode_callback("sel", store.tournament_key("swiss"))),
    ]
    [chosen] = press(service, who(PLAYER, "es"), buttons(menu)[1].data)
    assert chosen.edit
    assert chosen.text == translator("es").format(M.TOURNAMENT_SELECTED, name="<b>Atlantic Open 2026</b>")
    assert service.selected(who(PLAYER)) == "swiss"
    [again] = players.tournaments(service, who(PLAYER))
    assert [b.text for b in buttons(again)] == ["Hanoi–Hangzhou Xiangqi Invitational 2026", "✓ Atlantic Open 2026"]
    assert "Atlantic Open 2026" in text_of(players.standings(service, who(PLAYER)))


def test_the_only_tournament_is_selected_without_asking(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store)
    assert service.selected(who(PLAYER)) == "swiss"
    assert "Atlantic Open 2026" in text_of(players.standings(service, who(PLAYER)))


# -- players' commands ---------------------------------------------------------------------


def evil_tournament() -> Tournament:
    entrants = (Player(1, EVIL, 2100), Player(2, "A&B", 2000), Player(3, "Lê <i>Văn</i> &amp; Co", 1900),
               Player(4, "Plain", 1800))
    games = (Game(1, 1, 2, Result.WHITE_WINS, board=1), Game(1, 3, 4, Result.DRAW, board=2),
             Game(2, 2, 1, None, board=1), Game(2, 4, 3, None, board=2))
    return Tournament("Open <b>&</b> Cup", entrants, 3, games, system=System.SWISS)


def test_names_are_escaped_everywhere(service: BotService, store: SQLiteStore) -> None:
    store.create("evil", evil_tournament(), CLI)
    replies = {
        "standings": players.standings(service, who(PLAYER)),
        "round": players.round(service, who(PLAYER), "1"),
        "current round": players.round(service, who(PLAYER)),
        "player by name": players.player(service, who(PLAYER), "a&b"),
        "player by number": players.player(service, who(PLAYER), "3"),
        "players found": players.player(service, who(PLAYER), "<"),
        "iam": players.iam(service, who(PLAYER), "1"),
        "me": players.me(service, who(PLAYER)),
        "result": entering.text(service, who(CHIEF), "R2 B1 0-1\n<b>bold</b> & <i>"),
        "start": players.start(service, who(PLAYER), "evil"),
        "select": press(service, who(PLAYER), encode(Action.SELECT, store.tournament_key("evil"))),
        "enter": entering.enter(service, who(CHIEF)),
    }
    for what, answer in replies.items():
        assert_telegram_html(answer)
        text = text_of(answer)
        assert "<script>" not in text and "<i>" not in text, what
    assert "&lt;script&gt;" in text_of(replies["standings"])
    assert "A&amp;B" in text_of(replies["standings"])
    assert "<b>3. Lê &lt;i&gt;Văn&lt;/i&gt; &amp;amp; Co: place" in text_of(replies["player by number"])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;: place 1" in text_of(replies["me"])
    assert "Open &lt;b&gt;&amp;&lt;/b&gt; Cup" in text_of(replies["standings"])
    assert text_of(replies["iam"]) == f"You are player 1 of Open &lt;b&gt;&amp;&lt;/b&gt; Cup: {escape(EVIL)}"
    assert "A&amp;B – &lt;script&gt;alert(1)&lt;/script&gt; 0-1 recorded" in text_of(replies["result"])
    assert "“&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;”" in text_of(replies["result"])
    assert visible(text_of(replies["standings"])).count(shorten(EVIL, 18)) == 1
    # Button labels are plain text, not HTML: they keep the name as it is.
    assert any("<i>" in button.text for button in buttons(replies["enter"][0]))


def standing_rows(text: str) -> list[str]:
    """The rows of the ``<pre>`` tables of a reply, header lines left out."""
    rows = []
    for table in re.findall(r"<pre>(.*?)</pre>", text, re.DOTALL):
        rows += table.split("\n")[1:]
    return rows


def test_standings_top_n(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store, unplayed_last_round=False)
    standings = compute_standings(store.tournament("swiss"))
    default = text_of(players.standings(service, who(PLAYER)))
    assert default.startswith("<b>Atlantic Open 2026</b>\nStandings after round 7\nTop 20 of 24\n<pre>")
    assert len(standing_rows(default)) == 20
    top5 = text_of(players.standings(service, who(PLAYER), "5"))
    assert "Top 5 of 24" in top5
    rows = standing_rows(top5)
    assert len(rows) == 5
    for row, expected in zip(rows, standings.rows[:5], strict=True):
        assert row.split()[0] == str(expected.rank)
        assert shorten(expected.player.name, 18) in html.unescape(row)
    everyone = text_of(players.standings(service, who(PLAYER), "100"))
    assert "Top" not in everyone
    assert len(standing_rows(everyone)) == 24
    spanish = text_of(players.standings(service, who(PLAYER, "es-ES"), "3"))
    assert "Clasificación tras la ronda 7" in spanish


def test_round_n(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store)
    tournament = store.tournament("swiss")
    name_of = names(store, "swiss")
    third = text_of(players.round(service, who(PLAYER), "3"))
    assert third.startswith("<b>Atlantic Open 2026</b>\nRound 3\n<pre>")
    rows = standing_rows(third)
    games = sorted((g for g in tournament.games if g.round == 3), key=lambda g: g.board)
    assert len(rows) == len(games)
    for row, g in zip(rows, games, strict=True):
        shown = html.unescape(row)
        assert row.split()[0] == str(g.board)
        white, black = shorten(name_of[g.white], 16), shorten(name_of[g.black], 16)
        result = {"1/2-1/2": "½-½"}.get(g.result.value, g.result.value)
        assert re.search(rf"{re.escape(white)}\s+{re.escape(result)}\s+{re.escape(black)}$", shown), row
    for bye in (b for b in tournament.byes if b.round == 3):
        assert f"Bye: {escape(name_of[bye.player])} (half-point bye)" in third
    current = text_of(players.round(service, who(PLAYER)))
    assert "Round 7" in current
    assert current.count("…") >= 11  # no results yet
    assert text_of(players.round(service, who(PLAYER), "9")) == "Round 9: the tournament has 7 rounds."
    assert "第3轮" in text_of(players.round(service, who(PLAYER, "zh-hans"), "3"))


def test_player_by_name_and_number(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store, unplayed_last_round=False)
    standings = compute_standings(store.tournament("swiss"))
    zhang = next(row for row in standings.rows if row.player.id == 1)
    by_name = text_of(players.player(service, who(PLAYER), "zhang"))
    assert by_name.startswith(f"<b>1. Zhang, Wei: place {zhang.rank}, points 6</b>\n<pre>")
    assert len(standing_rows(by_name)) == 7
    assert by_name == text_of(players.player(service, who(PLAYER), "1"))
    # Lindqvist had a half-point bye in round 6: a row without an opponent.
    lindqvist = text_of(players.player(service, who(PLAYER), "5"))
    assert "Lindqvist, Erik" in lindqvist
    assert re.search(r"\n 6\s+half-point bye\s+½", lindqvist)
    several = text_of(players.player(service, who(PLAYER), "AR"))
    matching = [p for p in store.tournament("swiss").players if "ar" in p.name.casefold()]
    assert len(matching) > 3
    assert several.split("\n") == ["Players matching “AR”:", *(f"{p.id}. {p.name}" for p in matching)]
    assert text_of(players.player(service, who(PLAYER), "Kasparov")) == "No player matches “Kasparov”"
    assert text_of(players.player(service, who(PLAYER), "99")) == "No player matches “99”"
    assert text_of(players.player(service, who(PLAYER), " ")) == "Write a name or a starting number, e.g. /player 12"
    vi = translator("vi")
    vietnamese = text_of(players.player(service, who(PLAYER, "vi"), "1"))
    assert vietnamese.startswith("<b>" + escape(vi.format(M.PLAYER_LINE, name="Zhang, Wei", number=1,
                                                           points=vi.format_number(zhang.points), rank=zhang.rank)))


def test_iam_and_me(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store)
    assert text_of(players.me(service, who(PLAYER))) == escape(translator("en").format(
        M.WHO_ARE_YOU, tournament="Atlantic Open 2026"))
    assert text_of(players.iam(service, who(PLAYER), "")) == "Write your starting number or your name, e.g. /iam 12"
    assert text_of(players.iam(service, who(PLAYER), "99")) == (
        "Refused: player 99 is not in the tournament (starting numbers 1-24)")
    assert text_of(players.iam(service, who(PLAYER), "3")) == (
        "You are player 3 of Atlantic Open 2026: Silva, João Pedro")
    assert (store.user(PLAYER).chat_id, store.identity(PLAYER, "swiss").player_id) == (PLAYER, 3)
    me = players.me(service, who(PLAYER))
    assert_telegram_html(me)
    assert text_of(me) == text_of(players.player(service, who(PLAYER), "3"))
    assert "Silva, João Pedro" in text_of(me)


def test_subscribers_get_their_pairing(service: BotService, store: SQLiteStore) -> None:
    slug = import_round_robin(store)
    name = store.state(slug).base.name
    assert text_of(players.subscribe(service, who(PLAYER))) == (
        escape(translator("en").format(M.SUBSCRIBE_NEEDS_PLAYER, tournament=name)))
    players.iam(service, who(PLAYER), "9")
    players.language(service, who(PLAYER), "zh")
    assert text_of(players.subscribe(service, who(PLAYER))) == translator("zh").format(M.SUBSCRIBED, tournament=name)
    assert store.identity(PLAYER, slug).subscribed
    players.iam(service, who(STRANGER), "1")  # not subscribed: no message

    replies = running.pair(service, who(CHIEF))
    assert_telegram_html(replies)
    to_player = [reply for reply in replies if reply.chat_id == PLAYER]
    assert [reply for reply in replies if reply.chat_id not in (None, PLAYER)] == []
    assert len(to_player) == 1
    name_of = names(store, slug)
    assert to_player[0].text == f"<b>{escape(name)}</b>\n" + escape(translator("zh").format(
        M.YOUR_PAIRING, round=1, board=2, white=name_of[2], black=name_of[9]))

    assert text_of(players.subscribe(service, who(PLAYER), False)) == translator("zh").format(
        M.UNSUBSCRIBED, tournament=name)
    assert [reply for reply in running.pair(service, who(CHIEF)) if reply.chat_id is not None] == []


def test_language_by_argument_and_by_callback(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store)
    assert text_of(players.language(service, who(PLAYER), "es")) == "Idioma cambiado a Español"
    assert "Clasificación tras la ronda 6" in text_of(players.standings(service, who(PLAYER, "en")))
    assert text_of(players.language(service, who(PLAYER), "tieng viet")) == "Đã chuyển ngôn ngữ sang Tiếng Việt"
    assert text_of(players.language(service, who(PLAYER), "klingon")) == escape(
        translator("vi").format(M.UNKNOWN_LANGUAGE, language="klingon"))

    [menu] = players.language(service, who(PLAYER))
    assert_telegram_html([menu])
    assert [(b.text, b.data) for b in buttons(menu)] == [
        ("English", "lang|en"), ("简体中文", "lang|zh"), ("Tiếng Việt", "lang|vi"), ("Español", "lang|es")]
    [chosen] = press(service, who(PLAYER), "lang|zh")
    assert chosen.edit and chosen.text == "语言已设为简体中文"
    assert "第6轮后排名" in text_of(players.standings(service, who(PLAYER, "en")))
    assert store.user(PLAYER).language == "zh"
    assert text_of(press(service, who(PLAYER), "lang|xx")) == translator("zh").gettext(M.NOT_UNDERSTOOD)
    assert text_of(press(service, who(PLAYER), "")) == translator("zh").gettext(M.NOT_UNDERSTOOD)


# -- arbiters: results by text ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "line", "board", "result"),
    [
        ("en", "R1 B2 1-0", 2, "1-0"),
        ("zh", "第1轮第2台 红胜", 2, "1-0"),
        ("vi", "ván 1 bàn 2 đỏ thắng", 2, "1-0"),
        ("es", "ronda 1 tablero 2 blancas ganan", 2, "1-0"),
        ("en", "B3 black wins", 3, "0-1"),
        ("zh", "第4台 和棋", 4, "1/2-1/2"),
        ("vi", "bàn 5 đen thắng", 5, "0-1"),
        ("es", "R1 T1 tablas", 1, "1/2-1/2"),
    ],
)
def test_arbiter_enters_a_result_in_every_language(service: BotService, store: SQLiteStore, rr: str, lang: str,
                                                    line: str, board: int, result: str) -> None:
    before = len(store.log(rr))
    arbiter = who(CHIEF, lang)
    replies = entering.text(service, arbiter, line)
    assert_telegram_html(replies)
    assert [reply.text for reply in replies] == [named(store, rr, recorded(store, rr, 1, board, result, lang))]
    assert game(store, rr, 1, board).result == Result(result)
    [entry] = store.log(rr)[before:]
    assert entry.event.kind is EventKind.RESULT
    assert dict(entry.event.data) == {"round": 1, "board": board, "result": result}
    assert (entry.actor, entry.chat_id, entry.message_id) == (f"tg:{CHIEF}", arbiter.chat_id, arbiter.message_id)


def test_several_results_in_one_message(service: BotService, store: SQLiteStore, rr: str) -> None:
    replies = entering.text(service, who(CHIEF),
                            "R1 B1 1-0\n第1轮第2台 黑胜; ván 1 bàn 3 hòa\n# a remark\nronda 1 tablero 4 -+")
    assert_telegram_html(replies)
    assert replies[0].text.split("\n")[1:] == [recorded(store, rr, 1, 1, "1-0"), recorded(store, rr, 1, 2, "0-1"),
                                               recorded(store, rr, 1, 3, "1/2-1/2"), recorded(store, rr, 1, 4, "-+")]
    assert kinds(store, rr)[-4:] == [EventKind.RESULT] * 3 + [EventKind.FORFEIT]


def test_a_foul_line(service: BotService, store: SQLiteStore, rr: str) -> None:
    message = "R1 B1 0-1 foul black 2\n第1轮第3台 红胜 黑犯规\nronda 1 tablero 4 1-0 falta blancas"
    replies = entering.text(service, who(CHIEF), message)
    assert_telegram_html(replies)
    name_of = names(store, rr)
    tr = translator("en")
    lines = replies[0].text.split("\n")[1:]  # after the tournament's name
    assert lines[:2] == [recorded(store, rr, 1, 1, "0-1"),
                         escape(tr.nformat(*M.FOULS_RECORDED, 2, round=1, board=1, count=2, player=name_of[10]))]
    assert lines[3] == escape(tr.nformat(*M.FOULS_RECORDED, 1, round=1, board=3, count=1, player=name_of[8]))
    assert lines[5] == escape(tr.nformat(*M.FOULS_RECORDED, 1, round=1, board=4, count=1, player=name_of[4]))
    assert (game(store, rr, 1, 1).fouls_white, game(store, rr, 1, 1).fouls_black) == (0, 2)
    assert (game(store, rr, 1, 3).fouls_white, game(store, rr, 1, 3).fouls_black) == (0, 1)
    assert (game(store, rr, 1, 4).fouls_white, game(store, rr, 1, 4).fouls_black) == (1, 0)
    fouls = [entry.event.data for entry in store.log(rr) if entry.event.kind is EventKind.FOUL]
    assert [dict(data) for data in fouls] == [{"round": 1, "board": 1, "side": "black", "count": 2},
                                              {"round": 1, "board": 3, "side": "black", "count": 1},
                                              {"round": 1, "board": 4, "side": "white", "count": 1}]
    standings = compute_standings(store.tournament(rr))
    assert {row.player.id: row.values["FOUL"] for row in standings.rows}[10] == 2


@pytest.mark.parametrize("lang", ["en", "zh", "vi", "es"])
def test_problems_are_listed_with_localised_reasons(service: BotService, store: SQLiteStore, rr: str,
                                                    lang: str) -> None:
    message = "R1 B1 1-0\nhello\nR1 B9 1-0\nR2 B1 1-0\nR1 B1 1-0\nR1 B3 2-1\nR1 B4 foul purple 1-0\n1-0"
    arbiter = who(CHIEF, lang)
    replies = entering.text(service, arbiter, message)
    assert_telegram_html(replies)
    tr = translator(lang)
    parsed = parse_message(message, 1)
    expected = [format_problem(problem, tr) for problem in parsed.problems]
    expected += [tr.format(M.PROBLEM_LINE, line=3, text="R1 B9 1-0", reason=tr.format(M.NO_SUCH_BOARD, round=1,
                                                                                       board=9)),
                 tr.format(M.PROBLEM_LINE, line=4, text="R2 B1 1-0", reason=tr.format(M.ROUND_NOT_PAIRED, round=2))]
    assert len(expected) == 7
    lines = text_of(replies).split("\n")
    assert lines[:2] == named(store, rr, recorded(store, rr, 1, 1, "1-0", lang)).split("\n")
    assert lines[2] == escape(tr.gettext(M.PROBLEMS_HEADER))
    assert sorted(lines[3:]) == sorted(escape(line) for line in expected)
    if lang != "en":
        assert "not a result" not in text_of(replies)
    assert game(store, rr, 1, 1).result is Result.WHITE_WINS
    assert game(store, rr, 1, 3).result is None and game(store, rr, 1, 4).result is None
    [row] = store.submissions()
    assert (row["accepted"], row["rejected"], row["text"]) == (1, 7, message)
    assert "R1 B9 1-0" in row["detail"]


def test_replace_question_yes_corrects(service: BotService, store: SQLiteStore, rr: str) -> None:
    entering.text(service, who(CHIEF), "R1 B2 1-0")
    assert text_of(entering.text(service, who(CHIEF), "R1 B2 1-0")) == named(store, rr, recorded(
        store, rr, 1, 2, "1-0", message=M.RESULT_ALREADY_RECORDED))
    before = len(store.log(rr))
    [question] = entering.text(service, who(CHIEF, "es"), "R1 B2 0-1")
    assert_telegram_html([question])
    assert question.text.endswith("\n" + escape(translator("es").format(M.CONFIRM_REPLACE, old="2-0", new="0-2")))
    key = store.tournament_key(rr)
    assert [(b.text, b.data) for b in buttons(question)] == [("Sí", f"fix|{key}|1|2|0-1|1-0"),
                                                             ("No", f"keep|{key}|1|2")]
    assert len(store.log(rr)) == before  # nothing changes before the answer
    assert game(store, rr, 1, 2).result is Result.WHITE_WINS

    assert text_of(press(service, who(STRANGER), buttons(question)[0].data)) == "Only arbiters can enter results."
    assert game(store, rr, 1, 2).result is Result.WHITE_WINS

    [fixed] = press(service, who(CHIEF), buttons(question)[0].data)
    assert fixed.edit
    assert fixed.text == named(store, rr, recorded(store, rr, 1, 2, "0-1", message=M.RESULT_CORRECTED,
                                                   previous="1-0"))
    assert game(store, rr, 1, 2).result is Result.BLACK_WINS
    last = store.log(rr)[-1]
    assert (last.event.kind, dict(last.event.data)) == (
        EventKind.CORRECTION, {"round": 1, "board": 2, "result": "0-1", "previous": "1-0"})


def test_replace_question_no_keeps(service: BotService, store: SQLiteStore, rr: str) -> None:
    entering.text(service, who(CHIEF), "R1 B2 1-0")
    [question] = entering.text(service, who(CHIEF), "R1 B2 ½-½")
    before = len(store.log(rr))
    [kept] = press(service, who(CHIEF, "zh"), buttons(question)[1].data)
    assert kept.edit and kept.text == escape(translator("zh").format(M.KEPT, result="2-0"))  # 2/1/0 points
    assert len(store.log(rr)) == before
    assert game(store, rr, 1, 2).result is Result.WHITE_WINS


def test_undo_a_result_and_a_correction(service: BotService, store: SQLiteStore, rr: str) -> None:
    assert text_of(running.undo(service, who(STRANGER))) == "Only arbiters can enter results."
    arbiters.arbiters(service, who(CHIEF), f"add {HELPER}")
    entering.text(service, who(CHIEF), "R1 B2 1-0")
    entering.text(service, who(CHIEF), "R1 B3 0-1")
    [question] = entering.text(service, who(CHIEF), "R1 B2 1/2")
    press(service, who(CHIEF), buttons(question)[0].data)
    assert game(store, rr, 1, 2).result is Result.DRAW

    assert text_of(running.undo(service, who(HELPER))) == "Nothing to undo."  # only your own entries

    assert text_of(running.undo(service, who(CHIEF))) == named(
        store, rr, "Undone: round 1, board 2 1-1. The board now has 2-0.")
    assert game(store, rr, 1, 2).result is Result.WHITE_WINS
    assert text_of(running.undo(service, who(CHIEF))) == named(
        store, rr, "Undone: round 1, board 3 0-2. The board now has no result.")
    assert game(store, rr, 1, 3).result is None
    assert text_of(running.undo(service, who(CHIEF))) == named(
        store, rr, "Undone: round 1, board 2 2-0. The board now has no result.")
    assert game(store, rr, 1, 2).result is None
    log = store.log(rr)
    assert [entry.event.kind for entry in log[-3:]] == [EventKind.CORRECTION, EventKind.ANNULMENT,
                                                        EventKind.ANNULMENT]
    assert all("undo" in entry.event.data for entry in log[-3:])
    assert text_of(running.undo(service, who(CHIEF))) == named(  # the chief's changes before: an arbiter,
        store, rr, f"Undone: the change of arbiter {HELPER}.")
    assert text_of(running.undo(service, who(CHIEF))) == named(  # and the pairing
        store, rr, "Undone: the pairing of round 1. Round 1 is not paired now.")
    assert text_of(running.undo(service, who(CHIEF))) == "Nothing to undo."
    assert text_of(running.undo(service, who(STRANGER))) == "Only arbiters can enter results."


def test_undo_takes_back_the_foul_of_the_entry_too(service: BotService, store: SQLiteStore, rr: str) -> None:
    """README: "/undo takes back your last entry"; the foul written on the same line is part of it."""
    entering.text(service, who(CHIEF), "R1 B1 0-1 foul black 2")
    assert game(store, rr, 1, 1).fouls_black == 2
    assert text_of(running.undo(service, who(CHIEF))) == named(
        store, rr, "Undone: round 1, board 1 0-2. The board now has no result.")
    assert game(store, rr, 1, 1).result is None
    assert game(store, rr, 1, 1).fouls_black == 0  # fails: the FOUL event stays in force


def test_a_redelivered_update_is_applied_once(service: BotService, store: SQLiteStore, rr: str) -> None:
    update = who(CHIEF)
    assert entering.text(service, update, "R1 B2 1-0\nR1 B3 0-1 foul black")
    before = store.log(rr)
    assert entering.text(service, update, "R1 B2 1-0\nR1 B3 0-1 foul black") == []  # Telegram delivered it twice
    assert store.log(rr) == before
    assert game(store, rr, 1, 3).fouls_black == 1
    assert len(store.submissions()) == 1
    key = store.tournament_key(rr)
    tap = who(CHIEF)
    assert press(service, tap, f"ec|{key}|1|4|1-0")
    assert press(service, tap, f"ec|{key}|1|4|1-0") == []
    assert kinds(store, rr).count(EventKind.RESULT) == 3


@pytest.mark.parametrize("message", ["R1 B9 1-0", "R1 B2 0-1"], ids=["only-problems", "replace-question"])
def test_a_redelivered_update_that_stored_nothing_is_answered_once(service: BotService, store: SQLiteStore, rr: str,
                                                                    message: str) -> None:
    """docs/architecture.md#storage: "a Telegram update delivered twice is applied once".  The store's dedupe key
    rides on the first event appended, so an update that appended none is handled afresh."""
    entering.text(service, who(CHIEF), "R1 B2 1-0")
    update = who(CHIEF)
    first = answers.answer_once(service, update, entering.text, message)
    assert first.replies and first.update_id == update.update_id  # saved with the update
    assert answers.answer_once(service, update, entering.text, message) == first  # the saved answer, repeated
    # killed before the answer was saved: nothing was stored, so it is answered afresh, recorded once
    assert entering.text(service, update, message) == first.replies
    assert [row["update_id"] for row in store.submissions()].count(update.update_id) == 1


# -- arbiters: results by taps ---------------------------------------------------------------


def test_enter_board_result_confirm_by_taps(service: BotService, store: SQLiteStore, rr: str) -> None:
    key = store.tournament_key(rr)
    name_of = names(store, rr)
    [menu] = entering.enter(service, who(CHIEF))
    assert_telegram_html([menu])
    assert menu.text == "Round 1\nChoose a board"
    assert [b.data for b in buttons(menu)] == [f"eb|{key}|1|{board}" for board in range(1, 6)]
    assert buttons(menu)[2].text == f"3: {name_of[3]} – {name_of[8]}"

    [results] = press(service, who(CHIEF), buttons(menu)[2].data)
    assert_telegram_html([results])
    assert results.edit
    assert results.text == escape(f"Round 1, board 3: {name_of[3]} – {name_of[8]}") + "\nChoose the result"
    assert [[(b.text, b.data) for b in row] for row in results.buttons] == [
        [("Red wins 2-0", f"er|{key}|1|3|1-0"), ("Draw 1-1", f"er|{key}|1|3|1/2-1/2"),
         ("Black wins 0-2", f"er|{key}|1|3|0-1")],
        [("+-", f"er|{key}|1|3|+-"), ("--", f"er|{key}|1|3|--"), ("-+", f"er|{key}|1|3|-+")],
        [("Back", f"menu|{key}")],
    ]
    [back] = press(service, who(CHIEF), f"menu|{key}")
    assert back.edit and [b.data for b in buttons(back)] == [b.data for b in buttons(menu)]

    [confirm] = press(service, who(CHIEF), buttons(results)[1].data)
    assert_telegram_html([confirm])
    assert confirm.edit
    assert confirm.text == escape(f"Record round 1, board 3: {name_of[3]} – {name_of[8]} 1-1?")
    assert [(b.text, b.data) for b in buttons(confirm)] == [("Confirm", f"ec|{key}|1|3|1/2-1/2"),
                                                            ("Back", f"eb|{key}|1|3")]
    assert game(store, rr, 1, 3).result is None  # not before the confirmation

    tapper = who(CHIEF)
    done, next_menu = press(service, tapper, buttons(confirm)[0].data)
    assert_telegram_html([done, next_menu])
    assert done.edit and done.text == named(store, rr, recorded(store, rr, 1, 3, "1/2-1/2"))
    assert not next_menu.edit
    assert [b.data for b in buttons(next_menu)] == [f"eb|{key}|1|{board}" for board in (1, 2, 4, 5)]
    assert game(store, rr, 1, 3).result is Result.DRAW
    last = store.log(rr)[-1]
    assert (last.event.kind, last.actor, last.chat_id, last.message_id) == (
        EventKind.RESULT, f"tg:{CHIEF}", tapper.chat_id, tapper.message_id)

    # A confirmation tapped again (or late) changes nothing and does not ask.
    [again, _menu] = press(service, who(CHIEF), buttons(confirm)[0].data)
    assert again.text == named(store, rr, recorded(store, rr, 1, 3, "1/2-1/2", message=M.RESULT_ALREADY_RECORDED))
    # A different result tapped for a board that has one asks first.
    [question] = press(service, who(CHIEF), f"ec|{key}|1|3|1-0")  # in place of the confirmation
    assert question.edit
    assert [b.data for b in buttons(question)] == [f"fix|{key}|1|3|1-0|1/2-1/2", f"keep|{key}|1|3"]
    assert game(store, rr, 1, 3).result is Result.DRAW
    # Stale or forged buttons.
    assert text_of(press(service, who(CHIEF), f"eb|{key}|1|9")) == "Round 1 has no board 9"
    assert text_of(press(service, who(CHIEF), f"ec|{key}|1|2|7-7")) == "Sorry, I did not understand that."
    assert text_of(press(service, who(STRANGER), f"ec|{key}|1|2|1-0")) == "Only arbiters can enter results."
    assert game(store, rr, 1, 2).result is None


def test_callback_data_fit_in_64_bytes_at_the_limits() -> None:
    for action in ("eb", "er", "ec", "fix", "keep", "menu", "sel", "lang"):
        data = encode_callback(action, 2**31, 999, 9999, "1/2-1/2")
        assert len(data.encode("utf-8")) <= MAX_CALLBACK_BYTES


def test_results_entered_by_taps_are_recorded_as_submissions(service: BotService, store: SQLiteStore,
                                                             rr: str) -> None:
    """docs/architecture.md#storage: every accepted or rejected submission is recorded with its Telegram
    user, chat and message; a result confirmed by a tap is a submission like a text line."""
    key = store.tournament_key(rr)
    press(service, who(CHIEF), f"ec|{key}|1|3|1-0")
    press(service, who(STRANGER, chat=-100777), f"ec|{key}|1|4|1-0")  # a group member taps the button
    rows = store.submissions()
    assert [(row["user_id"], row["accepted"], row["rejected"]) for row in rows] == [(CHIEF, 1, 0),
                                                                                    (STRANGER, 0, 1)]


# -- round completion ------------------------------------------------------------------------


def test_round_completion_shows_standings_and_posts_to_the_channel(store: SQLiteStore) -> None:
    finished: list[tuple[str, int]] = []
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF}), channel="@tiebreak_results",
                                            language="es"),
                         on_round_complete=lambda slug, number: finished.append((slug, number)))
    slug = import_round_robin(store)
    running.pair(service, who(CHIEF))
    first = entering.text(service, who(CHIEF, "en"), "R1 B1 1-0\nR1 B2 0-1\nR1 B3 =\nR1 B4 1-0")
    assert len(first) == 1 and finished == []
    last = entering.text(service, who(CHIEF, "en"), "R1 B5 0-1")
    assert_telegram_html(last)
    assert finished == [(slug, 1)]
    mine = [reply for reply in last if reply.chat_id is None]
    channel = [reply for reply in last if reply.chat_id == "@tiebreak_results"]
    assert len(mine) + len(channel) == len(last)
    text = text_of(mine)
    assert text.startswith(named(store, slug, recorded(store, slug, 1, 5, "0-1")) + "\n")
    assert "Round 1 is complete.\n<b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>\nStandings after round 1" in text
    assert "<pre>" in text
    assert len(standing_rows(text)) == 10
    posted = text_of(channel)
    assert posted.startswith(escape(translator("es").format(M.ROUND_COMPLETE, round=1)))
    assert "Clasificación tras la ronda 1" in posted
    # A correction in a finished round does not announce it again.
    [question] = entering.text(service, who(CHIEF), "R1 B5 1-0")
    assert len(press(service, who(CHIEF), buttons(question)[0].data)) == 1
    assert finished == [(slug, 1)]


def test_round_completion_by_taps(store: SQLiteStore) -> None:
    service = BotService(store, BotSettings(arbiters=frozenset({CHIEF}), channel=-1001234567890))
    slug = import_round_robin(store)
    running.pair(service, who(CHIEF))
    entering.text(service, who(CHIEF), "R1 B1 1-0\nR1 B2 0-1\nR1 B3 =\nR1 B4 1-0")
    key = store.tournament_key(slug)
    replies = press(service, who(CHIEF, "vi"), f"ec|{key}|1|5|1-0")
    assert_telegram_html(replies)
    assert replies[0].edit
    assert replies[1].text == escape(translator("vi").format(M.ROUND_FINISHED_ALREADY, round=1))
    texts = [reply.text for reply in replies]
    assert any(text.startswith(escape(translator("vi").format(M.ROUND_COMPLETE, round=1))) for text in texts)
    assert [reply.chat_id for reply in replies if reply.chat_id is not None][:1] == [-1001234567890]


# -- who may enter results -------------------------------------------------------------------


def test_a_non_arbiter_is_refused_and_nothing_is_stored(service: BotService, store: SQLiteStore, rr: str) -> None:
    before = store.log(rr)
    stranger = who(STRANGER, "zh", chat=-100200300)
    replies = entering.text(service, stranger, "R1 B2 1-0")
    assert [reply.text for reply in replies] == [translator("zh").gettext(M.ARBITERS_ONLY)]
    assert store.log(rr) == before
    assert game(store, rr, 1, 2).result is None
    [row] = store.submissions()
    assert {key: row[key] for key in ("user_id", "chat_id", "message_id", "update_id", "tournament", "text",
                                      "accepted", "rejected", "detail")} == {
        "user_id": STRANGER, "chat_id": -100200300, "message_id": stranger.message_id,
        "update_id": stranger.update_id, "tournament": rr, "text": "R1 B2 1-0", "accepted": 0, "rejected": 1,
        "detail": "not an arbiter"}
    # Nor can they tap, pair, undo, withdraw, import or name arbiters.
    key = store.tournament_key(rr)
    refused = translator("en").gettext(M.ARBITERS_ONLY)
    assert text_of(entering.enter(service, who(STRANGER))) == refused
    assert text_of(press(service, who(STRANGER), f"eb|{key}|1|2")) == refused
    assert text_of(press(service, who(STRANGER), f"ec|{key}|1|2|1-0")) == refused
    assert text_of(running.pair(service, who(STRANGER))) == refused
    assert text_of(running.undo(service, who(STRANGER))) == refused
    assert text_of(running.withdraw(service, who(STRANGER), "3")) == refused
    assert text_of(pairings.pair_from_file(service, who(STRANGER), "p.txt", b"1\n1 2\n")) == refused
    chief_only = escape(translator("en").gettext(M.CHIEF_ONLY))
    assert text_of(tournament_files.import_file(service, who(STRANGER), "x.toml", XIANGQI.read_bytes())) == chief_only
    assert text_of(arbiters.arbiters(service, who(STRANGER), f"add {STRANGER}")) == refused
    assert text_of(arbiters.arbiters(service, who(STRANGER), "")) == refused  # the arbiters' Telegram ids
    assert text_of(tournament_files.export(service, who(STRANGER))) == refused
    assert store.log(rr) == before
    assert store.slugs() == [rr]


def test_every_submission_is_recorded(service: BotService, store: SQLiteStore) -> None:
    nothing = who(CHIEF)
    assert text_of(entering.text(service, nothing, "R1 B2 1-0")) == "No tournament selected: use /tournaments"
    slug = import_round_robin(store)
    running.pair(service, who(CHIEF))
    accepted = who(CHIEF, chat=-100999)
    entering.text(service, accepted, "R1 B1 1-0\nR1 B2 0-1\nR1 B7 1-0")
    refused = who(STRANGER)
    entering.text(service, refused, "R1 B3 1-0")
    rows = store.submissions()
    summary = [(row["user_id"], row["chat_id"], row["message_id"], row["update_id"], row["tournament"],
                row["accepted"], row["rejected"]) for row in rows]
    assert summary == [
        (CHIEF, CHIEF, nothing.message_id, nothing.update_id, None, 0, 1),
        (CHIEF, -100999, accepted.message_id, accepted.update_id, slug, 2, 1),
        (STRANGER, STRANGER, refused.message_id, refused.update_id, slug, 0, 1),
    ]
    assert rows[0]["detail"] == "no tournament"
    assert "Round 1 has no board 7" in rows[1]["detail"]
    assert all(row["at"] for row in rows)


def test_arbiters_add_lets_another_user_enter_results(service: BotService, store: SQLiteStore, rr: str) -> None:
    assert text_of(entering.text(service, who(HELPER), "R1 B2 1-0")) == "Only arbiters can enter results."
    assert text_of(arbiters.arbiters(service, who(HELPER), "")) == "Only arbiters can enter results."
    assert text_of(arbiters.arbiters(service, who(CHIEF), "")) == f"Arbiters of {rr}: {CHIEF}"
    assert text_of(arbiters.arbiters(service, who(CHIEF), "add")) == escape(translator("en").gettext(M.ARBITERS_USAGE))
    assert text_of(arbiters.arbiters(service, who(CHIEF), f"add {HELPER}")) == named(
        store, rr, f"User {HELPER} is now an arbiter of {rr}")
    assert store.state(rr).arbiters == {HELPER}
    assert text_of(arbiters.arbiters(service, who(HELPER), "")) == f"Arbiters of {rr}: {CHIEF}, {HELPER}"
    assert text_of(arbiters.arbiters(service, who(PLAYER), "")) == "Only arbiters can enter results."
    assert text_of(entering.text(service, who(HELPER), "R1 B2 1-0")) == named(store, rr, recorded(store, rr, 1, 2,
                                                                                                   "1-0"))
    assert store.log(rr)[-1].actor == f"tg:{HELPER}"
    # A tournament arbiter is not a chief arbiter: no /arbiters add, no /import.
    assert text_of(arbiters.arbiters(service, who(HELPER), f"add {PLAYER}")) == (
        escape(translator("en").gettext(M.CHIEF_ONLY)))
    assert text_of(arbiters.arbiters(service, who(CHIEF), f"remove {HELPER}")) == named(
        store, rr, f"User {HELPER} is no longer an arbiter of {rr}")
    assert text_of(entering.text(service, who(HELPER), "R1 B3 1-0")) == "Only arbiters can enter results."
    assert game(store, rr, 1, 3).result is None


# -- other arbiters' commands ----------------------------------------------------------------


def test_withdraw(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    assert text_of(running.withdraw(service, who(CHIEF), "")) == escape(translator("en").gettext(M.WITHDRAW_USAGE))
    assert text_of(running.withdraw(service, who(CHIEF), "24")) == named(
        store, slug, "Player 24, Sato, Haruto, withdrawn after round 6")
    assert text_of(running.withdraw(service, who(CHIEF), "23 3")) == (  # played round 4: cannot have left
        "Refused: player 23 has a result in round 4 (0-1): they withdrew after round 4 or later")
    assert text_of(running.withdraw(service, who(CHIEF), "23 6")) == named(
        store, slug, "Player 23, Mensah, Kwame, withdrawn after round 6")
    withdrawals = store.state(slug).withdrawals
    assert {player: w.after_round for player, w in withdrawals.items()} == {24: 6, 23: 6}
    assert text_of(running.withdraw(service, who(CHIEF), "24")) == "Refused: player 24 already withdrew after round 6"
    assert text_of(running.withdraw(service, who(CHIEF), "99")).startswith(
        "Refused: player 99 is not in the tournament")
    assert kinds(store, slug).count(EventKind.WITHDRAWAL) == 2


def test_pair_a_round_robin(service: BotService, store: SQLiteStore, rr: str) -> None:
    """Round 1 has no results yet: /pair asks first (issue 11.10), and pairs on Yes."""
    [question] = running.pair(service, who(CHIEF))
    assert question.text == "Boards without a result: R1 B1, R1 B2, R1 B3, R1 B4, R1 B5. Pair round 2 anyway?"
    assert kinds(store, rr).count(EventKind.ROUND_PAIRED) == 1
    replies = press(service, who(CHIEF), buttons(question)[0].data)
    assert_telegram_html(replies)
    text = text_of(replies)
    assert text.startswith("Round 2 paired; boards: 5\n<b>Hanoi–Hangzhou Xiangqi Invitational 2026</b>\nRound 2\n")
    assert "Red" in text and "红" not in text  # English words in English
    state = store.state(rr)
    assert sorted(state.paired_rounds()) == [1, 2]
    assert sorted((b, g.white, g.black) for (r, b), g in state.games.items() if r == 2) == [
        (1, 10, 6), (2, 7, 5), (3, 8, 4), (4, 9, 3), (5, 1, 2)]
    assert kinds(store, rr).count(EventKind.ROUND_PAIRED) == 2


def test_pair_is_refused_when_every_round_is_paired(service: BotService, store: SQLiteStore) -> None:
    import_swiss(store)
    assert text_of(running.pair(service, who(CHIEF))) == "Every round is already paired."
    store.create("full", load_tournament(XIANGQI), CLI)
    players.start(service, who(CHIEF), "full")
    assert text_of(running.pair(service, who(CHIEF))) == "Every round is already paired."


def test_pair_a_swiss_round_from_a_javafo_pairs_list(service: BotService, store: SQLiteStore) -> None:
    original = load_tournament(SWISS)
    last = max(g.round for g in original.games)
    played = replace(original, games=tuple(g for g in original.games if g.round < last),
                     byes=tuple(b for b in original.byes if b.round < last))
    store.create("swiss", played, CLI)
    games = [g for g in original.games if g.round == last]
    pab = [b.player for b in original.byes if b.round == last and b.kind is ByeKind.PAIRING]
    pairs = f"{len(games) + len(pab)}\n" + "".join(f"{g.white} {g.black}\n" for g in games)
    pairs += "".join(f"{player} 0\n" for player in pab)

    assert text_of(pairings.pair_from_file(service, who(CHIEF), "round7.txt", b"3\n1 2\n")).startswith(
        "Refused: round7.txt")
    replies = pairings.pair_from_file(service, who(CHIEF), "round7.txt", pairs.encode())
    assert_telegram_html(replies)
    assert text_of(replies).startswith(f"Round {last} paired; boards: {len(games)}\n")
    state = store.state("swiss")
    paired = {(g.white, g.black) for (r, _), g in state.games.items() if r == last}
    assert paired == {(g.white, g.black) for g in games}
    assert sorted(b for (r, b) in state.games if r == last) == list(range(1, len(games) + 1))
    assert {player for (r, player), bye in state.byes.items() if r == last and bye.kind is ByeKind.PAIRING} == set(pab)
    # The first board is the one of the leaders (FIDE board order), whatever the file's order.
    leader = compute_standings(store.tournament("swiss"), after_round=last - 1).rows[0].player.id
    assert leader in (state.games[(last, 1)].white, state.games[(last, 1)].black)
    assert text_of(pairings.pair_from_file(service, who(CHIEF), "again.txt", pairs.encode())).startswith("Refused:")


def test_import_a_toml_document(service: BotService, store: SQLiteStore) -> None:
    content = XIANGQI.read_bytes()
    replies = tournament_files.import_file(service, who(CHIEF, "vi"), "xiangqi-rr.toml", content)
    assert_telegram_html(replies)
    assert text_of(replies) == escape(translator("vi").format(
        M.IMPORTED, name="Hanoi–Hangzhou Xiangqi Invitational 2026", slug="example-xiangqi-rr", players=10)
        + "\n" + translator("vi").format(M.NOW_SELECTED, name="Hanoi–Hangzhou Xiangqi Invitational 2026"))
    assert store.slugs() == ["example-xiangqi-rr"]
    assert store.user(CHIEF).tournament == "example-xiangqi-rr"
    assert write_tournament_toml(store.tournament("example-xiangqi-rr")) == write_tournament_toml(
        load_tournament(XIANGQI))
    again = text_of(tournament_files.import_file(service, who(CHIEF), "xiangqi-rr.toml", content))
    assert again == ("Refused: a tournament example-xiangqi-rr already exists: send the file again with /import and "
                     "another short name, e.g. /import hanoi-2")  # no command-line option in the bot (issue 20)
    assert text_of(tournament_files.import_file(service, who(CHIEF), "xiangqi-rr.toml", content, " hanoi ")).startswith(
        "Imported Hanoi–Hangzhou Xiangqi Invitational 2026 as hanoi;")
    assert service.selected(who(CHIEF)) == "hanoi"
    trf = text_of(tournament_files.import_file(service, who(CHIEF), "chess-swiss.trf", SWISS.read_bytes()))
    assert trf == ("Imported Atlantic Open 2026 as chess-swiss; players: 24\nYour selected tournament is now "
                   "Atlantic Open 2026: your commands act on it (/tournaments changes it).")
    assert text_of(tournament_files.import_file(service, who(CHIEF), "notes.txt", b"hello")).startswith("Refused: ")
    assert store.slugs() == ["example-xiangqi-rr", "hanoi", "chess-swiss"]


def test_export_returns_two_documents(service: BotService, store: SQLiteStore) -> None:
    slug = import_swiss(store)
    trf, toml = tournament_files.export(service, who(CHIEF, "es"))
    assert (trf.document.file_name, toml.document.file_name) == (f"{slug}.trf", f"{slug}.toml")
    spanish = translator("es")
    assert trf.document.caption == spanish.format(M.EXPORT_CAPTION, name="Atlantic Open 2026", format="TRF")
    assert toml.document.caption == spanish.format(M.EXPORT_CAPTION, name="Atlantic Open 2026", format="TOML")
    assert (trf.text, trf.buttons, toml.text) == ("", (), "")
    from_trf = parse_trf(trf.document.content.decode("utf-8"))
    from_toml = parse_tournament_toml(toml.document.content.decode("utf-8"))
    assert len(from_trf.players) == len(from_toml.players) == 24
    assert write_tournament_toml(from_toml) == write_tournament_toml(store.tournament(slug))
    assert {(g.round, g.white, g.black, g.result) for g in from_trf.games if g.result is not None} == {
        (g.round, g.white, g.black, g.result) for g in store.tournament(slug).games if g.result is not None}


# -- long output -----------------------------------------------------------------------------


def test_long_output_is_split_below_the_message_limit(service: BotService, store: SQLiteStore) -> None:
    store.create("big", generate_swiss(1000, 3), CLI)
    standings = players.standings(service, who(PLAYER), "1000")
    assert len(standings) > 10
    assert_telegram_html(standings)
    assert all(len(reply.text) <= MESSAGE_LIMIT for reply in standings)
    rows = [row for reply in standings for row in standing_rows(reply.text)]
    assert len(rows) == 1000
    assert [int(row.split()[0]) for row in rows] == sorted(int(row.split()[0]) for row in rows)
    pairings = players.round(service, who(PLAYER), "3")
    assert_telegram_html(pairings)
    assert all(len(reply.text) <= MESSAGE_LIMIT for reply in pairings)
    assert sum(len(standing_rows(reply.text)) for reply in pairings) == sum(
        1 for g in store.tournament("big").games if g.round == 3)

    lines = [f"R3 B{board} 1-0" for board in range(1, 4001)] + ["x" * 5000, "&<>" * 3000]
    replies = entering.text(service, who(CHIEF), "\n".join(lines))
    assert_telegram_html(replies)
    assert all(len(reply.text) <= MESSAGE_LIMIT for reply in replies)
    shown = "\n".join(visible(reply.text) for reply in replies)
    assert shown.count("already recorded") + shown.count("Round 3 has no board") + shown.count(
        "already has") >= 3900


def test_names_full_of_markup_stay_within_telegrams_limit(service: BotService, store: SQLiteStore) -> None:
    """Telegram counts the 4,096 characters after the HTML is parsed: ``&amp;`` is one."""
    entrants = tuple(Player(number, "&<>" * 8 if number % 2 else "A&B <C> " * 3) for number in range(1, 401))
    games = tuple(Game(1, number, number + 1, Result.DRAW, board=(number + 1) // 2) for number in range(1, 400, 2))
    store.create("markup", Tournament("&" * 300, entrants, 3, games), CLI)
    replies = players.standings(service, who(PLAYER), "400") + players.round(service, who(PLAYER), "1")
    assert_telegram_html(replies)
    assert sum(len(standing_rows(reply.text)) for reply in replies) == 400 + 200
