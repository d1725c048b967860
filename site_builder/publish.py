"""Publish the built site: ``[publish].target`` is ``dir``, ``git``, ``rsync``, ``s3`` or ``command``.

Every target is idempotent and never leaves the destination half-updated in a way that a retry
cannot fix:

- ``dir`` copies the site into a temporary sibling folder and swaps it in (one ``renameat2`` exchange on
  Linux, else rename the old one away and the new one in), so the destination is always one complete site;
- ``git`` commits the site to a branch (``gh-pages``) of a fresh work tree and pushes it; a push
  lands the whole commit or nothing, and a push rejected because the remote moved is fetched and
  tried again;
- ``rsync`` runs ``rsync <options> <out>/ <destination>`` (``--delay-updates`` switches the files at
  the end), and a second run finishes what a broken one started;
- ``s3`` uploads the changed files only, every other file before the HTML pages, and deletes the
  objects no longer in the site last, so old pages never point at files already deleted;
- ``command`` runs a command of your own with the site folder as ``{out}`` and ``$TIEBREAK_SITE_DIR``.

A failed attempt is retried ``retries`` times, waiting ``backoff`` seconds and doubling; after the last
one :class:`PublishError` (one line) is raised.  Problems found before anything is attempted (a bad
``[publish]`` table, a missing ``rsync``, ``git`` or ``boto3``) raise :class:`~ranking.errors.InputError`.
"""

from __future__ import annotations

import base64
import ctypes
import errno
import filecmp
import hashlib
import mimetypes
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ranking.errors import InputError

TARGETS = ("dir", "git", "rsync", "s3", "command")
DEFAULT_RSYNC_OPTIONS = ("-a", "--delete-delay", "--delay-updates")
S3_EXTRA = "pip install 'tiebreak[s3]'"
#: Files of the build folder that are the builder's own bookkeeping, never published.
SKIP_AT_ROOT = frozenset({".manifest.json", ".ranks.json"})  # the builder's bookkeeping

_COMMON_KEYS = ("target", "retries", "backoff")
_TARGET_KEYS: dict[str, tuple[str, ...]] = {
    "dir": ("path",),
    "git": ("remote", "branch", "author_name", "author_email", "message"),
    "rsync": ("destination", "options"),
    "s3": ("bucket", "prefix", "endpoint_url", "region"),
    "command": ("command",),
}
_REQUIRED = {"dir": "path", "git": "remote", "rsync": "destination", "s3": "bucket", "command": "command"}
_SECRET_WORDS = ("secret", "access_key", "password", "token", "credential")
_SOURCE = "[publish]"
_BRANCH = re.compile(r"(?!-)(?!.*\.\.)(?!.*//)[A-Za-z0-9._/-]+(?<![./])")


class PublishError(Exception):
    """Publishing failed after every attempt; ``str(error)`` is one line."""

    def __init__(self, message: str, *, target: str | None = None, attempts: int = 0) -> None:
        super().__init__(_one_line(message))
        self.target = target
        self.attempts = attempts


@dataclass(frozen=True)
class PublishReport:
    target: str
    attempts: int
    uploaded: int = 0  # files new or changed at the destination (``command``: every file handed over)
    deleted: int = 0  # files removed from the destination
    unchanged: int = 0  # files already there with the same content
    duration: float = 0.0  # seconds, without the waits between attempts
    detail: str = ""  # e.g. the git commit, or "no change"

    def __str__(self) -> str:
        attempts = f", {self.attempts} attempts" if self.attempts != 1 else ""
        detail = f", {self.detail}" if self.detail else ""
        return (f"{self.uploaded} uploaded, {self.deleted} deleted, {self.unchanged} unchanged "
                f"in {self.duration:.2f} s{attempts}{detail}")


