"""Files sent to the bot, downloaded as they arrive and never past ``[bot].max_upload_mb``.

Telegram declares a document's size, but the declaration may be missing or wrong (a forged
update, another Bot API server): python-telegram-bot's own download reads a whole file into
memory first.  ``download`` stops as soon as more than the limit has arrived (or the server
announces more), so a 30 MB file costs the bot a little more than the limit, not 30 MB.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import httpx
from telegram import Document

from bot.tournament_files import UploadTooLarge

CHUNK = 64 * 1024
TIMEOUT = httpx.Timeout(60.0, connect=20.0)


async def download(document: Document, limit: int) -> bytes:
    """The bytes of ``document``, at most ``limit`` of them; ``UploadTooLarge`` as soon as
    the file is known to be larger (its ``getFile`` size, the server's Content-Length, or the
    bytes that arrived)."""
    file = await document.get_file()
    if file.file_size is not None and file.file_size > limit:
        raise UploadTooLarge(file.file_size)
    location = file.file_path or ""
    if urlsplit(location).scheme not in ("http", "https"):  # a local Bot API server: a path on this machine
        size = os.path.getsize(location)
        if size > limit:
            raise UploadTooLarge(size)
        with open(location, "rb") as handle:
            return handle.read(limit + 1)
    received = bytearray()
    async with httpx.AsyncClient(timeout=TIMEOUT) as client, client.stream("GET", location) as response:
        response.raise_for_status()
        announced = response.headers.get("content-length", "")
        if announced.isdigit() and int(announced) > limit:
            raise UploadTooLarge(int(announced))
        async for chunk in response.aiter_raw(CHUNK):
            received += chunk
            if len(received) > limit:
                raise UploadTooLarge()
    return bytes(received)
