"""FakeDiscord: the local Discord, composed of its parts, and the table of every REST route.

See the package docstring (``fakediscord/__init__.py``) for the driver API and an example. Each
part is a mixin over the shared :class:`~.state.FakeState`, in its own module:

- the driver API tests use (``driver/``): running the bot, commands, components, messages, traffic;
- the REST API the bot uses (``rest/``): the app and its pipeline (faults, rate limits, errors),
  then one module of handlers per resource;
- what both build on: the world (``world``), messages (``store``), interactions (``interactions``),
  the gateway (``gateway``) and the models (``models/``).
"""

from __future__ import annotations

from .driver.commands import CommandUse
from .driver.components import ComponentUse
from .driver.messages import UserMessages
from .driver.running import Running
from .driver.traffic import Traffic
from .rest.app import HttpApp
from .rest.callbacks import CallbackRoutes
from .rest.channels import ChannelRoutes
from .rest.commands import CommandRoutes
from .rest.emojis import EmojiRoutes
from .rest.events import EventRoutes
from .rest.guilds import GuildRoutes
from .rest.identity import IdentityRoutes
from .rest.reactions import ReactionRoutes


class FakeDiscord(
    Running,
    ComponentUse,
    CommandUse,
    UserMessages,
    Traffic,
    HttpApp,
    IdentityRoutes,
    GuildRoutes,
    EventRoutes,
    CommandRoutes,
    EmojiRoutes,
    ChannelRoutes,
    ReactionRoutes,
    CallbackRoutes,
):
    """A local Discord for one test. Use ``async with FakeDiscord() as fake:`` (see the package doc)."""

    def __init__(
        self,
        *,
        bot_name: str = "Spades",
        validate: bool = True,
        quiet_period: float = 0.1,
        guild_ready_timeout: float = 0.05,
        privileged_intents: bool = True,
        rate_limits: bool | dict[tuple[str, str], tuple[int, float, str]] = False,
        global_limit: int | None = None,
        bot_id: int | None = None,
    ) -> None:
        """``privileged_intents=False``: the application has not enabled members, presences and
        message content in the developer portal, so asking for them closes the gateway with 4014.

        ``rate_limits=True`` enforces :data:`RATE_LIMITS` (or pass your own table): answers carry
        Discord's ``X-RateLimit-*`` headers, which discord.py obeys by waiting, and a request over the
        limit gets a 429 (listed in ``rate_limit_hits``). Off by default to keep tests fast.

        The global limit: at most ``global_limit`` bot-token requests in any second, all routes
        together (interaction callbacks, follow-ups and ``@original`` are exempt, as on Discord); the
        next one gets a 429 with ``"global": true``, ``X-RateLimit-Global`` and ``Retry-After``, which
        discord.py honours by pausing every request. ``None`` (the default) means :data:`GLOBAL_LIMIT`
        (50) when ``rate_limits`` is on and no global limit otherwise; ``0`` turns it off. It can be
        changed before the bot starts (``fake.global_limit = 50``).

        ``bot_id`` fixes the bot's user (and application) id, as ``id=`` does for guilds, channels
        and users: a world rebuilt with the same ids matches what a bot stored (the sandbox uses it).

        Every 401, 403 and 429 answer is counted in ``invalid_requests`` (Discord bans an IP that makes
        :data:`INVALID_REQUEST_LIMIT` of them in 10 minutes; reaching that records a violation). The
        limits are in ``rest/ratelimits.py``."""
        super().__init__(
            bot_name=bot_name,
            validate=validate,
            quiet_period=quiet_period,
            guild_ready_timeout=guild_ready_timeout,
            privileged_intents=privileged_intents,
            rate_limits=rate_limits,
            global_limit=global_limit,
            bot_id=bot_id,
        )
        self._build_routes()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _build_routes(self) -> None:
        """Every route the fake answers, in matching order (``/users/@me`` before ``/users/{user_id}``);
        ``auth=False``: authorised by the interaction token, not the bot token (no global limit)."""
        r = self._route
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/users/@me", self._get_me)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._open_dm)
        for scope in ("/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"):
            r("GET", scope + "/commands", self._list_commands)
            r("PUT", scope + "/commands", self._put_commands)
            r("POST", scope + "/commands", self._post_command)
            r("GET", scope + "/commands/{command_id}", self._get_command)
            r("PATCH", scope + "/commands/{command_id}", self._patch_command)
            r("DELETE", scope + "/commands/{command_id}", self._delete_command)
        r("GET", "/applications/{application_id}/emojis", self._list_app_emojis)
        r("POST", "/applications/{application_id}/emojis", self._create_app_emoji)
        r("GET", "/applications/{application_id}/emojis/{emoji_id}", self._get_app_emoji)
        r("PATCH", "/applications/{application_id}/emojis/{emoji_id}", self._edit_app_emoji)
        r("DELETE", "/applications/{application_id}/emojis/{emoji_id}", self._delete_app_emoji)
        r("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._callback, auth=False)
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        r("POST", hook, self._followup, auth=False)
        for which in ("@original", "{message_id}"):
            r("GET", hook + "/messages/" + which, self._get_webhook_message, auth=False)
            r("PATCH", hook + "/messages/" + which, self._edit_webhook_message, auth=False)
            r("DELETE", hook + "/messages/" + which, self._delete_webhook_message, auth=False)
        r("GET", "/channels/{channel_id}", self._get_channel)
        r("GET", "/channels/{channel_id}/messages", self._list_messages)
        r("POST", "/channels/{channel_id}/messages", self._create_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message)
        r("POST", "/channels/{channel_id}/typing", self._typing)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        reactions = "/channels/{channel_id}/messages/{message_id}/reactions"
        r("PUT", reactions + "/{emoji}/@me", self._add_reaction)
        r("DELETE", reactions + "/{emoji}/@me", self._remove_reaction)
        r("DELETE", reactions + "/{emoji}/{user_id}", self._remove_reaction)
        r("GET", reactions + "/{emoji}", self._reaction_users)
        r("DELETE", reactions, self._clear_reactions)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("GET", "/guilds/{guild_id}/scheduled-events", self._list_events)
        r("POST", "/guilds/{guild_id}/scheduled-events", self._create_event)
        r("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", self._get_event)
        r("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", self._edit_event)
        r("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", self._delete_event)