@dataclass(frozen=True)
class PublishSettings:
    """``[publish]`` of config.toml.  Build it with :meth:`from_config`, which validates the table."""

    target: str
    # dir
    path: Path | None = None
    # git
    remote: str | None = None
    branch: str = "gh-pages"
    author_name: str = "Tiebreak"
    author_email: str = "tiebreak@localhost"
    message: str = "Update standings"
    # rsync
    destination: str | None = None
    options: tuple[str, ...] = DEFAULT_RSYNC_OPTIONS
    # s3 (credentials only from the environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...)
    bucket: str | None = None
    prefix: str = ""
    endpoint_url: str | None = None
    region: str | None = None
    # command
    command: str | None = None
    cwd: Path | None = None  # where the command runs: the folder of config.toml
    # every target
    retries: int = 3  # attempts after the first one
    backoff: float = 2.0  # seconds before the first retry, doubling

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise InputError(f"target = {self.target!r}: expected one of {', '.join(TARGETS)}", source=_SOURCE)
        required = _REQUIRED[self.target]
        if getattr(self, required) in (None, ""):
            raise InputError(f"target = {self.target!r} needs the key {required!r}", source=_SOURCE)
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise InputError(f"retries = {self.retries!r}: expected a whole number ≥ 0", source=_SOURCE)
        if isinstance(self.backoff, bool) or not isinstance(self.backoff, int | float) or self.backoff < 0:
            raise InputError(f"backoff = {self.backoff!r}: expected a number of seconds ≥ 0", source=_SOURCE)

    @classmethod
    def from_config(cls, table: Mapping[str, Any], base: Path) -> PublishSettings:
        """Validate ``[publish]``; relative local paths are taken from ``base`` (the folder of config.toml).

        Keys of the other targets are allowed (to switch ``target`` back and forth) but unknown keys are
        not, and neither are credentials, which come from the environment only.
        """
        if not isinstance(table, Mapping):
            raise InputError("expected a table", source=_SOURCE)
        base = Path(base)
        known = set(_COMMON_KEYS).union(*_TARGET_KEYS.values())
        for key in table:
            if any(word in str(key).lower() for word in _SECRET_WORDS):
                raise InputError(f"{key}: credentials are never read from config.toml; set AWS_ACCESS_KEY_ID, "
                                 "AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the environment", source=_SOURCE)
            if key not in known:
                raise InputError(f"unknown key {key!r}: expected some of {', '.join(sorted(known))}", source=_SOURCE)
        if "target" not in table:
            raise InputError(f"target is missing: expected one of {', '.join(TARGETS)}", source=_SOURCE)
        target = table["target"]
        if target not in TARGETS:
            raise InputError(f"target = {target!r}: expected one of {', '.join(TARGETS)}", source=_SOURCE)
        for key in _TARGET_KEYS[target]:
            if key == "options" or key not in table:
                continue
            if not isinstance(table[key], str) or (key != "prefix" and not table[key].strip()):
                raise InputError(f"{key} = {table[key]!r}: expected a non-empty string", source=_SOURCE)
        values: dict[str, Any] = {"target": target}
        for key in ("retries", "backoff"):
            if key in table:
                values[key] = table[key]
        get = table.get
        if target == "dir":
            values["path"] = _local_path(get("path"), base)
        elif target == "git":
            remote = get("remote")
            if remote is not None:
                values["remote"] = remote if _is_remote_url(remote) else str(_local_path(remote, base))
            for key in ("branch", "author_name", "author_email", "message"):
                if key in table:
                    values[key] = table[key].strip()
            branch = values.get("branch", "gh-pages")
            if not _BRANCH.fullmatch(branch) or branch.endswith(".lock"):
                raise InputError(f"branch = {branch!r}: expected a git branch name such as 'gh-pages'", source=_SOURCE)
        elif target == "rsync":
            destination = get("destination")
            if destination is not None:
                if destination.startswith("-"):
                    raise InputError(f"destination = {destination!r}: expected user@host:/path/ or a folder",
                                     source=_SOURCE)
                values["destination"] = destination if _is_remote_url(destination) else str(
                    _local_path(destination, base))
            if "options" in table:
                options = table["options"]
                if not isinstance(options, list) or not all(isinstance(option, str) for option in options):
                    raise InputError(f"options = {options!r}: expected a list of strings such as "
                                     f"{list(DEFAULT_RSYNC_OPTIONS)}", source=_SOURCE)
                values["options"] = tuple(options)
        elif target == "s3":
            values["bucket"] = get("bucket")
            values["prefix"] = get("prefix", "")
            endpoint = get("endpoint_url")
            if endpoint is not None and not re.match(r"https?://", endpoint):
                raise InputError(f"endpoint_url = {endpoint!r}: expected an http:// or https:// URL", source=_SOURCE)
            values["endpoint_url"] = endpoint
            values["region"] = get("region")
        else:
            command = get("command")
            if command is not None:
                try:
                    words = shlex.split(command)
                except ValueError as error:
                    raise InputError(f"command = {command!r}: {error}", source=_SOURCE) from None
                if not words:
                    raise InputError("command is empty", source=_SOURCE)
            values["command"] = command
            values["cwd"] = base
        return cls(**values)


