"""The /league extension loads into a real SpadesBot and its commands fit Discord's limits."""

from __future__ import annotations

from typing import Any

from bot.client import SpadesBot


def _walk(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for o in options:
        out.append(o)
        out.extend(_walk(o.get("options", [])))
    return out


def league_commands(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in payload if c["name"] == "league"]


async def test_league_extension_loads_and_fits_discord_limits(bot: SpadesBot) -> None:
    # the extension brings /league (the service its check-in buttons find on the client is covered
    # by the clicks of tests/e2e/test_league.py::test_signup_and_check_in_by_button)
    assert league_commands(await bot.command_payload()) == []
    await bot.load_extension("cogs.league")
    try:
        (league,) = [c for c in await bot.command_payload() if c["name"] == "league"]
        subs = league["options"]
        assert len(subs) <= 25
        names = {s["name"] for s in subs}
        for required in (
            "create",
            "edit",
            "pause",
            "resume",
            "skip",
            "end",
            "archive",
            "signup",
            "invite",
            "accept",
            "standings",
            "schedule",
            "history",
            "me",
            "admin",
        ):
            assert required in names
        admin = next(s for s in subs if s["name"] == "admin")
        assert {o["name"] for o in admin["options"]} >= {
            "sub",
            "remove",
            "correct",
            "reopen",
            "start",
            "postpone",
        }
        for item in _walk(subs):
            assert 1 <= len(item["name"]) <= 32 and item["name"] == item["name"].lower()
            assert 1 <= len(item.get("description", "x")) <= 100
            assert len(item.get("options", [])) <= 25
            assert len(item.get("choices", [])) <= 25
    finally:
        await bot.unload_extension("cogs.league")
    assert league_commands(await bot.command_payload()) == []  # and takes it away again


async def test_every_league_option_may_be_left_out(bot: SpadesBot) -> None:
    """A server with one league needs no `league:` (bot.league.core.Leagues.league picks it)."""
    await bot.load_extension("cogs.league")
    try:
        (league,) = league_commands(await bot.command_payload())
        options = [o for o in _walk(league["options"]) if o["name"] == "league" and o.get("type") == 3]
        assert len(options) >= 20
        assert not any(o.get("required") for o in options)
        assert all(o.get("autocomplete") for o in options)
    finally:
        await bot.unload_extension("cogs.league")
