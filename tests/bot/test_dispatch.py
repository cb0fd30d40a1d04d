"""bot/dispatch.py: a click reaches its DynamicItem (a select with the values picked) without the
message's view being rebuilt, and only when the clicked component is on the message it came from.
The interaction is a stand-in for Discord's (only Discord is faked)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.dispatch import call_dynamic_item, install

calls: list[tuple[str, int, list[str]]] = []


class Picker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"t:(?P<tid>\d+):pick$"):
    def __init__(self, tid: int) -> None:
        options = [discord.SelectOption(label="a")]
        super().__init__(discord.ui.Select(custom_id=f"t:{tid}:pick", options=options))
        self.tid = tid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Picker:
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        calls.append(("pick", self.tid, list(self.item.values)))


def _click(custom_id: str, on_message: str) -> Any:
    component = SimpleNamespace(custom_id=on_message, type=discord.ComponentType.string_select, children=None)
    message = SimpleNamespace(id=1, components=[SimpleNamespace(children=[component], custom_id=None)])
    data = {"custom_id": custom_id, "component_type": 3, "values": ["a"]}
    return SimpleNamespace(message=message, data=data, type=discord.InteractionType.component)


@pytest.fixture(autouse=True)
def _clean() -> None:
    calls.clear()


async def _dispatch(interaction: Any) -> None:
    custom_id = interaction.data["custom_id"]
    match = Picker.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    await call_dynamic_item(3, Picker, interaction, custom_id, match)


async def test_the_item_is_built_from_its_custom_id_with_the_values_picked() -> None:
    await _dispatch(_click("t:7:pick", on_message="t:7:pick"))
    assert calls == [("pick", 7, ["a"])]


async def test_a_custom_id_not_on_its_message_reaches_no_item() -> None:
    await _dispatch(_click("t:7:pick", on_message="t:8:pick"))
    assert calls == []


def test_install_replaces_discord_pys_dispatch() -> None:
    client = discord.Client(intents=discord.Intents.none())
    install(client)
    assert client._connection._view_store.schedule_dynamic_item_call is call_dynamic_item