def publish(out_dir: Path, settings: PublishSettings, sleep: Callable[[float], Any] = time.sleep,
            log: Callable[[str], Any] = print) -> PublishReport:
    """Publish the site in ``out_dir`` to ``settings.target``, retrying the whole step with backoff."""
    out_dir = Path(out_dir)
    if not out_dir.is_dir():
        raise InputError(f"no site folder {out_dir}: build the site first (python -m site_builder build)")
    out_dir = out_dir.resolve()  # the builder's output is a symbolic link to the current build
    step = _STEPS[settings.target]
    _PRECHECKS[settings.target](out_dir, settings)
    attempts = settings.retries + 1
    spent = 0.0
    for attempt in range(1, attempts + 1):
        started = time.monotonic()
        try:
            counts = step(out_dir, settings, log)
        except InputError:
            raise
        except Exception as error:
            spent += time.monotonic() - started
            reason = _one_line(str(error) or type(error).__name__)
            if attempt == attempts:
                raise PublishError(f"{settings.target}: {reason} (after {attempt} attempt{'s' if attempt > 1 else ''})",
                                   target=settings.target, attempts=attempt) from error
            delay = settings.backoff * 2 ** (attempt - 1)
            log(f"publish to {settings.target} failed (attempt {attempt} of {attempts}): {reason}; "
                f"retrying in {delay:g} s")
            sleep(delay)
        else:
            spent += time.monotonic() - started
            return PublishReport(target=settings.target, attempts=attempt, duration=spent, **counts)
    raise AssertionError("unreachable")  # pragma: no cover


# -- helpers ---------------------------------------------------------------------------------------


class _StepError(RuntimeError):
    """One attempt failed (retried by :func:`publish`)."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _last_line(*texts: str | None) -> str:
    for text in texts:
        lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
        if lines:
            return lines[-1]
    return ""


def _git_reason(result: subprocess.CompletedProcess[str]) -> str:
    """git's own reason: a rejected ref of ``push --porcelain``, else its first ``fatal:``/``error:`` line."""
    for line in result.stdout.splitlines():
        if line.startswith("!\t"):
            return " ".join(line.split("\t")[1:])
    lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else f"status {result.returncode}"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _is_remote_url(value: str) -> bool:
    """``scheme://...`` or scp-like ``[user@]host:path`` (a colon before any slash), as git and rsync read them."""
    return "://" in value or bool(re.match(r"[^/]*:", value))


def _local_path(value: Any, base: Path) -> Path | None:
    if value is None:
        return None
    path = Path(os.path.expanduser(value))
    return path if path.is_absolute() else (base / path).resolve()


def site_files(out_dir: Path) -> list[str]:
    """The files of the site, as sorted ``/``-separated paths relative to ``out_dir``."""
    files = []
    for folder, _dirs, names in os.walk(out_dir):
        for name in names:
            relative = (Path(folder) / name).relative_to(out_dir).as_posix()
            if relative not in SKIP_AT_ROOT and (Path(folder) / name).is_file():
                files.append(relative)
    return sorted(files)


def _skip_at_root(out_dir: Path) -> Callable[[str, list[str]], list[str]]:
    return lambda folder, names: [name for name in names if Path(folder) == out_dir and name in SKIP_AT_ROOT]


