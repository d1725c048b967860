"""What the bot does, without Telegram: every command and message becomes replies.

Handlers (``bot/handlers.py``) only turn an update into a ``Who`` and some text, call one
method here, and send the ``Reply`` objects back; the console mode calls the same methods.
Results go through the store's event log (``tiebreak.store``) with the Telegram user, chat and
message; standings always come from ``ranking.standings``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from bot import messages as M
from bot.callbacks import Action, button
from bot.formatting import escape, shorten
from bot.messages import format_problem, translator
from bot.parsing import (
    ProblemReason,
    ResultEntry,
    decode_callback,
    parse_message,
    parse_result,
)
from bot.replies import Document, Reply, packed
from bot.views import (
    STANDINGS_DEFAULT_TOP,
    player_blocks,
    playoff_blocks,
    round_blocks,
    standings_blocks,
    team_standings_blocks,
)
from ranking import (
    Event,
    EventKind,
    Game,
    GameKind,
    InputError,
    Result,
    Tournament,
    TournamentState,
    final_standings,
    foul_event,
    pairing_event,
    playoff_result_event,
    result_event,
    team_event_of,
    team_standings,
    withdrawal_event,
)
from tiebreak.config import Config
from tiebreak.files import parse_tournament_text
from tiebreak.i18n import LANGUAGE_NAMES, SUPPORTED, Translator, language_from_argument
from tiebreak.library import export_text, pairing_from_file, scheduled_pairing, slug_for
from tiebreak.store import Source, Store, UserPrefs

ENTER_BUTTONS = 60  # unfinished boards shown by /enter (inline keyboards allow 100 buttons)


@dataclass(frozen=True)
class BotSettings:
    """``[bot]`` of config.toml: chief arbiters (every tournament), default language, the
    channel that gets the standings after each round, webhook settings."""

    arbiters: frozenset[int] = frozenset()
    language: str = "en"
    channel: int | str | None = None
    webhook_url: str | None = None
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443

    @classmethod
    def from_config(cls, config: Config) -> BotSettings:
        section = config.raw.get("bot", {})
        arbiters = section.get("arbiters", [])
        if not isinstance(arbiters, list) or not all(isinstance(user, int) for user in arbiters):
            raise InputError("[bot].arbiters must be a list of Telegram user ids (numbers)",
                             source=str(config.path))
        return cls(frozenset(arbiters), str(section.get("language", "en")), section.get("channel"),
                   section.get("webhook_url"), str(section.get("webhook_listen", "127.0.0.1")),
                   int(section.get("webhook_port", 8443)))


@dataclass(frozen=True)
class Who:
    """The person behind an update and where it came from."""

    user_id: int
    chat_id: int
    language_code: str | None = None
    message_id: int | None = None
    update_id: int | None = None


def _replies(blocks: Sequence[str], **extra) -> list[Reply]:
    return packed(blocks, **extra)


@dataclass
class BotService:
    store: Store
    settings: BotSettings = field(default_factory=BotSettings)
    on_round_complete: Callable[[str, int], None] | None = None
    on_change: Callable[[str], None] | None = None  # after results or pairings: a debounced site build

    # -- who is asking -----------------------------------------------------------------

    def prefs(self, who: Who) -> UserPrefs:
        prefs = self.store.user(who.user_id)
        if prefs.chat_id != who.chat_id and who.chat_id > 0:
            prefs = replace(prefs, chat_id=who.chat_id)
            self.store.save_user(prefs)
        return prefs

    def tr(self, who: Who) -> Translator:
        chosen = self.store.user(who.user_id).language
        return translator(chosen or who.language_code, self.settings.language)

    def selected(self, who: Who) -> str | None:
        """The user's tournament: the one chosen, or the only one there is."""
        slugs = self.store.slugs()
        chosen = self.store.user(who.user_id).tournament
        if chosen in slugs:
            return chosen
        return slugs[0] if len(slugs) == 1 else None

    def is_arbiter(self, user_id: int, slug: str | None) -> bool:
        if user_id in self.settings.arbiters:
            return True
        return slug is not None and user_id in self.store.state(slug).arbiters

    def _tournament_request(self, who: Who) -> tuple[Translator, str, list[Reply]]:
        """The translator and tournament of a request, or the reply refusing it."""
        tr = self.tr(who)
        slug = self.selected(who)
        if slug is None:
            return tr, "", [Reply(escape(tr.gettext(M.NO_TOURNAMENT_SELECTED)))]
        return tr, slug, []

    def _arbiter_request(self, who: Who) -> tuple[Translator, str, list[Reply]]:
        """The same, for what only arbiters may do."""
        tr, slug, refusal = self._tournament_request(who)
        if not refusal and not self.is_arbiter(who.user_id, slug):
            refusal = [Reply(escape(tr.gettext(M.ARBITERS_ONLY)))]
        return tr, slug, refusal

    def _source(self, who: Who) -> Source:
        key = f"tg-update:{who.update_id}" if who.update_id is not None else None
        return Source(f"tg:{who.user_id}", who.chat_id, who.message_id, key)

    # -- players' commands ---------------------------------------------------------------

    def start(self, who: Who, payload: str = "") -> list[Reply]:
        tr = self.tr(who)
        prefs = self.prefs(who)
        blocks = [escape(tr.gettext(M.HELP_START))]
        slug = payload.strip()
        if slug and slug in self.store.slugs():
            self.store.save_user(replace(prefs, tournament=slug))
            blocks.insert(0, tr.format(M.TOURNAMENT_SELECTED, name=f"<b>{escape(self._name(slug))}</b>"))
        if self.is_arbiter(who.user_id, self.selected(who)):
            blocks.append(escape(tr.gettext(M.HELP_ARBITER)))
        return _replies(blocks)

    def tournaments(self, who: Who) -> list[Reply]:
        tr = self.tr(who)
        slugs = self.store.slugs()
        if not slugs:
            return [Reply(escape(tr.gettext(M.NO_TOURNAMENTS)))]
        current = self.selected(who)
        rows = tuple((button(("✓ " if slug == current else "") + self._name(slug), Action.SELECT,
                             self.store.tournament_key(slug)),) for slug in slugs)
        return [Reply(escape(tr.gettext(M.TOURNAMENTS)), buttons=rows)]

    def select(self, who: Who, key: int) -> list[Reply]:
        tr = self.tr(who)
        slug = self.store.slug_for_key(key)
        self.store.save_user(replace(self.prefs(who), tournament=slug))
        return [Reply(tr.format(M.TOURNAMENT_SELECTED, name=f"<b>{escape(self._name(slug))}</b>"), edit=True)]

    def standings(self, who: Who, argument: str = "") -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        numbers = [int(word) for word in re.findall(r"\d+", argument)]
        top = numbers[0] if numbers else STANDINGS_DEFAULT_TOP
        return _replies(standings_blocks(self.store.tournament(slug), tr, top))

    def teams(self, who: Who, argument: str = "") -> list[Reply]:
        """The team standings: place, team, match points, game points, the first tie-breaks."""
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        tournament = self.store.tournament(slug)
        if not tournament.teams:
            return [Reply(escape(tr.gettext(M.NO_TEAMS)))]
        try:
            standings = team_standings(team_event_of(tournament))
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        return _replies(team_standings_blocks(tournament, standings, tr))

    def playoff(self, who: Who, argument: str = "") -> list[Reply]:
        """``/playoff``: the play-offs in detail; ``/playoff WHITE BLACK RESULT`` (arbiters): a
        play-off result, for the first pending play-off game of those two players."""
        if argument.strip():
            return self._enter_playoff(who, argument)
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        return _replies(playoff_blocks(self.store.tournament(slug), tr))

    def _enter_playoff(self, who: Who, argument: str) -> list[Reply]:
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        words = argument.split()
        if len(words) < 3 or not words[0].isdigit() or not words[1].isdigit():
            return [Reply(escape(tr.gettext(M.PLAYOFF_USAGE)))]
        white, black = int(words[0]), int(words[1])
        result = parse_result(" ".join(words[2:]))
        if result is None:
            reason = tr.format(M.PROBLEM_MESSAGES[ProblemReason.UNKNOWN_RESULT], detail=" ".join(words[2:]))
            return [Reply(escape(reason + "\n" + tr.gettext(M.PLAYOFF_USAGE)))]
        found: list[Game] = []
        called = False

        def decide(state: TournamentState) -> list[Event]:
            nonlocal called
            called = True
            found.clear()
            event = playoff_result_event(state, 1, white, black, result)  # checks the players
            playoffs = final_standings(state.snapshot()).playoffs
            pending = sorted((game for group in (playoffs.groups if playoffs else ()) for game in group.pending
                              if {game.white, game.black} == {white, black}), key=lambda game: game.round)
            if not pending:
                return []
            found.append(pending[0])
            return [replace(event, data={**event.data, "round": pending[0].round})]

        try:
            appended = self.store.append(slug, decide, self._source(who))
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        if not called:
            return []  # Telegram delivered this update again: it was applied before
        names = self._names(self.store.state(slug))
        if not appended:
            return [Reply(escape(tr.format(M.PLAYOFF_NOT_SCHEDULED, white=f"{white}. {names[white]}",
                                           black=f"{black}. {names[black]}")))]
        if self.on_change is not None:
            self.on_change(slug)
        number = found[0].round
        recorded = escape(tr.format(M.PLAYOFF_RECORDED, round=number, white=names[white], black=names[black],
                                    result=result.value))
        return _replies([recorded, *playoff_blocks(self.store.tournament(slug), tr)])

    def round(self, who: Who, argument: str = "") -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        state = self.store.state(slug)
        paired = state.paired_rounds()
        if not paired:
            return [Reply(escape(tr.gettext(M.NOTHING_PAIRED)))]
        numbers = [int(word) for word in re.findall(r"\d+", argument)]
        number = numbers[0] if numbers else max(paired)
        if number not in paired:
            return [Reply(escape(tr.format(M.ROUND_NOT_PAIRED, round=number)))]
        return _replies(round_blocks(state, number, tr))

    def player(self, who: Who, query: str) -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        query = query.strip()
        if not query:
            return [Reply(escape(tr.gettext(M.PLAYER_USAGE)))]
        state = self.store.state(slug)
        matches = self._find_players(state.base, query)
        if not matches:
            return [Reply(escape(tr.format(M.PLAYER_NOT_FOUND, query=query)))]
        if len(matches) > 1:
            lines = [escape(tr.format(M.PLAYERS_FOUND, query=query))]
            lines += [f"{player.id}. {escape(player.name)}" for player in matches[:20]]
            return _replies(lines)
        return _replies(player_blocks(state, matches[0].id, tr))

    def iam(self, who: Who, argument: str) -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        numbers = re.findall(r"\d+", argument)
        tournament = self.store.tournament(slug)
        ids = {player.id: player for player in tournament.players}
        if not numbers or int(numbers[0]) not in ids:
            return [Reply(escape(tr.gettext(M.IAM_USAGE)))]
        player = ids[int(numbers[0])]
        self.store.save_user(replace(self.prefs(who), tournament=slug, player_id=player.id))
        return [Reply(escape(tr.format(M.YOU_ARE_PLAYER, number=player.id, name=player.name)))]

    def me(self, who: Who) -> list[Reply]:
        tr = self.tr(who)
        prefs = self.prefs(who)
        slug = self.selected(who)
        if slug is None or prefs.player_id is None or prefs.tournament != slug:
            return [Reply(escape(tr.gettext(M.WHO_ARE_YOU)))]
        return _replies(player_blocks(self.store.state(slug), prefs.player_id, tr))

    def subscribe(self, who: Who, on: bool = True) -> list[Reply]:
        tr = self.tr(who)
        prefs = self.prefs(who)
        if on and (prefs.player_id is None or prefs.tournament is None):
            return [Reply(escape(tr.gettext(M.SUBSCRIBE_NEEDS_PLAYER)))]
        self.store.save_user(replace(prefs, subscribed=on))
        return [Reply(escape(tr.gettext(M.SUBSCRIBED if on else M.UNSUBSCRIBED)))]

    def language(self, who: Who, argument: str = "") -> list[Reply]:
        tr = self.tr(who)
        if not argument.strip():
            rows = tuple((button(name, Action.LANGUAGE, code),) for code, name in LANGUAGE_NAMES.items())
            return [Reply(escape(tr.gettext(M.CHOOSE_LANGUAGE)), buttons=rows)]
        code = language_from_argument(argument)
        if code is None:
            return [Reply(escape(tr.format(M.UNKNOWN_LANGUAGE, language=argument.strip())))]
        return self.set_language(who, code)

    def set_language(self, who: Who, code: str, edit: bool = False) -> list[Reply]:
        self.store.save_user(replace(self.prefs(who), language=code))
        tr = translator(code)
        return [Reply(escape(tr.format(M.LANGUAGE_SET, language=LANGUAGE_NAMES[code])), edit=edit)]

    # -- arbiters: results by text ------------------------------------------------------------

    def text(self, who: Who, text: str) -> list[Reply]:
        """Result lines from an arbiter (anyone else is told only arbiters may)."""
        tr = self.tr(who)
        if who.update_id is not None and self.store.has_submission(who.update_id):
            return []  # Telegram delivered this update again: it was handled and answered
        slug = self.selected(who)
        source = self._source(who)
        if slug is None:
            self.store.record_submission(source, text, None, 0, 1, "no tournament", who.update_id)
            return [Reply(escape(tr.gettext(M.NO_TOURNAMENT_SELECTED)))]
        if not self.is_arbiter(who.user_id, slug):
            self.store.record_submission(source, text, slug, 0, 1, "not an arbiter", who.update_id)
            return [Reply(escape(tr.gettext(M.ARBITERS_ONLY)))]
        state = self.store.state(slug)
        paired = state.paired_rounds()
        parsed = parse_message(text, max(paired) if paired else None)
        outcome = self._enter(who, slug, parsed.entries)
        if outcome is None:  # this very update was applied before (Telegram delivered it twice)
            return []
        recorded, asked, refused, finished = outcome
        blocks = list(recorded)
        problems = [format_problem(problem, tr) for problem in parsed.problems] + refused
        if problems:
            blocks.append(escape(tr.gettext(M.PROBLEMS_HEADER)))
            blocks += [escape(line) for line in problems]
        self.store.record_submission(source, text, slug, len(recorded), len(problems) + len(asked),
                                     "; ".join(problems)[:2000], who.update_id)
        replies = _replies(blocks) if blocks else []
        replies += asked
        replies += self._round_completions(slug, finished, tr)
        return replies

    def _enter(self, who: Who, slug: str, entries: Sequence[ResultEntry], correct: bool = False):
        """Append the entries' results and fouls in one transaction.

        Returns (confirmation lines, replace-questions, refusals, rounds just finished), or
        None when the update was applied before.
        """
        tr = self.tr(who)
        recorded: list[str] = []
        asked: list[Reply] = []
        refused: list[str] = []
        called = False

        def decide(state: TournamentState) -> list[Event]:
            nonlocal called
            called = True
            names = self._names(state)
            events: list[Event] = []
            for entry in entries:
                try:
                    game = state.game(entry.round, entry.board)
                except InputError:
                    refused.append(self._where_problem(state, entry, tr))
                    continue
                white, black = names[game.white], names[game.black]
                result = entry.result.value
                if game.result is not None and game.result is not entry.result and not correct:
                    question = tr.format(M.ALREADY_HAS, round=entry.round, board=entry.board, white=white,
                                         black=black, old=game.result.value)
                    question += "\n" + tr.format(M.CONFIRM_REPLACE, old=game.result.value, new=result)
                    key = self.store.tournament_key(slug)
                    asked.append(Reply(escape(question), buttons=((
                        button(tr.gettext(M.YES), Action.REPLACE, key, entry.round, entry.board, result),
                        button(tr.gettext(M.NO), Action.KEEP, key, entry.round, entry.board),
                    ),)))
                    continue
                event = result_event(state, entry.round, entry.board, entry.result, correct=correct)
                if event is None:
                    recorded.append(escape(tr.format(M.RESULT_ALREADY_RECORDED, round=entry.round,
                                                     board=entry.board, white=white, black=black, result=result)))
                elif event.kind is EventKind.CORRECTION:
                    events.append(event)
                    recorded.append(escape(tr.format(M.RESULT_CORRECTED, round=entry.round, board=entry.board,
                                                     white=white, black=black, result=result,
                                                     previous=event.data["previous"])))
                else:
                    events.append(event)
                    recorded.append(escape(tr.format(M.RESULT_RECORDED, round=entry.round, board=entry.board,
                                                     white=white, black=black, result=result)))
                if entry.foul_side:
                    events.append(foul_event(state, entry.round, entry.board, entry.foul_side, entry.foul_count))
                    fouler = white if entry.foul_side == "white" else black
                    recorded.append(escape(tr.nformat(*M.FOULS_RECORDED, entry.foul_count, round=entry.round,
                                                      board=entry.board, count=entry.foul_count, player=fouler)))
            return events

        before = self._unfinished_rounds(slug)
        appended = self.store.append(slug, decide, self._source(who))
        if not called:
            return None
        if appended and self.on_change is not None:
            self.on_change(slug)
        finished = sorted(before - self._unfinished_rounds(slug))
        return recorded, asked, refused, finished

    def _where_problem(self, state: TournamentState, entry: ResultEntry, tr: Translator) -> str:
        if entry.round not in state.paired_rounds():
            return tr.format(M.PROBLEM_LINE, line=entry.line, text=entry.text,
                             reason=tr.format(M.ROUND_NOT_PAIRED, round=entry.round))
        return tr.format(M.PROBLEM_LINE, line=entry.line, text=entry.text,
                         reason=tr.format(M.NO_SUCH_BOARD, round=entry.round, board=entry.board))

    def _unfinished_rounds(self, slug: str) -> set[int]:
        state = self.store.state(slug)
        return {number for (number, _), game in state.games.items() if game.result is None}

    def _round_completions(self, slug: str, rounds: Sequence[int], tr: Translator) -> list[Reply]:
        """When a round is complete: say so, show the standings, post them to the channel,
        and tell whoever waits for it (the site build)."""
        replies: list[Reply] = []
        for number in rounds:
            blocks = [escape(tr.format(M.ROUND_COMPLETE, round=number)),
                      *standings_blocks(self.store.tournament(slug), tr)]
            replies += _replies(blocks)
            if self.settings.channel is not None:
                channel_tr = translator(self.settings.language)
                channel_blocks = [escape(channel_tr.format(M.ROUND_COMPLETE, round=number)),
                                  *standings_blocks(self.store.tournament(slug), channel_tr)]
                replies += _replies(channel_blocks, chat_id=self.settings.channel)
            if self.on_round_complete is not None:
                self.on_round_complete(slug, number)
        return replies

    # -- arbiters: results by taps -----------------------------------------------------------

    def enter(self, who: Who) -> list[Reply]:
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        return [self._board_menu(slug, tr)]

    def _board_menu(self, slug: str, tr: Translator, edit: bool = False) -> Reply:
        state = self.store.state(slug)
        paired = state.paired_rounds()
        if not paired:
            return Reply(escape(tr.gettext(M.NOTHING_PAIRED)), edit=edit)
        number = max(paired)
        names = self._names(state)
        key = self.store.tournament_key(slug)
        open_boards = [(board, game) for (r, board), game in sorted(state.games.items())
                       if r == number and game.result is None]
        if not open_boards:
            return Reply(escape(tr.format(M.ROUND_FINISHED_ALREADY, round=number)), edit=edit)
        rows = tuple((button(tr.format(M.BOARD_BUTTON, board=board, white=shorten(names[game.white], 14),
                                       black=shorten(names[game.black], 14)), Action.BOARD, key, number, board),)
                     for board, game in open_boards[:ENTER_BUTTONS])
        text = escape(tr.format(M.ROUND_HEADING, round=number)) + "\n" + escape(tr.gettext(M.CHOOSE_BOARD))
        return Reply(text, buttons=rows, edit=edit)

    def callback(self, who: Who, data: str) -> list[Reply]:
        """A pressed inline button (``callback_data`` from ``encode_callback``)."""
        tr = self.tr(who)
        try:
            callback = decode_callback(data)
        except ValueError:
            return [Reply(escape(tr.gettext(M.NOT_UNDERSTOOD)))]
        action = callback.action
        if action == "sel":
            return self.select(who, callback.int(0))
        if action == "lang":
            code = callback.fields[0]
            if code not in SUPPORTED:
                return [Reply(escape(tr.gettext(M.NOT_UNDERSTOOD)))]
            return self.set_language(who, code, edit=True)
        slug = self.store.slug_for_key(callback.int(0))
        if not self.is_arbiter(who.user_id, slug):
            if action in ("ec", "fix"):
                self.store.record_submission(self._source(who), f"[button] {data}", slug, 0, 1, "not an arbiter",
                                             who.update_id)
            return [Reply(escape(tr.gettext(M.ARBITERS_ONLY)))]
        state = self.store.state(slug)
        names = self._names(state)
        if action == "menu":
            return [self._board_menu(slug, tr, edit=True)]
        number, board = callback.int(1), callback.int(2)
        try:
            game = state.game(number, board)
        except InputError:
            return [Reply(escape(tr.format(M.NO_SUCH_BOARD, round=number, board=board)), edit=True)]
        white, black = names[game.white], names[game.black]
        key = callback.int(0)
        if action == "eb":  # a board was chosen: offer the results
            words = _result_buttons(state.base)
            rows = tuple(tuple(button(label, Action.RESULT, key, number, board, value) for label, value in row)
                         for row in words)
            rows += ((button(tr.gettext(M.BACK), Action.MENU, key),),)
            text = escape(tr.format(M.YOUR_PAIRING, round=number, board=board, white=white, black=black))
            return [Reply(text + "\n" + escape(tr.gettext(M.CHOOSE_RESULT)), buttons=rows, edit=True)]
        if action == "er":  # a result was chosen: ask to confirm
            result = callback.fields[3]
            text = escape(tr.format(M.RECORD_QUESTION, round=number, board=board, white=white, black=black,
                                    result=result))
            rows = ((button(tr.gettext(M.CONFIRM), Action.CONFIRM, key, number, board, result),
                     button(tr.gettext(M.BACK), Action.BOARD, key, number, board)),)
            return [Reply(text, buttons=rows, edit=True)]
        if action in ("ec", "fix"):
            try:
                result = Result(callback.fields[3])
            except ValueError:
                return [Reply(escape(tr.gettext(M.NOT_UNDERSTOOD)))]
            entry = ResultEntry(0, "", number, board, result)
            outcome = self._enter(who, slug, [entry], correct=action == "fix")
            if outcome is None:
                return []
            recorded, asked, refused, finished = outcome
            self.store.record_submission(self._source(who), f"[button] {data}", slug, len(recorded),
                                         len(refused) + len(asked), "; ".join(refused), who.update_id)
            replies = [Reply("\n".join(recorded) or escape("\n".join(refused)), edit=True), *asked]
            if action == "ec" and not asked:
                replies.append(self._board_menu(slug, tr))
            return replies + self._round_completions(slug, finished, tr)
        if action == "keep":
            kept = game.result.value if game.result else "…"
            return [Reply(escape(tr.format(M.KEPT, result=kept)), edit=True)]
        return [Reply(escape(tr.gettext(M.NOT_UNDERSTOOD)))]

    # -- arbiters: other commands -------------------------------------------------------------

    def undo(self, who: Who) -> list[Reply]:
        """Take back the arbiter's last entry that is still in force."""
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        actor = f"tg:{who.user_id}"
        undone = {entry.event.data.get("undo") for entry in self.store.log(slug)}
        last = next((entry for entry in reversed(self.store.log(slug))
                     if entry.actor == actor and entry.id not in undone and "undo" not in entry.event.data
                     and entry.event.kind in (EventKind.RESULT, EventKind.FORFEIT, EventKind.CORRECTION)), None)
        if last is None:
            return [Reply(escape(tr.gettext(M.NOTHING_TO_UNDO)))]
        data = last.event.data
        fouls = [entry for entry in self.store.log(slug)
                 if entry.event.kind is EventKind.FOUL and entry.actor == actor and entry.at == last.at
                 and entry.message_id == last.message_id and entry.id not in undone
                 and "undo" not in entry.event.data and entry.event.data.get("round") == data["round"]
                 and entry.event.data.get("board") == data["board"]]

        def decide(state: TournamentState) -> list[Event]:
            game = state.game(data["round"], data["board"])
            if game.result is None or game.result.value != data["result"]:
                return []  # changed since by someone else: nothing of this entry is left to undo
            if last.event.kind is EventKind.CORRECTION:
                events = [Event(EventKind.CORRECTION, {"round": data["round"], "board": data["board"],
                                                       "result": data["previous"], "previous": data["result"],
                                                       "undo": last.id})]
            else:
                events = [Event(EventKind.ANNULMENT, {"round": data["round"], "board": data["board"],
                                                      "previous": data["result"], "undo": last.id})]
            for foul in fouls:  # the fouls entered on the same line are taken back with it
                events.append(Event(EventKind.FOUL, {**foul.event.data, "count": -foul.event.data.get("count", 1),
                                                     "undo": foul.id}))
            return events

        appended = self.store.append(slug, decide, self._source(who))
        if not appended:
            return [Reply(escape(tr.gettext(M.NOTHING_TO_UNDO)))]
        what = f"R{data['round']} B{data['board']} {data['result']}"
        return [Reply(escape(tr.format(M.UNDONE, what=what)))]

    def pair(self, who: Who) -> list[Reply]:
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        tournament = self.store.tournament(slug)
        if not tournament.system.is_round_robin:
            return [Reply(escape(tr.gettext(M.SWISS_PAIR_HELP)))]
        try:
            _, games, byes = scheduled_pairing(tournament)
        except InputError:
            return [Reply(escape(tr.gettext(M.ALL_ROUNDS_PAIRED)))]
        return self._store_pairing(who, slug, games, byes, tr)

    def pair_from_file(self, who: Who, file_name: str, content: bytes) -> list[Reply]:
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        tournament = self.store.tournament(slug)
        text = content.decode("utf-8", errors="replace")
        try:
            _, games, byes = pairing_from_file(tournament, text, file_name)
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        return self._store_pairing(who, slug, games, byes, tr)

    def _store_pairing(self, who: Who, slug: str, games, byes, tr: Translator) -> list[Reply]:
        number = games[0].round if games else byes[0].round
        try:
            self.store.append(slug, lambda state: [pairing_event(state, number, games, byes)], self._source(who))
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        if self.on_change is not None:
            self.on_change(slug)
        state = self.store.state(slug)
        replies = _replies([escape(tr.format(M.PAIRED, round=number, boards=len(games))),
                            *round_blocks(state, number, tr)])
        return replies + self._notify_pairings(slug, number)

    def _notify_pairings(self, slug: str, number: int) -> list[Reply]:
        state = self.store.state(slug)
        names = self._names(state)
        replies = []
        for prefs in self.store.subscribers(slug):
            if prefs.chat_id is None:
                continue
            tr = translator(prefs.language, self.settings.language)
            for (round_number, board), game in state.games.items():
                if round_number == number and prefs.player_id in (game.white, game.black):
                    replies.append(Reply(escape(tr.format(M.YOUR_PAIRING, round=number, board=board,
                                                          white=names[game.white], black=names[game.black])),
                                         chat_id=prefs.chat_id))
        return replies

    def withdraw(self, who: Who, argument: str) -> list[Reply]:
        tr, slug, refusal = self._arbiter_request(who)
        if refusal:
            return refusal
        numbers = [int(word) for word in re.findall(r"\d+", argument)]
        if not numbers:
            return [Reply(escape(tr.gettext(M.WITHDRAW_USAGE)))]

        def decide(state: TournamentState) -> list[Event]:
            after = numbers[1] if len(numbers) > 1 else state.snapshot().rounds_with_results
            return [withdrawal_event(state, numbers[0], after)]

        try:
            appended = self.store.append(slug, decide, self._source(who))
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        name = self._names(self.store.state(slug))[numbers[0]]
        return [Reply(escape(tr.format(M.WITHDRAWN, number=numbers[0], name=name,
                                       round=appended[0].event.data["after_round"])))]

    def import_file(self, who: Who, file_name: str, content: bytes, argument: str = "") -> list[Reply]:
        tr = self.tr(who)
        if who.user_id not in self.settings.arbiters:
            return [Reply(escape(tr.gettext(M.CHIEF_ONLY)))]
        try:
            tournament = parse_tournament_text(content, file_name)
            slug = slug_for(tournament, file_name, argument.strip() or None)
            self.store.create(slug, tournament, self._source(who))
        except InputError as error:
            return [Reply(escape(tr.format(M.REQUEST_REFUSED, reason=str(error))))]
        self.store.save_user(replace(self.prefs(who), tournament=slug))
        return [Reply(escape(tr.format(M.IMPORTED, name=tournament.name, slug=slug,
                                       players=len(tournament.players))))]

    def export(self, who: Who) -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        tournament = self.store.tournament(slug)
        trf = export_text(tournament, "trf")
        toml = export_text(tournament, "toml")
        return [Reply(document=Document(f"{slug}.trf", trf.encode("utf-8"),
                                        tr.format(M.EXPORT_CAPTION, name=tournament.name, format="TRF"))),
                Reply(document=Document(f"{slug}.toml", toml.encode("utf-8"),
                                        tr.format(M.EXPORT_CAPTION, name=tournament.name, format="TOML")))]

    def arbiters(self, who: Who, argument: str) -> list[Reply]:
        tr, slug, refusal = self._tournament_request(who)
        if refusal:
            return refusal
        words = argument.split()
        if not words:
            users = sorted(self.settings.arbiters | self.store.state(slug).arbiters)
            return [Reply(escape(tr.format(M.ARBITERS_LIST, slug=slug, users=", ".join(map(str, users)) or "-")))]
        if who.user_id not in self.settings.arbiters:
            return [Reply(escape(tr.gettext(M.CHIEF_ONLY)))]
        if len(words) != 2 or words[0] not in ("add", "remove") or not words[1].isdigit():
            return [Reply(escape(tr.gettext(M.ARBITERS_USAGE)))]
        user = int(words[1])
        kind = EventKind.ARBITER_ADDED if words[0] == "add" else EventKind.ARBITER_REMOVED
        self.store.append(slug, lambda state: [Event(kind, {"user_id": user})], self._source(who))
        message = M.ARBITER_ADDED if words[0] == "add" else M.ARBITER_REMOVED
        return [Reply(escape(tr.format(message, user=user, slug=slug)))]

    # -- helpers ------------------------------------------------------------------------------

    def _name(self, slug: str) -> str:
        return self.store.state(slug).base.name

    @staticmethod
    def _names(state: TournamentState) -> dict[int, str]:
        return {player.id: player.name for player in state.base.players}

    @staticmethod
    def _find_players(tournament: Tournament, query: str):
        if query.isdigit():
            return [player for player in tournament.players if player.id == int(query)]
        folded = query.casefold()
        return [player for player in tournament.players if folded in player.name.casefold()]


def _result_buttons(tournament: Tournament) -> list[list[tuple[str, str]]]:
    """The result choices of the /enter keyboard, in the game's own words."""
    if tournament.game is GameKind.XIANGQI:
        played = [("红胜 1-0", "1-0"), ("和 ½-½", "1/2-1/2"), ("黑胜 0-1", "0-1")]
    else:
        played = [("1-0", "1-0"), ("½-½", "1/2-1/2"), ("0-1", "0-1")]
    return [played, [("+-", "+-"), ("--", "--"), ("-+", "-+")]]
