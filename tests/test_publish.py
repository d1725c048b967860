"""Publishers: dir, git (a real bare repository), rsync (a local folder), s3 (moto's server on 127.0.0.1), command."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ranking.errors import InputError
from site_builder import (
    DirSettings,
    GitSettings,
    PublishError,
    PublishReport,
    PublishSettings,
    RsyncSettings,
    S3Settings,
    publish,
    settings_from_config,
)
from site_builder.publishers import dir as dir_target
from site_builder.publishers import git as git_target
from site_builder.publishers import rsync as rsync_target
from site_builder.publishers import s3 as s3_target
from site_builder.publishers import site_files
from site_builder.publishers.s3 import IMMUTABLE, NO_CACHE, SHORT_CACHE, cache_control, content_type

SITE = {
    "index.html": "<!doctype html><title>Tournaments</title>",
    "hanoi/index.html": "<!doctype html><title>Hanoi standings</title>",
    "hanoi/round-1.html": "<!doctype html><title>Round 1</title>",
    "hanoi/players/1.html": "<!doctype html><title>Lại Lý Huynh</title>",
    "hanoi/standings.json": '{"standings": []}',
    "hanoi/standings.csv": "rank,name\n1,Lại Lý Huynh\n",
    "static/style.css": "body { margin: 0 }",
    "static/tables.3f2a9c1b.js": "// sorting",
    "static/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
}


def write_site(folder: Path, files: dict[str, str]) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    (folder / ".manifest.json").write_text("{}", encoding="utf-8")  # the builder's bookkeeping: never published
    return folder


def read_tree(folder: Path) -> dict[str, str]:
    return {name: (folder / name).read_text(encoding="utf-8") for name in site_files(folder)}


def changed_site() -> dict[str, str]:
    site = dict(SITE)
    site["hanoi/index.html"] = "<!doctype html><title>Hanoi standings after round 2</title>"
    site["hanoi/round-2.html"] = "<!doctype html><title>Round 2</title>"
    del site["static/logo.svg"]
    return site


def apply_changes(folder: Path) -> None:
    """Turn the published ``SITE`` in ``folder`` into ``changed_site()``, leaving the other files untouched."""
    for name, text in changed_site().items():
        if SITE.get(name) != text:
            (folder / name).write_text(text, encoding="utf-8")
    for name in SITE.keys() - changed_site().keys():
        (folder / name).unlink()


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return write_site(tmp_path / "public", SITE)


def quiet(_message: str) -> None:
    pass


# -- settings --------------------------------------------------------------------------------------


def test_settings_defaults_and_paths(tmp_path: Path) -> None:
    settings = settings_from_config({"target": "dir", "path": "www"}, tmp_path)
    assert settings.path == tmp_path / "www"
    assert (settings.retries, settings.backoff) == (3, 2.0)

    git = settings_from_config({"target": "git", "remote": "../pages.git"}, tmp_path / "site")
    assert git.remote == str(tmp_path / "pages.git")
    assert (git.branch, git.message) == ("gh-pages", "Update standings")
    for url in ("git@github.com:club/results.git", "https://example.org/club/results.git"):
        assert settings_from_config({"target": "git", "remote": url}, tmp_path).remote == url

    rsync = settings_from_config({"target": "rsync", "destination": "deploy@host:/srv/www/"}, tmp_path)
    assert rsync.destination == "deploy@host:/srv/www/"
    assert rsync.options == ("-a", "--delete-delay", "--delay-updates")

    s3 = settings_from_config({"target": "s3", "bucket": "results", "prefix": "club",
                               "endpoint_url": "http://127.0.0.1:9000", "region": "eu-west-1",
                               "retries": 0, "backoff": 0.5, "path": "ignored: another target's key"},
                              tmp_path)
    assert (s3.bucket, s3.prefix, s3.retries, s3.backoff) == ("results", "club", 0, 0.5)

    command = settings_from_config({"target": "command", "command": "./deploy.sh {out}"}, tmp_path)
    assert command.cwd == tmp_path


@pytest.mark.parametrize(("table", "words"), [
    ({}, ["target", "dir, git, rsync, s3, command"]),
    ({"target": "ftp"}, ["target", "'ftp'", "dir, git, rsync, s3, command"]),
    ({"target": "dir"}, ["'path'"]),
    ({"target": "git"}, ["'remote'"]),
    ({"target": "git", "remote": "x.git", "branch": "bad..name"}, ["branch", "gh-pages"]),
    ({"target": "rsync", "destination": "/srv/www", "options": "-a"}, ["options", "list of strings"]),
    ({"target": "s3"}, ["'bucket'"]),
    ({"target": "s3", "bucket": "b", "aws_secret_access_key": "x"}, ["aws_secret_access_key", "AWS_ACCESS_KEY_ID",
                                                                     "environment"]),
    ({"target": "s3", "bucket": "b", "endpoint_url": "127.0.0.1:9000"}, ["endpoint_url", "http://"]),
    ({"target": "command", "command": "deploy 'unclosed"}, ["command"]),
    ({"target": "command", "command": "  "}, ["command", "non-empty"]),
    ({"target": "dir", "path": "www", "retries": -1}, ["retries", "≥ 0"]),
    ({"target": "dir", "path": "www", "retries": True}, ["retries"]),
    ({"target": "dir", "path": "www", "backoff": "2s"}, ["backoff"]),
    ({"target": "dir", "path": "www", "folder": "x"}, ["unknown key 'folder'", "path"]),
    ({"target": "dir", "path": 3}, ["path", "non-empty string"]),
    ({"target": ["dir"], "path": "www"}, ["target = ['dir']", "dir, git, rsync, s3, command"]),
    ({"target": "ftp", "folder": "x"}, ["unknown key 'folder'", "bucket", "path", "remote"]),
])
def test_settings_errors_name_the_key_and_the_accepted_values(tmp_path: Path, table: dict, words: list[str]) -> None:
    with pytest.raises(InputError) as caught:
        settings_from_config(table, tmp_path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("[publish]")
    for word in words:
        assert word in message


def test_a_publish_loads_its_own_publisher_and_takes_the_keys_of_the_others() -> None:
    """A ``dir`` publish imports no other publisher (start-up time), and a key of another target
    is still taken (to switch ``target`` back and forth)."""
    code = ("import sys, pathlib; from site_builder.publishers.config import settings_from_config; "
            "settings_from_config({'target': 'dir', 'path': 'www'}, pathlib.Path('.')); "
            "print(sorted(m for m in sys.modules if m.startswith('site_builder.publishers.'))); "
            "settings_from_config({'target': 'dir', 'path': 'www', 'bucket': 'b', 'remote': 'x.git'}, "
            "pathlib.Path('.')); "
            "print(sorted(m for m in sys.modules if m.startswith('site_builder.publishers.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.splitlines() == [
        "['site_builder.publishers.config', 'site_builder.publishers.dir']",
        "['site_builder.publishers.command', 'site_builder.publishers.config', 'site_builder.publishers.dir', "
        "'site_builder.publishers.git', 'site_builder.publishers.rsync', 'site_builder.publishers.s3']"]


def test_content_types_and_cache_headers() -> None:
    assert content_type("a/index.html") == "text/html; charset=utf-8"
    assert content_type("static/style.css") == "text/css"
    assert content_type("static/tables.js") == "application/javascript"
    assert content_type("standings.json") == "application/json"
    assert content_type("standings.csv") == "text/csv; charset=utf-8"
    assert content_type("logo.svg") == "image/svg+xml"
    assert content_type("font.woff2") == "font/woff2"
    assert content_type("blob.unknownext") == "application/octet-stream"
    for page in ("index.html", "hanoi/standings.json", "hanoi/standings.csv"):
        assert cache_control(page) == NO_CACHE == "no-cache, max-age=0, must-revalidate"
    assert cache_control("static/tables.3f2a9c1b.js") == IMMUTABLE == "public, max-age=31536000, immutable"
    assert cache_control("static/app-0123456789abcdef.css") == IMMUTABLE
    assert cache_control("static/style.css") == SHORT_CACHE == "public, max-age=3600"
    assert cache_control("static/deadbeef.css") == SHORT_CACHE  # a word, not a hash
    assert cache_control("static/standings.css") == SHORT_CACHE


def test_missing_site_folder_is_an_input_error(tmp_path: Path) -> None:
    settings = DirSettings(path=tmp_path / "www")
    with pytest.raises(InputError, match="build the site first"):
        publish(tmp_path / "nothing-here", settings, log=quiet)


# -- dir -------------------------------------------------------------------------------------------


def test_dir_publish_swaps_in_a_complete_folder_and_updates_it(site: Path, tmp_path: Path) -> None:
    destination = tmp_path / "www" / "results"
    settings = DirSettings(path=destination)
    report = publish(site, settings, log=quiet)
    assert isinstance(report, PublishReport)
    assert (report.target, report.attempts, report.uploaded, report.deleted) == ("dir", 1, len(SITE), 0)
    assert read_tree(destination) == SITE
    assert not (destination / ".manifest.json").exists()
    assert "uploaded" in str(report) and "\n" not in str(report)

    again = publish(site, settings, log=quiet)
    assert (again.uploaded, again.deleted, again.unchanged) == (0, 0, len(SITE))

    apply_changes(site)
    report = publish(site, settings, log=quiet)
    assert read_tree(destination) == changed_site()
    assert (report.uploaded, report.deleted, report.unchanged) == (2, 1, len(SITE) - 2)
    # no temporary folder left behind, only the site swapped out, which the next publish brings up to date
    assert sorted(p.name for p in destination.parent.iterdir()) == [".results.tiebreak-spare", "results"]


def test_dir_swap_by_renames_where_an_exchange_is_not_available(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dir_target, "_exchange", lambda first, second: False)
    destination = tmp_path / "www"
    publish(site, DirSettings(path=destination), log=quiet)
    apply_changes(site)
    publish(site, DirSettings(path=destination), log=quiet)
    assert read_tree(destination) == changed_site()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".www.tiebreak-spare", "public", "www"]


def test_dir_failure_mid_copy_leaves_the_old_folder_and_a_retry_fixes_it(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    destination = tmp_path / "www"
    settings = DirSettings(path=destination)
    publish(site, settings, log=quiet)
    apply_changes(site)

    copies = {"count": 0}
    real_copy = dir_target.copy_file

    def failing_copy(source: str, target: str) -> object:
        copies["count"] += 1
        if copies["count"] == 1:  # the first attempt dies part-way (the unchanged files are linked already)
            raise OSError(28, "No space left on device")
        return real_copy(source, target)

    monkeypatch.setattr(dir_target, "copy_file", failing_copy)
    seen_between_attempts = []

    def sleep(seconds: float) -> None:
        seen_between_attempts.append((seconds, read_tree(destination)))

    messages: list[str] = []
    report = publish(site, settings, sleep=sleep, log=messages.append)
    assert seen_between_attempts == [(2.0, SITE)]  # the old site, complete, while waiting to retry
    assert report.attempts == 2
    assert read_tree(destination) == changed_site()
    assert any("No space left on device" in message and "retrying in 2 s" in message for message in messages)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".www.tiebreak-spare", "public", "www"]


def test_dir_failure_without_retries_raises_and_keeps_the_old_site(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    destination = tmp_path / "www"
    publish(site, DirSettings(path=destination), log=quiet)
    apply_changes(site)

    def broken_copy(source: str, target: str) -> object:
        raise PermissionError(13, "Permission denied", target)

    monkeypatch.setattr(dir_target, "copy_file", broken_copy)
    with pytest.raises(PublishError) as caught:
        publish(site, DirSettings(path=destination, retries=0), log=quiet)
    assert "\n" not in str(caught.value) and "Permission denied" in str(caught.value)
    assert caught.value.attempts == 1
    assert read_tree(destination) == SITE


def test_dir_destination_inside_the_site_is_refused(site: Path) -> None:
    with pytest.raises(InputError, match="outside the site folder"):
        publish(site, DirSettings(path=site / "copy"), log=quiet)


# -- git -------------------------------------------------------------------------------------------


def git(*args: str, cwd: Path | None = None) -> str:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="Other", GIT_AUTHOR_EMAIL="other@example.org", GIT_COMMITTER_NAME="Other",
               GIT_COMMITTER_EMAIL="other@example.org", GIT_CONFIG_NOSYSTEM="1", HOME=str(cwd or Path.cwd()))
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return result.stdout


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    repository = tmp_path / "pages.git"
    git("init", "-q", "--bare", str(repository), cwd=tmp_path)
    return repository


def branch_files(repository: Path, branch: str = "gh-pages") -> dict[str, str]:
    names = git("--git-dir", str(repository), "ls-tree", "-r", "--name-only", branch).split("\n")
    return {name: git("--git-dir", str(repository), "show", f"{branch}:{name}") for name in names if name}


def commits(repository: Path, branch: str = "gh-pages") -> list[str]:
    return git("--git-dir", str(repository), "rev-list", branch).split()


def test_git_publish_creates_an_orphan_branch_and_commits_only_changes(site: Path, bare: Path) -> None:
    settings = settings_from_config({"target": "git", "remote": str(bare), "author_name": "Arbiter",
                                     "author_email": "arbiter@example.org"}, bare.parent)
    report = publish(site, settings, log=quiet)
    assert report.uploaded == len(SITE) + 1 and report.deleted == 0
    assert report.detail.startswith("commit ") and "gh-pages" in report.detail
    assert branch_files(bare) == {**SITE, ".nojekyll": ""}
    assert len(commits(bare)) == 1  # an orphan branch: no parent
    log = git("--git-dir", str(bare), "log", "-1", "--format=%an <%ae>|%cn|%s", "gh-pages").strip()
    assert log == "Arbiter <arbiter@example.org>|Arbiter|Update standings"

    again = publish(site, settings, log=quiet)
    assert (again.uploaded, again.deleted, again.unchanged) == (0, 0, len(SITE) + 1)
    assert "no change" in again.detail
    assert len(commits(bare)) == 1

    apply_changes(site)
    report = publish(site, settings, log=quiet)
    assert (report.uploaded, report.deleted) == (2, 1)
    assert branch_files(bare) == {**changed_site(), ".nojekyll": ""}
    assert len(commits(bare)) == 2


def test_git_publish_keeps_other_branches_and_a_cname(site: Path, bare: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git("clone", "-q", str(bare), str(clone), cwd=tmp_path)
    (clone / "README.md").write_text("the club's sources\n")
    git("add", "README.md", cwd=clone)
    git("commit", "-q", "-m", "sources", cwd=clone)
    git("push", "-q", "origin", "HEAD:refs/heads/main", cwd=clone)
    git("checkout", "-q", "--orphan", "gh-pages", cwd=clone)
    git("rm", "-q", "-r", "--cached", ".", cwd=clone)
    (clone / "README.md").unlink()
    (clone / "CNAME").write_text("results.example.org\n")
    (clone / "old.html").write_text("old\n")
    git("add", "CNAME", "old.html", cwd=clone)
    git("commit", "-q", "-m", "pages", cwd=clone)
    git("push", "-q", "origin", "gh-pages", cwd=clone)
    main_before = commits(bare, "main")

    report = publish(site, GitSettings(remote=str(bare)), log=quiet)
    assert report.deleted == 1  # old.html
    assert branch_files(bare) == {**SITE, ".nojekyll": "", "CNAME": "results.example.org\n"}
    assert len(commits(bare)) == 2  # on top of the branch's history, not a forced push
    assert commits(bare, "main") == main_before


def test_git_concurrent_push_is_fetched_and_retried(
        site: Path, bare: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = GitSettings(remote=str(bare))
    publish(site, settings, log=quiet)
    apply_changes(site)

    other = tmp_path / "other"
    git("clone", "-q", "--branch", "gh-pages", str(bare), str(other), cwd=tmp_path)
    real_run_git = git_target._run_git
    pushes = []

    def racing_run_git(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        if args[0] == "push":
            pushes.append(args)
            if len(pushes) == 1:  # someone else pushes to the branch just before us
                (other / "news.html").write_text("breaking news\n")
                git("add", "news.html", cwd=other)
                git("commit", "-q", "-m", "news", cwd=other)
                git("push", "-q", "origin", "gh-pages", cwd=other)
        return real_run_git(args, cwd, env)

    monkeypatch.setattr(git_target, "_run_git", racing_run_git)
    messages: list[str] = []
    sleeps = Sleeps()
    report = publish(site, settings, sleep=sleeps, log=messages.append)
    assert len(pushes) == 2 and report.attempts == 1 and sleeps == []
    assert any("moved" in message for message in messages)
    assert branch_files(bare) == {**changed_site(), ".nojekyll": ""}
    other_commit = git("rev-parse", "HEAD", cwd=other).strip()
    history = commits(bare)
    assert other_commit in history and len(history) == 3  # the other push is kept in the history


def test_git_unreachable_remote_fails_after_retries(site: Path, tmp_path: Path) -> None:
    sleeps = Sleeps()
    settings = GitSettings(remote=str(tmp_path / "missing.git"), retries=2, backoff=0.5)
    with pytest.raises(PublishError) as caught:
        publish(site, settings, sleep=sleeps, log=quiet)
    assert sleeps == [0.5, 1.0]
    assert caught.value.attempts == 3
    message = str(caught.value)
    assert "\n" not in message and message.startswith("git: git ls-remote failed: fatal: ")
    assert "does not appear to be a git repository" in message and message.endswith("(after 3 attempts)")


def test_git_push_refused_by_the_remote_changes_nothing(site: Path, bare: Path) -> None:
    settings = GitSettings(remote=str(bare), retries=1)
    publish(site, settings, log=quiet)
    hook = bare / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'quota exceeded' >&2\nexit 1\n")
    hook.chmod(0o755)
    apply_changes(site)
    sleeps = Sleeps()
    with pytest.raises(PublishError) as caught:
        publish(site, settings, sleep=sleeps, log=quiet)
    assert sleeps == [2.0]
    assert "[remote rejected] (pre-receive hook declined)" in str(caught.value)
    assert branch_files(bare) == {**SITE, ".nojekyll": ""} and len(commits(bare)) == 1
    hook.unlink()
    publish(site, settings, log=quiet)  # the retry, later, completes it
    assert branch_files(bare) == {**changed_site(), ".nojekyll": ""}


# -- rsync (needs the rsync program: apt-get install rsync; never skipped) ------------------------------


def test_rsync_to_a_local_folder(site: Path, tmp_path: Path) -> None:
    destination = tmp_path / "srv" / "www"
    settings = settings_from_config({"target": "rsync", "destination": "srv/www/"}, tmp_path)
    report = publish(site, settings, log=quiet)
    assert read_tree(destination) == SITE
    assert not (destination / ".manifest.json").exists()
    assert (report.uploaded, report.deleted) == (len(SITE), 0)

    apply_changes(site)
    report = publish(site, settings, log=quiet)
    assert read_tree(destination) == changed_site()
    assert (report.uploaded, report.deleted, report.unchanged) == (2, 1, len(SITE) - 2)
    assert not list(destination.rglob(".~tmp~"))


def test_rsync_missing_says_how_to_install_it(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rsync_target.shutil, "which", lambda name: None)
    with pytest.raises(InputError, match=r"apt-get install rsync"):
        publish(site, RsyncSettings(destination=str(tmp_path / "www")), log=quiet)


def test_rsync_failure_reports_its_last_error_line(site: Path, tmp_path: Path) -> None:
    settings = RsyncSettings(destination=str(tmp_path / "www"), options=("-a", "--no-such-option"),
                             retries=1)
    sleeps = Sleeps()
    with pytest.raises(PublishError, match=r"^rsync: rsync exited with status \d+: .*no-such-option") as caught:
        publish(site, settings, sleep=sleeps, log=quiet)
    assert sleeps == [2.0] and "\n" not in str(caught.value)


# -- s3 --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def s3_endpoint() -> str:
    from moto.server import ThreadedMotoServer  # moto[server] and boto3: test requirements, never skipped

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3(s3_endpoint: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    for key in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    import boto3

    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    bucket = f"results-{tmp_path.name.lower().replace('_', '-')}"[:60]
    client.create_bucket(Bucket=bucket)
    return client, bucket, s3_endpoint


def s3_objects(client, bucket: str) -> dict[str, str]:
    listing = client.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {item["Key"]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read().decode() for item in listing}


def record_puts(monkeypatch: pytest.MonkeyPatch, fail_at: int | None = None) -> list[str]:
    """Record the keys put, in order; make the ``fail_at``-th put of the first attempt fail."""
    puts: list[str] = []
    real_make = s3_target._make_s3_client
    state = {"clients": 0}

    def make(settings: S3Settings):
        client = real_make(settings)
        state["clients"] += 1
        attempt = state["clients"]

        def before_put(params, **_kwargs):
            puts.append(params["Key"])
            if attempt == 1 and fail_at is not None and len(puts) == fail_at:
                raise ConnectionError("connection reset by peer")

        client.meta.events.register("provide-client-params.s3.PutObject", before_put)
        return client

    monkeypatch.setattr(s3_target, "_make_s3_client", make)
    return puts


def test_s3_uploads_with_types_and_cache_headers_then_only_changes(
        site: Path, s3, monkeypatch: pytest.MonkeyPatch) -> None:
    client, bucket, endpoint = s3
    settings = settings_from_config({"target": "s3", "bucket": bucket, "prefix": "/club/",
                                     "endpoint_url": endpoint, "region": "us-east-1"}, site)
    puts = record_puts(monkeypatch)
    client.put_object(Bucket=bucket, Key="elsewhere.txt", Body=b"not under the prefix")
    report = publish(site, settings, log=quiet)
    assert (report.uploaded, report.deleted, report.unchanged) == (len(SITE), 0, 0)
    assert s3_objects(client, bucket) == {**{f"club/{k}": v for k, v in SITE.items()},
                                          "elsewhere.txt": "not under the prefix"}
    pages = [key for key in puts if key.endswith(".html")]
    assert puts[-len(pages):] == pages  # every other file before the pages
    assert puts[-1] == "club/index.html"  # the root page last

    def head(name: str) -> tuple[str, str]:
        answer = client.head_object(Bucket=bucket, Key=f"club/{name}")
        return answer["ContentType"], answer["CacheControl"]

    assert head("index.html") == ("text/html; charset=utf-8", NO_CACHE)
    assert head("hanoi/standings.json") == ("application/json", NO_CACHE)
    assert head("hanoi/standings.csv") == ("text/csv; charset=utf-8", NO_CACHE)
    assert head("static/style.css") == ("text/css", SHORT_CACHE)
    assert head("static/tables.3f2a9c1b.js") == ("application/javascript", IMMUTABLE)
    assert head("static/logo.svg") == ("image/svg+xml", SHORT_CACHE)

    puts.clear()
    again = publish(site, settings, log=quiet)
    assert puts == []  # nothing re-uploaded
    assert (again.uploaded, again.deleted, again.unchanged) == (0, 0, len(SITE))

    apply_changes(site)
    report = publish(site, settings, log=quiet)
    assert sorted(puts) == ["club/hanoi/index.html", "club/hanoi/round-2.html"]
    assert (report.uploaded, report.deleted, report.unchanged) == (2, 1, len(SITE) - 2)
    assert s3_objects(client, bucket) == {**{f"club/{k}": v for k, v in changed_site().items()},
                                          "elsewhere.txt": "not under the prefix"}


def test_s3_failure_part_way_keeps_old_pages_working_and_a_retry_completes(
        site: Path, s3, monkeypatch: pytest.MonkeyPatch) -> None:
    client, bucket, endpoint = s3
    settings = S3Settings(bucket=bucket, endpoint_url=endpoint, region="us-east-1")
    publish(site, settings, log=quiet)
    site_v2 = changed_site()
    site_v2["static/style.css"] = "body { margin: 1em }"
    write_site(site, site_v2)

    puts = record_puts(monkeypatch, fail_at=2)  # the new stylesheet lands, then the connection drops
    seen = []

    def sleep(seconds: float) -> None:
        seen.append((seconds, s3_objects(client, bucket)))

    report = publish(site, settings, sleep=sleep, log=quiet)
    [(delay, between)] = seen
    assert delay == 2.0
    assert between["hanoi/index.html"] == SITE["hanoi/index.html"]  # the old pages are still served...
    assert "static/logo.svg" in between  # ...and what they link to is still there
    assert "hanoi/round-2.html" not in between
    assert report.attempts == 2
    assert s3_objects(client, bucket) == site_v2
    assert puts[0] == "static/style.css"


def test_s3_without_boto3_asks_for_the_extra(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "boto3", None)
    with pytest.raises(InputError, match=r"pip install 'tiebreak\[s3\]'"):
        publish(site, S3Settings(bucket="results"), log=quiet)


# -- command and the retries ----------------------------------------------------------------------

FLAKY = """\
import os, pathlib, sys
counter = pathlib.Path(sys.argv[1])
count = int(counter.read_text()) + 1 if counter.exists() else 1
counter.write_text(str(count))
if count <= int(sys.argv[3]):
    print("uploading...", file=sys.stderr)
    print(f"upload {count} refused: quota exceeded", file=sys.stderr)
    sys.exit(3)
