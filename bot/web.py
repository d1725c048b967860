"""The entry page (README "Handing an arbiter a link"): a small Starlette site the bot's process
serves when config.toml has ``[web] listen = "HOST:PORT"`` (``bot/web_server.py`` runs it).

``GET /enter/<secret>`` shows the current round of the link's tournament (``bot/web_entry.py``);
each board is a ``<form method="post">`` of result buttons, plus undo.  ``POST`` applies one
form and answers ``303 See Other`` back to the page (post/redirect/get), which then says what
was done.  The rules:

- a wrong, revoked or missing secret gets 403 and writes nothing (``tiebreak.links``);
- every form carries a CSRF token: an HMAC of the link and the time the page was made, under a
  key kept in the store, valid for ``TOKEN_LIFETIME``; a form without a valid one gets 403;
- every form carries its own idempotency key: the store applies a form once (the ``dedupe_key``
  of its events), so a double tap or a form sent again changes nothing the second time;
- bad input is a 400 page saying what the buttons send; no traceback ever reaches the page.

The page speaks the browser's language (``Accept-Language``: English, Chinese, Vietnamese,
Spanish; ``?lang=`` chooses another) with the bot's messages, and the game's colour words.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from bot import answers, conversation
from bot import messages as M
from bot import web_messages as W
from bot.messages import translator
from bot.replies import Reply
from bot.service import BotService
from bot.web_entry import Done, current_round, enter_result, undo_last_change, web_request
from ranking import InputError, Result
from tiebreak.i18n import LANGUAGES, Translator, choose_language, supported_language
from tiebreak.links import PATH, link_in_force
from tiebreak.store import EntryLink

log = logging.getLogger(__name__)

THEMES = Path(__file__).resolve().parent.parent / "themes"
TOKEN_LIFETIME = 24 * 3600  # seconds a page's forms stay valid
MAX_FORM_BYTES = 4096  # a form of the page is a few hundred bytes
KEPT_NOTICES = 2000  # what recent forms did, for the page they redirect to
_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY", "Content-Security-Policy": "default-src 'none'; style-src 'self' "
            "'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"}


class BadForm(ValueError):
    """A POST the page's forms never send (400)."""


