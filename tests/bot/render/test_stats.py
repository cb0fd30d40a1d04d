"""bot/render/stats.py: the leaderboard's lines, pages and sort keys, and one player's stats embed."""

from __future__ import annotations

import pytest

from bot.render.stats import (
    PAGE_SIZE,
    leaderboard_embed,
    leaderboard_line,
    no_stats,
    page_count,
    rating_text,
    sort_key,
    split_sort,
    stats_embed,
)
from bot.storage import SORTS, PlayerStats
from bot.storage.reviews import BidAccuracy


def _alice(**kw: int | float | None) -> PlayerStats:
    values: dict[str, int | float | None] = {
        "games": 4,
        "wins": 3,
        "hands": 20,
        "contracts_made": 9,
        "contracts_bid": 12,
        "nils_made": 1,
        "nils_attempted": 2,
        "bags": 7,
    }
    values.update(kw)
    return PlayerStats(11, rank=1, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.parametrize("humans_only", [True, False])
def test_a_sort_key_splits_back_into_its_sort_and_scope(sort: str, humans_only: bool) -> None:
    assert split_sort(sort_key(sort, humans_only)) == (sort, humans_only)


def test_an_unknown_sort_key_sorts_by_wins() -> None:
    assert split_sort("made_up") == ("wins", True)
    assert split_sort("made_up__all") == ("wins", False)


@pytest.mark.parametrize("total", [0, 1, PAGE_SIZE, PAGE_SIZE + 1, 3 * PAGE_SIZE])
def test_the_pages_hold_every_player_and_there_is_always_one(total: int) -> None:
    pages = page_count(total)
    assert pages >= 1
    assert (pages - 1) * PAGE_SIZE < max(total, 1) <= pages * PAGE_SIZE


def test_a_rating_is_provisional_under_the_threshold_and_missing_without_games() -> None:
    rated = _alice(rated_games=3, rating_mu=30.0, rating_sigma=5.0)
    assert rating_text(rated, provisional=4) == "rating 15.0?"
    assert rating_text(rated, provisional=3) == "rating 15.0"
    assert rating_text(_alice(), provisional=3) == "unrated"


def test_a_leaderboard_line_shows_the_players_numbers() -> None:
    line = leaderboard_line(_alice(not_counted=2, bags=6), provisional=10)
    assert line.startswith("**1.** <@11> · 3 W / 4 G (🤖 2)")
    assert "win 75%" in line and "bids 75% (9/12)" in line and "nils 1/2" in line
    assert "0.3 bags/hand" in line  # 6 bags in 20 hands
    by_rating = leaderboard_line(
        _alice(rated_games=1, rating_mu=25.0, rating_sigma=2.0), sort="rating", provisional=10
    )
    assert "rating 19.0?" in by_rating and "(1 rated game)" in by_rating


def test_the_leaderboard_footer_says_the_sort_page_and_what_counts() -> None:
    players = [_alice()]
    people = leaderboard_embed(players, sort="wins", page=1, total=25, guild_name="Club", provisional=10)
    assert people.title == "🏆 Leaderboard · Club"
    assert people.footer.text is not None and "page 2/3" in people.footer.text
    assert "25 players" in people.footer.text and "games between people" in people.footer.text
    every = leaderboard_embed(
        players, sort="wins", page=0, total=1, guild_name=None, humans_only=False, provisional=10
    )
    assert every.title == "🏆 Leaderboard"
    assert every.footer.text is not None and "W/G count every game" in every.footer.text


def test_the_stats_embed_and_the_answer_without_stats() -> None:
    embed = stats_embed(_alice(), name="Alice", total=5, avatar=None)
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Rank"] == "#1 of 5 by wins"
    assert fields["Games"] == "4 (3 W · 1 L)"
    assert fields["Bid accuracy"] == "75% (9/12 contracts made)"
    assert str(no_stats()).startswith("You have no finished hands")
    assert str(no_stats("<@12>")).startswith("<@12> has no finished hands")


def test_the_stats_embed_shows_the_bids_against_the_bot_once_a_hand_was_reviewed() -> None:
    def fields(against: BidAccuracy | None, lang: str = "en") -> dict[str | None, str | None]:
        embed = stats_embed(_alice(), name="Alice", total=5, avatar=None, against_bot=against, lang=lang)
        return {f.name: f.value for f in embed.fields}

    assert "Bids against the bot" not in fields(None)
    assert "Bids against the bot" not in fields(BidAccuracy(0, 0))  # nothing reviewed yet
    shown = fields(BidAccuracy(4, 3))["Bids against the bot"]
    assert shown == "75% within one trick of the strong bot's bid (3 of 4 reviewed hands)"
    assert fields(BidAccuracy(1, 0))["Bids against the bot"] == (
        "0% within one trick of the strong bot's bid (0 of 1 reviewed hand)"
    )
    polish = fields(BidAccuracy(4, 3), "pl")
    assert polish["Deklaracje w porównaniu z botem"] == (
        "75% w granicy jednej lewy od deklaracji silnego bota (3 z 4 przeanalizowanych rozdań)"
    )


@pytest.mark.parametrize(
    ("lang", "wins", "games", "record"),
    [
        ("pl", 1, 1, "1 wygr. z 1"),
        ("pl", 2, 22, "2 wygr. z 22"),
        ("cs", 1, 5, "1 V / 5 H"),
        ("ru", 1, 1, "1 поб. из 1"),
        ("ru", 21, 25, "21 поб. из 25"),
    ],
)
def test_a_leaderboard_record_reads_right_for_any_count(
    lang: str, wins: int, games: int, record: str
) -> None:
    """No noun that would have to agree with the count ("1 игр"), and no letter that means a draw
    elsewhere (Polish "R" in league records)."""
    line = leaderboard_line(_alice(wins=wins, games=games), lang, provisional=10)
    assert f"<@11> · {record}" in line, line