pathlib.Path(sys.argv[1] + ".seen").write_text(sys.argv[2] + "|" + os.environ["TIEBREAK_SITE_DIR"])
print("deployed")
"""


def command_settings(tmp_path: Path, failures: int, **options) -> PublishSettings:
    script = tmp_path / "flaky.py"
    script.write_text(FLAKY)
    command = f"{shlex.quote(sys.executable)} flaky.py counter {{out}} {failures}"
    return settings_from_config({"target": "command", "command": command, **options}, tmp_path)


def test_command_fails_twice_then_succeeds_with_backoff(site: Path, tmp_path: Path) -> None:
    sleeps = Sleeps()
    messages: list[str] = []
    report = publish(site, command_settings(tmp_path, failures=2), sleep=sleeps, log=messages.append)
    assert sleeps == [2, 4]
    assert report.attempts == 3 and report.detail == "deployed"
    assert (tmp_path / "counter.seen").read_text() == f"{site.resolve()}|{site.resolve()}"
    assert [m for m in messages if "retrying" in m] == [
        "publish to command failed (attempt 1 of 4): python3 exited with status 3: upload 1 refused: quota exceeded; "
        "retrying in 2 s".replace("python3", Path(sys.executable).name),
        "publish to command failed (attempt 2 of 4): python3 exited with status 3: upload 2 refused: quota exceeded; "
        "retrying in 4 s".replace("python3", Path(sys.executable).name),
    ]


def test_command_failing_every_time_raises_a_one_line_publish_error(site: Path, tmp_path: Path) -> None:
    sleeps = Sleeps()
    settings = command_settings(tmp_path, failures=99, retries=3)
    with pytest.raises(PublishError) as caught:
        publish(site, settings, sleep=sleeps, log=quiet)
    assert sleeps == [2, 4, 8]
    error = caught.value
    assert (error.target, error.attempts) == ("command", 4)
    assert str(error) == (f"command: {Path(sys.executable).name} exited with status 3: upload 4 refused: "
                          "quota exceeded (after 4 attempts)")
    assert (tmp_path / "counter").read_text() == "4"


def test_command_not_found_is_an_input_error(site: Path, tmp_path: Path) -> None:
    settings = settings_from_config({"target": "command", "command": "no-such-deployer-xyz {out}"}, tmp_path)
    with pytest.raises(InputError, match="no-such-deployer-xyz"):
        publish(site, settings, log=quiet)


def test_an_empty_s3_prefix_is_the_bucket_root(tmp_path: Path) -> None:
    settings = settings_from_config({"target": "s3", "bucket": "results", "prefix": ""}, tmp_path)
    assert settings.prefix == ""


# -- dir: a publish costs what changed ----------------------------------------------------------

def built_site(tmp_path: Path, files: dict[str, str]) -> Path:
    """A folder as the builder leaves it: its manifest names every file with its digest."""
    import hashlib
    import json

    folder = write_site(tmp_path / f"build-{len(list(tmp_path.iterdir()))}", files)
    manifest = {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in files.items()}
    (folder / ".manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def inodes(folder: Path) -> dict[str, int]:
    return {name: (folder / name).stat().st_ino for name in site_files(folder)}


def test_dir_publish_of_an_unchanged_site_does_nothing(site: Path, tmp_path: Path) -> None:
    destination = tmp_path / "www"
    publish(site, DirSettings(path=destination), log=quiet)
    before = (destination.stat().st_ino, inodes(destination))
    again = publish(site, DirSettings(path=destination), log=quiet)
    assert (again.uploaded, again.deleted, again.unchanged) == (0, 0, len(SITE)) and "no change" in again.detail
    assert (destination.stat().st_ino, inodes(destination)) == before  # not even swapped


def test_dir_links_unchanged_files_and_links_a_builds_new_ones_from_it(tmp_path: Path) -> None:
    destination = tmp_path / "www"
    first = built_site(tmp_path, SITE)
    publish(first, DirSettings(path=destination), log=quiet)
    assert inodes(destination) == inodes(first)  # the builder's files, written once, shared
    published = inodes(destination)
    second = built_site(tmp_path, changed_site())
    report = publish(second, DirSettings(path=destination), log=quiet)
    assert (report.uploaded, report.deleted) == (2, 1)
    assert read_tree(destination) == changed_site()
    now = inodes(destination)
    for name in changed_site():
        expected = published[name] if name in SITE and SITE[name] == changed_site()[name] else inodes(second)[name]
        assert now[name] == expected, name


def test_dir_makes_the_site_in_the_folder_the_publish_before_swapped_out(tmp_path: Path) -> None:
    """From the third publish on, the site is made in the folder the publish before swapped
    out, brought up to date: the files it holds untouched stay, a file edited there by hand,
    changed or gone is replaced or removed (the folders left empty too); the site is exactly
    the build's and the spare is the site before."""
    destination = tmp_path / "www"
    sites = [SITE, changed_site(), {**SITE, "hanoi/players/1.html": "<!doctype html><title>Lại Lý Huynh 2</title>"},
             {name: text for name, text in changed_site().items() if not name.startswith("hanoi/players/")}]
    spare = tmp_path / ".www.tiebreak-spare"
    for number, files in enumerate(sites):
        build = built_site(tmp_path, files)
        if number == 2:  # saved by an editor as a new file (the old one is linked from the build and the site)
            (spare / "index.html").unlink()
            (spare / "index.html").write_text("edited by hand in the spare", encoding="utf-8")
        before = spare.stat().st_ino if spare.exists() else None
        swapped_out = destination.stat().st_ino if destination.exists() else None
        publish(build, DirSettings(path=destination), log=quiet)
        assert read_tree(destination) == files, number
        assert {p.relative_to(destination).as_posix() for p in destination.rglob("*") if p.is_dir()} == {
            os.path.dirname(name) for name in files} - {""}, number  # no folder left empty
        if before is not None:
            assert destination.stat().st_ino == before  # the spare, brought up to date and swapped in
        if swapped_out is not None:
            assert spare.stat().st_ino == swapped_out and read_tree(spare) == (sites[number - 1] if number != 3
                                                                               else sites[2])


