"""``target = "git"``: commit the site to a branch (``gh-pages``) of a fresh work tree and push
it; a push lands the whole commit or nothing, and a push rejected because the remote moved is
fetched and tried again."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ranking import InputError
from site_builder.publishers import (
    SOURCE,
    AttemptFailed,
    Counts,
    Log,
    PublishSettings,
    copy_file,
    is_remote_url,
    local_path,
    site_files,
)
from tiebreak.library import child_environment  # the bot's variables (its token) stay out

_BRANCH = re.compile(r"(?!-)(?!.*\.\.)(?!.*//)[A-Za-z0-9._/-]+(?<![./])")
_GIT_OPTIONS = ("-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "commit.gpgsign=false",
                "-c", "core.quotepath=false", "-c", "advice.detachedHead=false", "-c", "gc.auto=0",
                "-c", "core.hooksPath=/dev/null")  # a throw-away clone: no hooks, no signing, bytes as they are
_GIT_KEEP_ENV = re.compile(r"GIT_(SSH|SSH_COMMAND|SSH_VARIANT|ASKPASS|PROXY_COMMAND|SSL_.*|HTTP_.*|CURL_.*|TRACE.*"
                           r"|CONFIG_NOSYSTEM|CONFIG_GLOBAL)")
_MAX_PUSH_ROUNDS = 5
KEEP_IN_BRANCH = ("CNAME",)  # a GitHub Pages custom domain set on the branch survives a publish


@dataclass(frozen=True, kw_only=True)
class GitSettings(PublishSettings):
    """``target = "git"``: ``remote`` (a URL, or a path from the folder of config.toml), ``branch``,
    and the commits' author and message."""

    target: ClassVar[str] = "git"
    keys: ClassVar[tuple[str, ...]] = ("remote", "branch", "author_name", "author_email", "message")
    required: ClassVar[str] = "remote"

    remote: str
    branch: str = "gh-pages"
    author_name: str = "Tiebreak"
    author_email: str = "tiebreak@localhost"
    message: str = "Update standings"

    @classmethod
    def from_table(cls, table: Mapping[str, Any], base: Path) -> GitSettings:
        remote = table["remote"]
        values: dict[str, Any] = {"remote": remote if is_remote_url(remote) else str(local_path(remote, base))}
        for key in ("branch", "author_name", "author_email", "message"):
            if key in table:
                values[key] = table[key].strip()
        branch = values.get("branch", "gh-pages")
        if not _BRANCH.fullmatch(branch) or branch.endswith(".lock"):
            raise InputError(f"branch = {branch!r}: expected a git branch name such as 'gh-pages'", source=SOURCE)
        return cls(**values, **cls.common(table))

    def check(self, out_dir: Path) -> None:
        if shutil.which("git") is None:
            raise InputError("the git publisher needs git: install it (apt-get install git)", source=SOURCE)

    def attempt(self, out_dir: Path, log: Log) -> Counts:
        env = _git_env(self)
        branch = self.branch
        tracking = f"refs/remotes/origin/{branch}"

        with tempfile.TemporaryDirectory(prefix="tiebreak-publish-git-") as temporary:
            work = Path(temporary) / "site"
            work.mkdir()

            def git(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
                result = _run_git(list(args), work, env)
                if check and result.returncode != 0:
                    raise AttemptFailed(f"git {args[0]} failed: {_git_reason(result)}")
                return result

            git("init", "-q")
            git("symbolic-ref", "HEAD", f"refs/heads/{branch}")
            git("remote", "add", "origin", self.remote)
            files = site_files(out_dir)
            linking = True  # git only reads the work tree's files: hard links to the site's do, where they can
            for name in files:
                (work / name).parent.mkdir(parents=True, exist_ok=True)
                if linking:
                    try:
                        os.link(out_dir / name, work / name)
                        continue
                    except OSError:  # another file system: copies
                        linking = False
                copy_file(str(out_dir / name), str(work / name))
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
                git("commit", "-q", "--no-verify", "-m", self.message)
                commit = git("rev-parse", "--short", "HEAD").stdout.strip()
                pushed = git("push", "--porcelain", "--no-verify", "origin", f"HEAD:refs/heads/{branch}", check=False)
                if pushed.returncode == 0:
                    return {**counts, "detail": f"commit {commit} on {branch}"}
                output = pushed.stdout + pushed.stderr
                if "[rejected]" not in output:
                    raise AttemptFailed(f"git push failed: {_git_reason(pushed)}")
                log(f"the remote branch {branch} moved (push {round_} rejected); fetching and trying again")
            raise AttemptFailed(f"git push rejected {_MAX_PUSH_ROUNDS} times: the branch {branch} keeps moving")


def _git_env(settings: GitSettings) -> dict[str, str]:
    """The caller's environment (ssh agent, credential helpers) without a repository of its own or the
    bot's variables, plus an identity."""
    env = {key: value for key, value in child_environment().items()
           if not key.startswith("GIT_") or _GIT_KEEP_ENV.fullmatch(key)}
    env.update(GIT_AUTHOR_NAME=settings.author_name, GIT_AUTHOR_EMAIL=settings.author_email,
               GIT_COMMITTER_NAME=settings.author_name, GIT_COMMITTER_EMAIL=settings.author_email,
               GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def _run_git(args: list[str], cwd: Path, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """Run one git command (a seam for the tests)."""
    return subprocess.run(["git", *_GIT_OPTIONS, *args], cwd=cwd, env=dict(env), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


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
