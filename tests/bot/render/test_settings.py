"""bot/render/settings.py: /spades config's answer, the server's defaults in words."""

from __future__ import annotations

from bot.i18n import render
from bot.render.settings import server_defaults


def test_the_defaults_name_the_preset_the_times_and_the_house_rules() -> None:
    plain = render(server_defaults({}), "en")
    assert plain == "Server defaults: preset **standard**, 60 s to play, 90 s to bid."
    settings = {"default_preset": "house", "play_seconds": 30, "bid_seconds": 45, "options": {"bag_limit": 5}}
    ruled = render(server_defaults(settings), "en")
    assert "preset **house**, 30 s to play, 45 s to bid" in ruled and "house rules `bag_limit=5`" in ruled


def test_the_bots_level_and_the_language_are_said_when_the_server_chose_them() -> None:
    assert "Bots at new tables" not in render(server_defaults({}), "en")
    assert "Bots at new tables: easy." in render(server_defaults({}, bot_level="easy"), "en")
    chosen = render(server_defaults({"language": "pl"}), "en")
    assert "Public messages: Polski." in chosen
    follows = render(server_defaults({"language": None}, follows="English"), "en")
    assert "Public messages follow the server's language (now English)." in follows
    assert "Public messages" not in render(server_defaults({"language": None}), "en")


def test_a_server_without_community_is_told_each_table_speaks_its_openers_language() -> None:
    # Discord reports en-US for every server without Community: "follows English" would be wrong
    text = render(server_defaults({"language": None}, follows="English", by_opener=True), "en")
    assert "each table speaks the language of the member who opened it" in text
    assert "follow the server's language" not in text
    assert "Społeczności" in render(server_defaults({}, by_opener=True), "pl")