def test_dir_copies_a_folder_that_is_not_a_build_and_replaces_a_file_edited_by_hand(site: Path,
                                                                                  tmp_path: Path) -> None:
    destination = tmp_path / "www"
    publish(site, DirSettings(path=destination), log=quiet)
    assert not set(inodes(destination).values()) & set(inodes(site).values())  # copies: the folder may change
    (destination / "hanoi" / "index.html").write_text("edited by hand", encoding="utf-8")
    report = publish(site, DirSettings(path=destination), log=quiet)
    assert report.uploaded == 1 and read_tree(destination) == SITE


def test_dir_makes_what_changed_from_the_spare_and_the_build_whatever_the_destination_holds(
        tmp_path: Path) -> None:
    """With a spare and a build of Tiebreak's own that changed, the destination is not looked
    at file by file: the site is the spare brought up to date from the build, the report counts
    what the build changed since the record, and a file edited by hand in the destination (it
    is swapped out whole) is the build's again."""
    destination = tmp_path / "www"
    publish(built_site(tmp_path, SITE), DirSettings(path=destination), log=quiet)
    publish(built_site(tmp_path, changed_site()), DirSettings(path=destination), log=quiet)
    assert (tmp_path / ".www.tiebreak-spare").is_dir()
    (destination / "index.html").unlink()  # saved by an editor as a new file
    (destination / "index.html").write_text("edited by hand", encoding="utf-8")
    third = {**changed_site(), "hanoi/round-3.html": "<!doctype html><title>Round 3</title>"}
    report = publish(built_site(tmp_path, third), DirSettings(path=destination), log=quiet)
    assert (report.uploaded, report.deleted, report.unchanged) == (1, 0, len(third) - 1)
    assert read_tree(destination) == third
    assert publish(built_site(tmp_path, third), DirSettings(path=destination), log=quiet).detail.endswith("no change")
