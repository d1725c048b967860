"""The bot's replies for xiangqi and Vietnamese events in their own words (issue 22): column
headings in the reader's language, match points where they are the score (VN 21.2), a round
robin's free round, the team table's GP once and none for a team classification.  Values are
the ones worked by hand in ``tests/test_xiangqi_events.py``."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from bot.messages import translator
from bot.views import player_blocks, round_blocks, standings_blocks, team_standings_blocks
from ranking import TournamentState, team_event_of, team_standings
from tiebreak.files import load_tournament

DATA = Path(__file__).parent / "data" / "xiangqi"


def lines(blocks: list[str]) -> list[str]:
    """The reply as text: tags gone, entities read, one entry per line."""
    text = html.unescape(re.sub(r"<[^>]+>", "", "\n".join(blocks)))
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(("language", "header"), [
    ("zh", "# 场分 局分"), ("vi", "# Đ.trận Đ.ván"), ("es", "# PE PP"), ("en", "# MP GP")])
def test_two_game_matches_are_standings_in_match_points(language: str, header: str) -> None:
    text = lines(standings_blocks(load_tournament(DATA / "vn-match.toml"), translator(language)))
    assert header in text
    decimal = "," if language in ("vi", "es") else "."
    assert f"1 Lại Lý Huynh 1{decimal}5 5" in text and f"4 Uông Dương Bắc 0{decimal}5 2" in text


@pytest.mark.parametrize(("language", "header"), [
    ("zh", "# 积分 小分 胜局 直胜 犯规"), ("vi", "# Điểm HS Thắng ĐĐ PQ")])
def test_the_chain_is_headed_in_the_readers_language(language: str, header: str) -> None:
    text = lines(standings_blocks(load_tournament(DATA / "cxa-team-rr.toml"), translator(language)))
    assert header in text


@pytest.mark.parametrize(("language", "header"), [
    ("zh", "# 场分 局分 队胜局 直胜 队犯规"), ("vi", "# Đ.trận Đ.ván Thắng ĐĐ PQ")])
def test_the_team_table_shows_game_points_once(language: str, header: str) -> None:
    tournament = load_tournament(DATA / "cxa-team-rr.toml")
    text = lines(team_standings_blocks(tournament, team_standings(team_event_of(tournament)), translator(language)))
    assert header in text  # GP, the chain's first code, is the GP column
    assert "1 北京 4 7 2 0 0" in text and "4 TP. Hồ Chí Minh 2 5 1 2 1" in text


def test_a_team_classification_has_no_match_or_game_points() -> None:
    tournament = load_tournament(DATA / "provinces.toml")
    text = lines(team_standings_blocks(tournament, team_standings(team_event_of(tournament)), translator("zh")))
    assert "# 名次和" in text and "1 北京 6" in text and "4 黑龙江 13" in text


@pytest.mark.parametrize(("language", "free"), [("zh", "轮空"), ("vi", "Miễn đấu"), ("es", "Ronda libre")])
def test_a_round_robins_free_round_is_a_free_round(language: str, free: str) -> None:
    state = TournamentState(load_tournament(DATA / "three-point-colour.toml"))
    tr = translator(language)
    assert f"{free}{'：' if language == 'zh' else ': '}徐天红" in lines(round_blocks(state, 1, tr))
    card = lines(player_blocks(state, 3, tr))
    assert any(line.startswith("1") and free.lower() in line.lower() and line.endswith("–") for line in card), card
    assert not any(word in " ".join(card) for word in ("零分轮空", "không điểm", "sin puntos"))
