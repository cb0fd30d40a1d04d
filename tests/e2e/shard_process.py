"""One bot process of the multi-process tests: the real ``python -m bot``, talking to the fake Discord.

Only Discord is redirected (REST base and gateway URL, from FAKE_DISCORD_API / FAKE_DISCORD_GATEWAY)
and discord.py's 5-second courtesy wait between shard IDENTIFYs is skipped; everything else
(settings from the environment, storage, shards, cogs) is the bot as an operator runs it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

Route.BASE = os.environ["FAKE_DISCORD_API"]
DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])


async def _no_identify_delay(self: Any, shard_id: int | None, *, initial: bool = False) -> None:
    return None


discord.Client.before_identify_hook = _no_identify_delay  # type: ignore[method-assign]
discord.AutoShardedClient.before_identify_hook = _no_identify_delay  # type: ignore[method-assign]

if __name__ == "__main__":
    from bot.__main__ import main

    sys.exit(main(["run"]))
