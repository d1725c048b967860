"""Personal links to the entry page (README "Handing an arbiter a link"): the use cases of
``tiebreak arbiter link|revoke|links`` and of the page that checks them.

A link is ``<base URL>/enter/<secret>``: ``secret`` is 32 random bytes (``secrets``), shown
once when the link is made; the store keeps only its SHA-256, with the tournament and a label
that names the link in force (``revoke`` takes it).  Whoever opens the link enters, corrects
and undoes results of that one tournament; the log records each change as ``web:<link id>``.
``[web]`` of config.toml says where the page listens and, behind a proxy, the address phones
reach (``base_url``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from ranking.errors import InputError
from tiebreak.config import Config
from tiebreak.store import EntryLink, Store

PATH = "/enter/"  # the page of a link: PATH + secret
SECRET_BYTES = 32
MAX_LABEL = 60
_LABEL = re.compile(r"^[^\s\x00-\x1f\x7f]+$")  # one word: the revoke command takes it as one argument
_SECRET = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
_WILDCARD_HOSTS = ("0.0.0.0", "::", "[::]", "")


@dataclass(frozen=True)
class WebSettings:
    """``[web]`` of config.toml: ``listen = "HOST:PORT"`` (the bot's process serves the entry
    page there) and ``base_url``, the page's public address when phones reach it through
    another name or a proxy (default: ``http://HOST:PORT/``)."""

    host: str
    port: int
    base_url: str | None = None

    @classmethod
    def from_config(cls, config: Config) -> WebSettings | None:
        """The settings, or None without a ``[web]`` section (then nothing listens)."""
        section = config.raw.get("web")
        if section is None:
            return None
        source = str(config.path)
        if not isinstance(section, dict) or not isinstance(section.get("listen"), str):
            raise InputError('[web] needs listen = "HOST:PORT", e.g. listen = "127.0.0.1:8080"', source=source)
        host, _, port = section["listen"].strip().rpartition(":")
        if not host or not port.isascii() or not port.isdigit() or not 0 <= int(port) <= 65535:
            raise InputError(f'[web].listen = {section["listen"]!r}: expected "HOST:PORT", e.g. "127.0.0.1:8080"',
                             source=source)
        base_url = section.get("base_url")
        if base_url is not None and (not isinstance(base_url, str)
                                     or not re.match(r"^https?://[^/\s]+(/\S*)?$", base_url)):
            raise InputError("[web].base_url must be the page's address as phones reach it, e.g. "
                             '"https://enter.example.org/"', source=source)
        return cls(host.strip("[]") if host.startswith("[") else host, int(port), base_url)

    def root(self) -> str:
        """The address the links start with (no trailing slash)."""
        if self.base_url:
            return self.base_url.rstrip("/")
        if self.host in _WILDCARD_HOSTS:
            raise InputError(f"[web].listen is {self.host or 'every address'}:{self.port}, which a phone cannot "
                             'open: set [web].base_url to the address phones reach, e.g. "http://192.168.1.20:8080/"')
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def secret_hash(secret: str) -> str:
    """What the store keeps of a link's secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def make_link(store: Store, config: Config, slug: str, label: str | None, actor: str) -> tuple[EntryLink, str]:
    """A new link to ``slug``'s entry page, made by ``actor``: the link kept and its URL (the
    only place the secret ever appears).  ``label`` defaults to the first free ``arbiter-N``.
    Refused (``InputError``, nothing kept): no ``[web]``, an archived or unknown tournament, a
    label that is not one word or that a link in force has."""
    settings = WebSettings.from_config(config)
    if settings is None:
        raise InputError('no [web] section, so nothing serves the entry page: add [web] '
                         'listen = "127.0.0.1:8080" (and base_url, the address phones reach)', source=str(config.path))
    root = settings.root()
    if store.is_archived(slug):
        raise InputError(f"{slug} is archived: `tiebreak restore {slug}` first")
    in_force = {link.label for link in store.links(slug) if link.revoked_at is None}
    if label is None:
        label = next(f"arbiter-{n}" for n in range(1, len(in_force) + 2) if f"arbiter-{n}" not in in_force)
    if not _LABEL.match(label) or len(label) > MAX_LABEL:
        raise InputError(f"--label {label!r}: expected one word of at most {MAX_LABEL} characters, e.g. hanoi-hall-2")
    secret = secrets.token_urlsafe(SECRET_BYTES)
    link = store.add_link(slug, label, secret_hash(secret), actor)
    return link, f"{root}{PATH}{secret}"


def revoke_link(store: Store, slug: str, label: str) -> EntryLink:
    """Revoke ``slug``'s link labelled ``label``: its page answers 403 from now on."""
    store.tournament_key(slug)  # an unknown tournament is said so, with the ones there are
    link = store.revoke_link(slug, label)
    if link is None:
        labels = ", ".join(link.label for link in store.links(slug) if link.revoked_at is None) or "none"
        raise InputError(f"{slug} has no link in force labelled {label!r} (links in force: {labels})")
    return link


def link_in_force(store: Store, secret: str) -> EntryLink | None:
    """The link ``secret`` opens, or None: an unknown, malformed or revoked secret, or the link
    of a tournament archived or gone since."""
    if not _SECRET.match(secret):
        return None
    link = store.link_by_secret(secret_hash(secret))
    if link is None or link.revoked_at is not None or link.tournament not in store.slugs():
        return None
    return link


def actor(link: EntryLink) -> str:
    """Who a change made through ``link`` is logged as."""
    return f"web:{link.id}"