def _copy_file(source: str, destination: str) -> object:
    """One file copy (a seam for the tests, which inject failures here)."""
    return shutil.copy2(source, destination)


_TEXT = "charset=utf-8"
CONTENT_TYPES = {
    ".html": f"text/html; {_TEXT}", ".htm": f"text/html; {_TEXT}", ".css": "text/css",
    ".js": "application/javascript", ".mjs": "application/javascript", ".json": "application/json",
    ".map": "application/json", ".csv": f"text/csv; {_TEXT}", ".txt": f"text/plain; {_TEXT}",
    ".trf": f"text/plain; {_TEXT}", ".toml": f"text/plain; {_TEXT}", ".xml": "application/xml",
    ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml", ".png": "image/png",
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
    ".avif": "image/avif", ".ico": "image/x-icon", ".woff": "font/woff", ".woff2": "font/woff2",
    ".ttf": "font/ttf", ".otf": "font/otf", ".pdf": "application/pdf",
}
_NO_CACHE_SUFFIXES = {".html", ".htm", ".json", ".csv", ".txt", ".trf", ".toml", ".xml", ".webmanifest"}
NO_CACHE = "no-cache, max-age=0, must-revalidate"
IMMUTABLE = "public, max-age=31536000, immutable"
SHORT_CACHE = "public, max-age=3600"
_HASHED_NAME = re.compile(r"[.-](?=[0-9a-f]*[0-9])[0-9a-f]{8,64}\.[A-Za-z0-9]+$", re.IGNORECASE)


def content_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    guessed, _ = mimetypes.guess_type(path)
    return guessed or "application/octet-stream"


def cache_control(path: str) -> str:
    """Pages and data must revalidate; static assets are cached, for a year when their names carry a hash."""
    name = PurePosixPath(path).name
    if PurePosixPath(path).suffix.lower() in _NO_CACHE_SUFFIXES:
        return NO_CACHE
    return IMMUTABLE if _HASHED_NAME.search(name) else SHORT_CACHE


def _is_page(path: str) -> bool:
    return PurePosixPath(path).suffix.lower() in (".html", ".htm")


def _page_order(path: str) -> tuple[int, int, str]:
    """Pages before the index pages that link to them, the deepest first, the root index.html last."""
    parts = PurePosixPath(path).parts
    return (PurePosixPath(path).name == "index.html", -len(parts), path)


# -- dir -------------------------------------------------------------------------------------------


def _check_dir(out_dir: Path, settings: PublishSettings) -> None:
    destination = Path(settings.path).resolve()  # type: ignore[arg-type]
    if destination == out_dir or out_dir in destination.parents or destination in out_dir.parents:
        raise InputError(f"path = {str(destination)!r}: must be outside the site folder {out_dir}", source=_SOURCE)


def _publish_dir(out_dir: Path, settings: PublishSettings, log: Callable[[str], Any]) -> dict[str, Any]:
    destination = Path(settings.path).absolute()  # type: ignore[arg-type]
    parent = destination.parent
    parent.mkdir(parents=True, exist_ok=True)
    if destination.exists() and not destination.is_dir():
        raise _StepError(f"{destination} exists and is not a folder")
    for leftover in parent.glob(f".{destination.name}.tiebreak-new-*"):  # from an attempt that died
        shutil.rmtree(leftover, ignore_errors=True)

    files = site_files(out_dir)
    old_files = set(site_files(destination)) if destination.is_dir() else set()
    changed = [name for name in files if name not in old_files
               or not filecmp.cmp(out_dir / name, destination / name, shallow=False)]

    token = uuid.uuid4().hex[:12]
    new = parent / f".{destination.name}.tiebreak-new-{token}"
    try:
        shutil.copytree(out_dir, new, copy_function=_copy_file, ignore=_skip_at_root(out_dir))
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    old = parent / f".{destination.name}.tiebreak-old-{token}"
    if destination.is_dir() and not destination.is_symlink() and _exchange(new, destination):
        shutil.rmtree(new, ignore_errors=True)  # the old site, swapped out in one step
    elif destination.exists() or destination.is_symlink():
        os.rename(destination, old)
        try:
            os.rename(new, destination)
        except BaseException:
            os.rename(old, destination)
            shutil.rmtree(new, ignore_errors=True)
            raise
    else:
        os.rename(new, destination)
    for stale in parent.glob(f".{destination.name}.tiebreak-old-*"):
        if stale.is_symlink():
            stale.unlink()
        else:
            shutil.rmtree(stale, ignore_errors=True)
    return {"uploaded": len(changed), "deleted": len(old_files - set(files)),
            "unchanged": len(files) - len(changed), "detail": str(destination)}


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(first), at_fdcwd, os.fsencode(second), rename_exchange) == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EXDEV):  # old kernel or file system: rename instead
        return False
    raise OSError(error, os.strerror(error), str(second))