@dataclass
class EntrySite:
    """The entry page of ``service``'s store, rendered with ``theme``'s templates."""

    service: BotService
    theme: str = "default"
    environment: Environment = field(init=False)
    notices: OrderedDict[tuple[int, str], list[str]] = field(default_factory=OrderedDict)
    posting: set[asyncio.Task[None]] = field(default_factory=set)  # posts for other chats under way

    def __post_init__(self) -> None:
        folders = [THEMES / self.theme / "templates", THEMES / "default" / "templates"]
        self.environment = Environment(loader=ChoiceLoader([FileSystemLoader(str(f)) for f in folders]),
                                       autoescape=select_autoescape(default=True), undefined=StrictUndefined,
                                       trim_blocks=True, lstrip_blocks=True)
        self.style = next((path for path in (THEMES / self.theme / "static" / "style.css",
                                             THEMES / "default" / "static" / "style.css") if path.is_file()), None)

    def app(self) -> Starlette:
        return Starlette(routes=[Route(PATH + "{secret}", self.page, methods=["GET", "POST"]),
                                 Route(PATH, self.refused, methods=["GET", "POST"]),
                                 Route(PATH.rstrip("/"), self.refused, methods=["GET", "POST"]),
                                 Route("/static/style.css", self.stylesheet),
                                 Route("/{path:path}", self.not_found, methods=["GET", "POST"])],
                         exception_handlers={Exception: self.failed})

    # -- the routes -----------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        tr = self.translator(request)
        link = link_in_force(self.service.store, request.path_params["secret"])
        if link is None:
            return await self.refused(request)
        if request.method == "GET":
            done = request.query_params.get("done", "")
            notice = self.notices.get((link.id, done), [])
            return self.show(link, tr, request, notice)
        try:
            form = await read_form(request)
        except BadForm:
            return self.show(link, tr, request, [tr.gettext(W.BAD_FORM)], status=400)
        if not self.valid_token(link, form.get("csrf", "")):
            return self.show(link, tr, request, [tr.gettext(W.FORM_EXPIRED)], status=403)
        try:
            key, done = self.apply(link, tr, form)
        except BadForm:
            return self.show(link, tr, request, [tr.gettext(W.BAD_FORM)], status=400)
        if done is not None:
            self.keep_notice((link.id, key), done.lines)
            self.post_later(done.posts)
        elif (link.id, key) not in self.notices:
            self.keep_notice((link.id, key), [tr.gettext(W.ALREADY_APPLIED)])
        query = {"lang": tr.language} if "lang" in request.query_params else {}
        return RedirectResponse(f"{request.path_params['secret']}?{urlencode({**query, 'done': key})}",
                                status_code=303, headers=_HEADERS)

    async def refused(self, request: Request) -> Response:
        """A wrong, revoked or missing secret: 403, and nothing read or written."""
        tr = self.translator(request)
        return self.render("entry/refused.html", tr, 403, title=tr.gettext(W.LINK_REFUSED_TITLE),
                           lines=[tr.gettext(W.LINK_REFUSED)])

    async def stylesheet(self, request: Request) -> Response:
        if self.style is None:
            return Response(status_code=404)
        return FileResponse(self.style, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    async def not_found(self, request: Request) -> Response:
        tr = self.translator(request)
        return self.render("entry/refused.html", tr, 404, title=tr.gettext(W.NOT_FOUND), lines=[])

    async def failed(self, request: Request, error: Exception) -> Response:
        """Whatever went wrong, a page saying nothing was recorded (the log has the traceback)."""
        log.exception("entry page: %s %s failed", request.method, request.url.path.split(PATH)[0] + PATH + "...")
        tr = self.translator(request)
        return self.render("entry/refused.html", tr, 500, title=tr.gettext(W.SERVER_ERROR), lines=[])

    # -- applying a form ----------------------------------------------------------------------------

    def apply(self, link: EntryLink, tr: Translator, form: Mapping[str, str]) -> tuple[str, Done | None]:
        """Carry out a form: its key, and what it did (None: applied before)."""
        key = form.get("key", "")
        if not 16 <= len(key) <= 64 or not set(key) <= _KEY_CHARS:
            raise BadForm("key")
        request = web_request(self.service, link, tr, key)
        if self.service.store.applied(request.source.dedupe_key or ""):
            return key, None
        try:
            if form.get("action") == "undo":
                return key, Done(undo_last_change(request))
            if form.get("action") != "result":
                raise BadForm("action")
            round_number, board = whole(form.get("round")), whole(form.get("board"))
            try:
                result = Result(form.get("result", ""))
            except ValueError:
                raise BadForm("result") from None
            previous = form.get("previous") or None
            if previous is not None and previous not in {r.value for r in Result}:
                raise BadForm("previous")
            return key, enter_result(request, round_number, board, result, previous)
        except BadForm:
            raise
        except InputError as error:  # the store cannot be used now: said, nothing recorded
            return key, Done([tr.format(M.STORE_UNAVAILABLE, problem=str(error))])

    def post_later(self, replies: list[Reply]) -> None:
        """Post ``replies`` beside the page's answer, not before it: the arbiter sees the result
        recorded at once even while a channel is slow or down (``post`` retries for tens of
        seconds then); ``posted`` waits for what is under way."""
        if not replies:
            return
        task = asyncio.get_running_loop().create_task(self.post(replies))
        self.posting.add(task)  # kept until done: the loop holds its tasks only weakly
        task.add_done_callback(self.posting.discard)

    async def posted(self) -> None:
        """Wait until every post under way (``post_later``) is sent or given up: a stopping
        process sends what the forms it answered led to."""
        while self.posting:
            await asyncio.wait(set(self.posting))

    async def post(self, replies: list[Reply]) -> None:
        """Send what a form led to for other chats (a complete round's standings for every
        channel's announcement chat) through their channels (``conversation.forward``), with the
        retries of every answer (``answers.send_all``).  A failure is logged, never shown: the
        change is recorded."""
        try:
            await answers.send_all(replies, functools.partial(conversation.forward, self.service))
        except Exception:  # e.g. a channel that stopped meanwhile: the result stands
            log.exception("entry page: a message for another chat was not sent")

    # -- CSRF tokens --------------------------------------------------------------------------------

    def token(self, link: EntryLink, now: float | None = None) -> str:
        issued = str(int(time.time() if now is None else now))
        return f"{issued}.{self._signature(link, issued)}"

    def valid_token(self, link: EntryLink, token: str, now: float | None = None) -> bool:
        issued, _, signature = token.partition(".")
        if not issued.isascii() or not issued.isdigit() or not signature:
            return False
        age = (time.time() if now is None else now) - int(issued)
        return -60 <= age <= TOKEN_LIFETIME and hmac.compare_digest(signature, self._signature(link, issued))

    def _signature(self, link: EntryLink, issued: str) -> str:
        key = self.service.store.web_key("csrf", lambda: secrets.token_hex(32))
        return hmac.new(key.encode(), f"{link.id}|{issued}".encode(), hashlib.sha256).hexdigest()

    # -- pages --------------------------------------------------------------------------------------

    def show(self, link: EntryLink, tr: Translator, request: Request, notice: list[str],
             status: int = 200) -> Response:
        state = self.service.store.state(link.tournament)
        shown = current_round(state, tr)
        forms = [secrets.token_urlsafe(16) for _ in range(len(shown.boards) + 1)]  # one key per form, undo last
        return self.render("entry/page.html", tr, status, name=state.base.name, round=shown, notice=notice,
                           csrf=self.token(link), keys=forms,
                           title=tr.format(W.PAGE_TITLE, name=state.base.name))

    def render(self, template: str, tr: Translator, status: int, **values: object) -> Response:
        text = self.environment.get_template(template).render(
            html_lang=LANGUAGES[tr.language].html_lang, tr=tr, W=W, languages=self.languages(tr), **values)
        return HTMLResponse(text, status_code=status, headers=_HEADERS)

    def languages(self, tr: Translator) -> list[dict[str, object]]:
        """The language switcher: the same page in each language (``?lang=``)."""
        return [{"code": code, "name": language.name, "html_lang": language.html_lang, "current": code == tr.language,
                 "href": "?" + urlencode({"lang": code})} for code, language in LANGUAGES.items()]

    def translator(self, request: Request) -> Translator:
        """``?lang=``, else the first language of ``Accept-Language`` Tiebreak speaks, else ``[bot].language``."""
        asked = supported_language(request.query_params.get("lang", ""))
        if asked is not None:
            return translator(asked)
        return translator(accepted_language(request.headers.get("accept-language", ""), self.service.settings.language))

    def keep_notice(self, key: tuple[int, str], lines: list[str]) -> None:
        self.notices[key] = lines
        while len(self.notices) > KEPT_NOTICES:
            self.notices.popitem(last=False)


def accepted_language(header: str, default: str) -> str:
    """The language of an ``Accept-Language`` header Tiebreak speaks, by the header's weights.

    >>> accepted_language("fr-FR,vi;q=0.8,en;q=0.5", "en")
    'vi'
    >>> accepted_language("zh-CN,zh;q=0.9", "en"), accepted_language("de", "es"), accepted_language("", "en")
    ('zh', 'es', 'en')
    """
    ranked = []
    for position, part in enumerate(header.split(",")[:20]):
        tag, _, parameters = part.strip().partition(";")
        weight = 1.0
        name, _, value = parameters.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        code = supported_language(tag)
        if code is not None and weight > 0:
            ranked.append((-weight, position, code))
    return min(ranked)[2] if ranked else choose_language(default)


async def read_form(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body of at most ``MAX_FORM_BYTES``; BadForm otherwise."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise BadForm("content type")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise BadForm("too large")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False, max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        raise BadForm("encoding") from None
    return dict(pairs)


def whole(text: str | None) -> int:
    """A round or board number of a form; BadForm otherwise."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 6:
        raise BadForm("number")
    return int(text)
