"""``tiebreak arbiter link|revoke|links`` (issue 23): a personal entry link is one line, a URL
under ``[web]``'s address; the store keeps only the SHA-256 of its secret; a refusal is one
line, exit status 2, and keeps nothing."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from open_scenario import Command, in_process, ok, store_config

from tiebreak.config import load_config
from tiebreak.links import WebSettings, link_in_force
from tiebreak.store import SQLiteStore

ROUND_ROBIN = Path(__file__).resolve().parent / "data" / "open" / "rr-9.toml"
PREFIX = "http://127.0.0.1:8080/enter/"


def configured(folder: Path, web: str = '[web]\nlisten = "127.0.0.1:8080"\n') -> Path:
    return store_config(folder, web)


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return configured(tmp_path)


@pytest.fixture
def cli(config: Path) -> Command:
    command = in_process(config)
    ok(command, "import", str(ROUND_ROBIN))
    return command


def refused(cli: Command, *args: str) -> str:
    status, out, err = cli(args)
    assert (status, out) == (2, ""), (status, out, err)
    assert err.startswith("tiebreak: error: ") and err.count("\n") == 1, err
    return err


def links(cli: Command) -> list[dict]:
    return json.loads(ok(cli, "arbiter", "links", "rr9", "--json"))


def test_a_link_is_one_line_and_the_store_keeps_only_the_hash_of_its_secret(cli: Command, config: Path) -> None:
    out = ok(cli, "arbiter", "link", "rr9", "--label", "hall-2")
    assert out.count("\n") == 1 and out.startswith(PREFIX)
    secret = out.strip().removeprefix(PREFIX)
    assert len(secret) >= 40 and secret.isascii()
    for path in (config.parent / "data").iterdir():  # the database, its write-ahead log
        assert secret.encode() not in path.read_bytes(), path
    [row] = links(cli)
    assert (row["label"], row["actor"], row["revoked_at"]) == ("hall-2", f"web:{row['id']}", None)
    assert row["created_by"].startswith("cli:")
    with SQLiteStore(config.parent / "data" / "store.sqlite3") as store:
        link = link_in_force(store, secret)
        assert link is not None and link.tournament == "rr9"
        assert link_in_force(store, secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None


def test_two_links_get_their_own_secrets_and_default_labels(cli: Command) -> None:
    first, second = (ok(cli, "arbiter", "link", "rr9").strip() for _ in range(2))
    assert first != second
    assert [row["label"] for row in links(cli)] == ["arbiter-1", "arbiter-2"]


def test_a_revoked_link_opens_nothing_and_its_label_is_free_again(cli: Command, config: Path) -> None:
    secret = ok(cli, "arbiter", "link", "rr9", "--label", "hall").strip().removeprefix(PREFIX)
    out = ok(cli, "arbiter", "revoke", "rr9", "hall")
    assert out.startswith("revoked: rr9 link hall (web:1)") and out.count("\n") == 1
    with SQLiteStore(config.parent / "data" / "store.sqlite3") as store:
        assert link_in_force(store, secret) is None
    assert "no link in force labelled 'hall'" in refused(cli, "arbiter", "revoke", "rr9", "hall")
    ok(cli, "arbiter", "link", "rr9", "--label", "hall")
    assert [(row["label"], row["revoked_at"] is None) for row in links(cli)] == [("hall", False), ("hall", True)]


@pytest.mark.parametrize(("args", "says"), [
    (("arbiter", "link", "nope"), "no tournament 'nope' in the store (tournaments: rr9)"),
    (("arbiter", "link", "rr9", "--label", "two words"), "--label 'two words': expected one word"),
    (("arbiter", "revoke", "nope", "hall"), "no tournament 'nope'"),
    (("arbiter", "revoke", "rr9", "hall"), "rr9 has no link in force labelled 'hall' (links in force: none)"),
])
def test_refusals_are_one_line_and_keep_nothing(cli: Command, args: tuple[str, ...], says: str) -> None:
    assert says in refused(cli, *args)
    assert links(cli) == []


def test_a_label_in_force_is_refused(cli: Command) -> None:
    ok(cli, "arbiter", "link", "rr9", "--label", "hall")
    assert "already has a link labelled 'hall'" in refused(cli, "arbiter", "link", "rr9", "--label", "hall")
    assert len(links(cli)) == 1


def test_without_web_no_link_is_made(tmp_path: Path) -> None:
    cli = in_process(configured(tmp_path, ""))
    ok(cli, "import", str(ROUND_ROBIN))
    assert "no [web] section" in refused(cli, "arbiter", "link", "rr9")
    assert links(cli) == []


def test_an_archived_tournament_gets_no_link(cli: Command) -> None:
    ok(cli, "archive", "rr9")
    assert "rr9 is archived" in refused(cli, "arbiter", "link", "rr9")


@pytest.mark.parametrize(("web", "prefix"), [
    ('[web]\nlisten = "127.0.0.1:9000"\nbase_url = "https://enter.example.org/tiebreak/"\n',
     "https://enter.example.org/tiebreak/enter/"),
    ('[web]\nlisten = "[::1]:9000"\n', "http://[::1]:9000/enter/"),
])
def test_the_url_starts_with_the_public_address(tmp_path: Path, web: str, prefix: str) -> None:
    cli = in_process(configured(tmp_path, web))
    ok(cli, "import", str(ROUND_ROBIN))
    assert ok(cli, "arbiter", "link", "rr9").startswith(prefix)


def test_listening_on_every_address_needs_a_base_url(tmp_path: Path) -> None:
    cli = in_process(configured(tmp_path, '[web]\nlisten = "0.0.0.0:8080"\n'))
    ok(cli, "import", str(ROUND_ROBIN))
    assert "set [web].base_url" in refused(cli, "arbiter", "link", "rr9")


@pytest.mark.parametrize("web", ['[web]\nport = 8080\n', '[web]\nlisten = "8080"\n', '[web]\nlisten = "h:99999"\n',
                                 '[web]\nlisten = "h:1"\nbase_url = "enter.example.org"\n'])
def test_a_malformed_web_section_is_one_line(tmp_path: Path, web: str) -> None:
    from ranking.errors import InputError

    with pytest.raises(InputError, match=r"\[web\]"):
        WebSettings.from_config(load_config(configured(tmp_path, web)))


def test_the_log_never_holds_a_secret(cli: Command, config: Path) -> None:
    secret = ok(cli, "arbiter", "link", "rr9").strip().removeprefix(PREFIX)
    connection = sqlite3.connect(config.parent / "data" / "store.sqlite3")
    rows = connection.execute("SELECT * FROM entry_links").fetchall()
    connection.close()
    assert secret not in repr(rows) and hashlib.sha256(secret.encode()).hexdigest() in repr(rows)
