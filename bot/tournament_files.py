"""Tournament files to and from the chat: /import (a TRF or TOML file sent to the bot, chief
arbiters only), /export (the TRF and TOML files), and the size limit of any file sent to the bot
(``[bot].max_upload_mb``: ``receive_file``, which /pair's files pass too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from bot import messages as M
from bot.formatting import escape
from bot.replies import Document, Reply, packed
from bot.service import Request, TournamentRequest, anyone, arbiters_only, chief_only
from ranking import InputError, final_standings
from tiebreak.exports import export_text
from tiebreak.files import parse_tournament_text
from tiebreak.library import import_tournament
from tiebreak.notices import totals_warnings


@anyone
def import_help(request: Request) -> list[Reply]:
    """/import without a file: how to send one."""
    return request.say(M.IMPORT_HELP)


#: a file sent to the bot: its bytes, or how to download them at most so many bytes
#: (``bot/downloads.py``: only after the sender's rights and the file's declared size were
#: checked, read as it arrives, and stopped past the limit with ``UploadTooLarge``)
Upload: TypeAlias = bytes | Callable[[int], bytes]


class UploadTooLarge(Exception):
    """A file being downloaded turned out larger than the limit: ``size`` when known."""

    def __init__(self, size: int | None = None) -> None:
        super().__init__(f"larger than the limit ({size} bytes)" if size is not None else "larger than the limit")
        self.size = size


def receive_file(request: Request, content: Upload, size: int | None) -> bytes | list[Reply]:
    """The file's bytes, or the refusal of a file above ``[bot].max_upload_mb`` (recorded):
    by the size Telegram declared, else as soon as the download passes the limit."""
    limit = request.service.settings.max_upload_bytes
    if size is None and isinstance(content, bytes):
        size = len(content)
    try:
        if size is not None and size > limit:
            raise UploadTooLarge(size)
        data = content if isinstance(content, bytes) else content(limit)
        if len(data) > limit:
            raise UploadTooLarge(len(data))
    except UploadTooLarge as error:
        if error.size is None:
            return request.refused(request.selected(), "file too large", M.FILE_OVER_LIMIT, limit=_megabytes(limit))
        return request.refused(request.selected(), "file too large", M.FILE_TOO_LARGE,
                               size=_megabytes(error.size), limit=_megabytes(limit))
    return data


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f}".removesuffix(".0")


@chief_only
def import_file(request: Request, file_name: str, content: Upload, argument: str = "",
                size: int | None = None) -> list[Reply]:
    """A TRF or tournament TOML file sent with the caption /import [SLUG] (or none); ``size``
    is the size Telegram gave (the file is downloaded only if it is within the limit)."""
    received = receive_file(request, content, size)
    if isinstance(received, list):
        return received
    try:
        tournament = parse_tournament_text(received, file_name)
        slug = import_tournament(request.store, tournament, file_name, argument.strip() or None, request.source)
    except InputError as error:
        return request.refuse(error)
    request.remember(tournament=slug)
    text = received.decode("utf-8", errors="replace")
    warnings = totals_warnings(text, final_standings(tournament).points(), file_name)
    return packed([escape(request.tr.format(M.IMPORTED, name=tournament.name, slug=slug,
                                            players=len(tournament.players))),
                   escape(request.tr.format(M.NOW_SELECTED, name=tournament.name)),
                   *(escape(request.tr.format(M.WARNING_LINE, warning=line)) for line in warnings[:10])])


@arbiters_only
def export(request: TournamentRequest) -> list[Reply]:
    """/export: the tournament as a TRF and a TOML file (its arbiters: the files hold every
    player's details; the site publishes what players see)."""
    tournament = request.tournament()
    return [Reply(document=Document(f"{request.slug}.{suffix}", export_text(tournament, suffix).encode("utf-8"),
                                    request.tr.format(M.EXPORT_CAPTION, name=tournament.name, format=suffix.upper())))
            for suffix in ("trf", "toml")]