# -- git -------------------------------------------------------------------------------------------

_GIT_OPTIONS = ("-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "commit.gpgsign=false",
                "-c", "core.quotepath=false", "-c", "advice.detachedHead=false", "-c", "gc.auto=0",
                "-c", "core.hooksPath=/dev/null")  # a throw-away clone: no hooks, no signing, bytes as they are
_GIT_KEEP_ENV = re.compile(r"GIT_(SSH|SSH_COMMAND|SSH_VARIANT|ASKPASS|PROXY_COMMAND|SSL_.*|HTTP_.*|CURL_.*|TRACE.*"
                           r"|CONFIG_NOSYSTEM|CONFIG_GLOBAL)")
_MAX_PUSH_ROUNDS = 5
KEEP_IN_BRANCH = ("CNAME",)  # a GitHub Pages custom domain set on the branch survives a publish


def _check_git(out_dir: Path, settings: PublishSettings) -> None:
    if shutil.which("git") is None:
        raise InputError("the git publisher needs git: install it (apt-get install git)", source=_SOURCE)


def _git_env(settings: PublishSettings) -> dict[str, str]:
    """The caller's environment (ssh agent, credential helpers) without a repository of its own, plus an identity."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("GIT_") or _GIT_KEEP_ENV.fullmatch(key)}
    env.update(GIT_AUTHOR_NAME=settings.author_name, GIT_AUTHOR_EMAIL=settings.author_email,
               GIT_COMMITTER_NAME=settings.author_name, GIT_COMMITTER_EMAIL=settings.author_email,
               GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def _run_git(args: list[str], cwd: Path, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """Run one git command (a seam for the tests)."""
    return subprocess.run(["git", *_GIT_OPTIONS, *args], cwd=cwd, env=dict(env), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def _publish_git(out_dir: Path, settings: PublishSettings, log: Callable[[str], Any]) -> dict[str, Any]:
    env = _git_env(settings)
    branch = settings.branch
    tracking = f"refs/remotes/origin/{branch}"

    with tempfile.TemporaryDirectory(prefix="tiebreak-publish-git-") as temporary:
        work = Path(temporary) / "site"
        work.mkdir()

        def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
            result = _run_git(list(args), work, env)
            if check and result.returncode != 0:
                raise _StepError(f"git {args[0]} failed: {_git_reason(result)}")
            return result

        git("init", "-q")
        git("symbolic-ref", "HEAD", f"refs/heads/{branch}")
        git("remote", "add", "origin", settings.remote or "")
        files = site_files(out_dir)
        for name in files:
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            _copy_file(str(out_dir / name), str(work / name))
        (work / ".nojekyll").touch()
        kept = [name for name in KEEP_IN_BRANCH if name not in files]

        for round_ in range(1, _MAX_PUSH_ROUNDS + 1):
            for name in kept:
                (work / name).unlink(missing_ok=True)
            exists = bool(git("ls-remote", "--heads", "origin", f"refs/heads/{branch}").stdout.strip())
            if exists:
                git("fetch", "-q", "--depth=1", "origin", f"+refs/heads/{branch}:{tracking}")
                git("reset", "-q", tracking)  # HEAD and index at the remote branch; the work tree is the site
                present = git("ls-tree", "--name-only", tracking, "--", *kept).stdout.split() if kept else []
                if present:
                    git("checkout", tracking, "--", *present)
            else:  # a new orphan branch
                git("update-ref", "-d", f"refs/heads/{branch}")
                git("read-tree", "--empty")
            git("add", "--all", "--force", ".")
            status = git("diff", "--cached", "--name-status", "--no-renames", "-z").stdout.split("\0")
            letters = status[0::2]
            added = sum(1 for letter in letters if letter in ("A", "M", "T"))
            deleted = sum(1 for letter in letters if letter == "D")
            total = len([name for name in git("ls-files", "-z").stdout.split("\0") if name])
            counts = {"uploaded": added, "deleted": deleted, "unchanged": total - added}
            if added == 0 and deleted == 0:
                return {**counts, "detail": f"no change on {branch}"}
            git("commit", "-q", "--no-verify", "-m", settings.message)
            commit = git("rev-parse", "--short", "HEAD").stdout.strip()
            pushed = git("push", "--porcelain", "--no-verify", "origin", f"HEAD:refs/heads/{branch}", check=False)
            if pushed.returncode == 0:
                return {**counts, "detail": f"commit {commit} on {branch}"}
            output = pushed.stdout + pushed.stderr
            if "[rejected]" not in output:
                raise _StepError(f"git push failed: {_git_reason(pushed)}")
            log(f"the remote branch {branch} moved (push {round_} rejected); fetching and trying again")
        raise _StepError(f"git push rejected {_MAX_PUSH_ROUNDS} times: the branch {branch} keeps moving")


# -- rsync -----------------------------------------------------------------------------------------

_ITEM = re.compile(r"^[<>]f\S{9,10} (.+)$")  # a file sent (to a host) or received (locally)
_DELETING = re.compile(r"^\*deleting +(.+)$")


def _check_rsync(out_dir: Path, settings: PublishSettings) -> None:
    if shutil.which("rsync") is None:
        raise InputError("the rsync publisher needs rsync: install it (apt-get install rsync)", source=_SOURCE)


def _publish_rsync(out_dir: Path, settings: PublishSettings, log: Callable[[str], Any]) -> dict[str, Any]:
    destination = settings.destination or ""
    if not _is_remote_url(destination):
        Path(destination).parent.mkdir(parents=True, exist_ok=True)
    excludes = [f"--exclude=/{name}" for name in sorted(SKIP_AT_ROOT)]
    command = ["rsync", *settings.options, *excludes, "--itemize-changes", f"{out_dir}/", destination]
    result = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        # rsync's (or ssh's) first error line says why; its last one is a generic "rsync error: ... (code N)"
        reason = _first_line(result.stderr) or _last_line(result.stdout)
        raise _StepError(f"rsync exited with status {result.returncode}: {reason}")
    lines = result.stdout.splitlines()
    uploaded = sum(1 for line in lines if _ITEM.match(line))
    deleted = sum(1 for line in lines if (match := _DELETING.match(line)) and not match.group(1).endswith("/"))
    files = len(site_files(out_dir))
    return {"uploaded": uploaded, "deleted": deleted, "unchanged": max(files - uploaded, 0), "detail": destination}


# -- s3 --------------------------------------------------------------------------------------------


def _check_s3(out_dir: Path, settings: PublishSettings) -> None:
    try:
        import boto3  # noqa: F401  (an optional extra)
    except ImportError:
        raise InputError(f"the s3 publisher needs boto3: {S3_EXTRA}", source=_SOURCE) from None


def _make_s3_client(settings: PublishSettings) -> Any:
    """The S3 client (a seam for the tests); credentials come from the environment, never from config.toml."""
    import boto3
    from botocore.config import Config

    options: dict[str, Any] = {"retries": {"max_attempts": 3, "mode": "standard"}}
    if settings.endpoint_url:  # S3-compatible storage: path-style addressing and no new-style checksums
        options["s3"] = {"addressing_style": "path"}
        options["request_checksum_calculation"] = "when_required"
        options["response_checksum_validation"] = "when_required"
    try:
        config = Config(**options)
    except TypeError:  # an older botocore without the checksum options
        options.pop("request_checksum_calculation", None)
        options.pop("response_checksum_validation", None)
        config = Config(**options)
    return boto3.client("s3", endpoint_url=settings.endpoint_url, region_name=settings.region, config=config)


def _s3_prefix(prefix: str) -> str:
    prefix = prefix.strip("/")
    return f"{prefix}/" if prefix else ""


def _publish_s3(out_dir: Path, settings: PublishSettings, log: Callable[[str], Any]) -> dict[str, Any]:
    client = _make_s3_client(settings)
    bucket = settings.bucket
    prefix = _s3_prefix(settings.prefix)
    remote: dict[str, str] = {}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            remote[item["Key"]] = item.get("ETag", "").strip('"')

    files = site_files(out_dir)
    digests: dict[str, bytes] = {}
    changed = []
    for name in files:
        digest = hashlib.md5((out_dir / name).read_bytes(), usedforsecurity=False).digest()
        digests[name] = digest
        if remote.get(prefix + name) != digest.hex():
            changed.append(name)
    assets = [name for name in changed if not _is_page(name)]
    pages = sorted((name for name in changed if _is_page(name)), key=_page_order)
    for name in assets + pages:  # new files first, the pages that link to them last
        with (out_dir / name).open("rb") as body:
            client.put_object(Bucket=bucket, Key=prefix + name, Body=body, ContentType=content_type(name),
                              CacheControl=cache_control(name),
                              ContentMD5=base64.b64encode(digests[name]).decode("ascii"))

    wanted = {prefix + name for name in files}
    stale = sorted(key for key in remote if key not in wanted and not key.endswith("/"))
    for start in range(0, len(stale), 1000):
        chunk = stale[start:start + 1000]
        answer = client.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": key} for key in chunk],
                                                              "Quiet": True})
        errors = answer.get("Errors") or []
        if errors:
            first = errors[0]
            raise _StepError(f"s3 could not delete {first.get('Key')}: {first.get('Code')} {first.get('Message', '')}")
    return {"uploaded": len(changed), "deleted": len(stale), "unchanged": len(files) - len(changed),
            "detail": f"s3://{bucket}/{prefix}"}


# -- command ---------------------------------------------------------------------------------------


def _command_words(out_dir: Path, settings: PublishSettings) -> list[str]:
    return [word.replace("{out}", str(out_dir)) for word in shlex.split(settings.command or "")]


def _check_command(out_dir: Path, settings: PublishSettings) -> None:
    program = _command_words(out_dir, settings)[0]
    if "/" in program:
        path = Path(program) if Path(program).is_absolute() else Path(settings.cwd or ".") / program
        found = path.is_file() and os.access(path, os.X_OK)
    else:
        found = shutil.which(program) is not None
    if not found:
        raise InputError(f"command: no program {program!r} (not found or not executable)", source=_SOURCE)


def _publish_command(out_dir: Path, settings: PublishSettings, log: Callable[[str], Any]) -> dict[str, Any]:
    words = _command_words(out_dir, settings)
    env = dict(os.environ, TIEBREAK_SITE_DIR=str(out_dir))
    result = subprocess.run(words, cwd=settings.cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if result.returncode != 0:
        reason = _last_line(result.stderr, result.stdout) or "no output"
        raise _StepError(f"{PurePosixPath(words[0]).name} exited with status {result.returncode}: {reason}")
    return {"uploaded": len(site_files(out_dir)), "detail": _last_line(result.stdout)}


_STEPS: dict[str, Callable[[Path, PublishSettings, Callable[[str], Any]], dict[str, Any]]] = {
    "dir": _publish_dir, "git": _publish_git, "rsync": _publish_rsync, "s3": _publish_s3, "command": _publish_command,
}
_PRECHECKS: dict[str, Callable[[Path, PublishSettings], None]] = {
    "dir": _check_dir, "git": _check_git, "rsync": _check_rsync, "s3": _check_s3, "command": _check_command,
}

__all__ = ["PublishError", "PublishReport", "PublishSettings", "cache_control", "content_type", "publish", "site_files"]
