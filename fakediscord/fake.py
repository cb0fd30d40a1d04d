"""FakeDiscord: the local Discord, composed of its parts, and the table of every REST route.

See the package docstring (``fakediscord/__init__.py``) for the driver API and an example. Each part
is a collaborator in its own module that receives the shared :class:`~.state.FakeState` and the
parts it calls; :class:`FakeDiscord` builds them (every dependency points down, none back) and is
the facade the tests and the sandbox use:

- what the rest builds on: the world (``world.World``), messages (``store.MessageStore``),
  interactions (``interactions.Interactions``), over the state and its gateway (``gateway``);
- the REST API the bot uses (``rest/``): the checks handlers share, faults, rate limits, one handler
  class per resource, and the app (``rest/app.HttpApp``: the server and the request pipeline);
- the driver API tests use (``driver/``): running the bot, commands, components, messages, traffic.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from .clock import FakeClock
from .driver.commands import CommandUse
from .driver.components import ComponentUse
from .driver.messages import UserMessages
from .driver.running import Running
from .driver.traffic import Traffic
from .gateway import Gateway
from .interactions import Interactions
from .models import DMChannel, Guild, Json, Message, User
from .records import InteractionRecord, RecordedRequest, Violation
from .rest.app import HttpApp
from .rest.callbacks import CallbackRoutes
from .rest.channels import ChannelRoutes
from .rest.checks import Checks
from .rest.commands import CommandRoutes
from .rest.emojis import EmojiRoutes
from .rest.events import EventRoutes
from .rest.faults import Faults
from .rest.guilds import GuildRoutes
from .rest.identity import IdentityRoutes
from .rest.ratelimits import RateLimits
from .rest.reactions import ReactionRoutes
from .state import FakeState
from .store import MessageStore
from .world import World


@dataclass(frozen=True)
class RestHandlers:
    """The REST handlers, one object per resource (``rest/<resource>.py``)."""

    identity: IdentityRoutes
    guilds: GuildRoutes
    events: EventRoutes
    commands: CommandRoutes
    emojis: EmojiRoutes
    channels: ChannelRoutes
    reactions: ReactionRoutes
    callbacks: CallbackRoutes


class FakeDiscord:
    """A local Discord for one test. Use ``async with FakeDiscord() as fake:`` (see the package doc).

    Its parts are attributes (``fake.world``, ``fake.store``, ``fake.desk`` for interactions,
    ``fake.checks``, ``fake.faults``, ``fake.limits``, ``fake.rest``, ``fake.http``, and the driver's
    ``fake.runner``, ``fake.command_use``, ``fake.component_use``, ``fake.user_messages``,
    ``fake.traffic``); the driver API below is theirs, bound here under the names tests use."""

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
        self.state = state = FakeState(
            bot_name=bot_name,
            validate=validate,
            quiet_period=quiet_period,
            guild_ready_timeout=guild_ready_timeout,
            privileged_intents=privileged_intents,
            bot_id=bot_id,
        )
        # what the rest builds on
        self.world = world = World(state)
        self.store = store = MessageStore(state)
        self.desk = desk = Interactions(state)
        # the REST API: the checks, faults and limits the pipeline and the handlers call, the handlers
        self.checks = checks = Checks(state)
        self.faults = faults = Faults(state)
        self.limits = limits = RateLimits(state, rate_limits=rate_limits, global_limit=global_limit)
        self.rest = RestHandlers(
            identity=IdentityRoutes(state),
            guilds=GuildRoutes(checks),
            events=EventRoutes(state, checks),
            commands=CommandRoutes(state, checks),
            emojis=EmojiRoutes(state, checks),
            channels=ChannelRoutes(state, checks, world, store),
            reactions=ReactionRoutes(state, checks, store),
            callbacks=CallbackRoutes(state, checks, desk, store),
        )
        self.http = HttpApp(state, faults, limits, store)
        self._build_routes()
        # the driver API
        self.runner = runner = Running(state, desk, limits)
        self.command_use = command_use = CommandUse(state, world, desk)
        self.component_use = component_use = ComponentUse(world, desk, command_use)
        self.user_messages = user_messages = UserMessages(state, world, store)
        self.traffic = traffic = Traffic(state)

        # The driver API, bound from the part that does it.
        self.start = self.http.start
        self.close = self.http.close
        # the world
        self.add_guild = world.add_guild
        self.remove_guild = world.remove_guild
        self.add_user = world.add_user
        self.member = world.member
        self.dm_channel = world.dm_channel
        self.dispatch = world.dispatch
        # running the bot
        self.run_bot = runner.run_bot
        self.settle = runner.settle
        self.drop_gateway = runner.drop_gateway
        self.send_reconnect = runner.send_reconnect
        self.invalidate_session = runner.invalidate_session
        self.advance_clock = runner.advance_clock
        # users acting
        self.commands_for = command_use.commands_for
        self.slash = command_use.slash
        self.autocomplete = command_use.autocomplete
        self.user_command = command_use.user_command
        self.message_command = command_use.message_command
        self.click = component_use.click
        self.select = component_use.select
        self.submit_modal = component_use.submit_modal
        self.say = user_messages.say
        self.dm = user_messages.dm
        self.react = user_messages.react
        self.unreact = user_messages.unreact
        # what users see and what the bot sent
        self.public_messages = user_messages.public_messages
        self.ephemeral_messages = user_messages.ephemeral_messages
        self.visible_messages = user_messages.visible_messages
        self.dm_messages = user_messages.dm_messages
        self.bot_messages = user_messages.bot_messages
        self.message = user_messages.message
        self.pings = user_messages.pings
        self.attachment_bytes = store.attachment_bytes
        self.cdn_file = store.cdn_file
        self.thinking = desk.thinking
        self.take_thinking = desk.take_thinking
        self.requests_to = traffic.requests_to
        self.peak_rate = traffic.peak_rate
        self.take_violations = traffic.take_violations
        # faults
        self.fail_next = faults.fail_next
        self.delay_next = faults.delay_next
        # Building blocks for tests that send what the driver would refuse to (tests/e2e/test_hardening.py).
        self._new_message = store.new_message
        self._find_command = command_use.find_command
        self._interaction_base = desk.create
        self._send_interaction = desk.send
        self._component_interaction = component_use.component_interaction

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # The shared state, read (and where a test sets it before the bot starts, written) through the fake.
    @property
    def clock(self) -> FakeClock:
        return self.state.clock

    @property
    def gateway(self) -> Gateway:
        return self.state.gateway

    @property
    def bot_user(self) -> User:
        return self.state.bot_user

    @property
    def owner(self) -> User:
        return self.state.owner

    @property
    def application_id(self) -> int:
        return self.state.application_id

    @property
    def application_flags(self) -> int:
        return self.state.application_flags

    @property
    def privileged_intents(self) -> bool:
        return self.state.privileged_intents

    @property
    def users(self) -> dict[int, User]:
        return self.state.users

    @property
    def guilds(self) -> dict[int, Guild]:
        return self.state.guilds

    @property
    def messages(self) -> dict[int, Message]:
        return self.state.messages

    @property
    def dm_channels(self) -> dict[int, DMChannel]:
        return self.state.dm_channels

    @property
    def commands(self) -> dict[int | None, dict[str, Json]]:
        return self.state.commands

    @property
    def app_emojis(self) -> dict[int, Json]:
        return self.state.app_emojis

    @property
    def app_emoji_images(self) -> dict[int, bytes]:
        return self.state.app_emoji_images

    @property
    def requests(self) -> list[RecordedRequest]:
        return self.state.requests

    @property
    def violations(self) -> list[Violation]:
        return self.state.violations

    @property
    def bot_errors(self) -> list[logging.LogRecord]:
        return self.state.bot_errors

    @property
    def base_url(self) -> str:
        return self.state.base_url

    @property
    def gateway_url(self) -> str:
        return self.state.gateway_url

    @property
    def port(self) -> int:
        return self.state.port

    @property
    def token(self) -> str | None:
        return self.state.token

    @token.setter
    def token(self, value: str | None) -> None:
        self.state.token = value

    @property
    def validate(self) -> bool:
        return self.state.validate

    @validate.setter
    def validate(self, value: bool) -> None:
        self.state.validate = value

    @property
    def quiet_period(self) -> float:
        return self.state.quiet_period

    @quiet_period.setter
    def quiet_period(self, value: float) -> None:
        self.state.quiet_period = value

    @property
    def guild_ready_timeout(self) -> float:
        return self.state.guild_ready_timeout

    @guild_ready_timeout.setter
    def guild_ready_timeout(self, value: float) -> None:
        self.state.guild_ready_timeout = value

    # What the parts keep.
    @property
    def interactions(self) -> dict[int, InteractionRecord]:
        return self.desk.interactions

    @property
    def attachment_data(self) -> dict[str, bytes]:
        return self.store.attachment_data

    @property
    def rate_limits(self) -> dict[tuple[str, str], tuple[int, float, str]] | None:
        return self.limits.rate_limits

    @property
    def global_limit(self) -> int | None:
        return self.limits.global_limit

    @global_limit.setter
    def global_limit(self, value: int | None) -> None:
        self.limits.global_limit = value

    @property
    def rate_limit_hits(self) -> list[RecordedRequest]:
        return self.limits.rate_limit_hits

    @property
    def invalid_requests(self) -> list[RecordedRequest]:
        return self.limits.invalid_requests

    def _build_routes(self) -> None:
        """Every route the fake answers, in matching order (``/users/@me`` before ``/users/{user_id}``);
        ``auth=False``: authorised by the interaction token, not the bot token (no global limit)."""
        r = self.http.route
        rest = self.rest
        identity, guilds, events, commands = rest.identity, rest.guilds, rest.events, rest.commands
        emojis, channels, reactions, callbacks = rest.emojis, rest.channels, rest.reactions, rest.callbacks
        r("GET", "/gateway", identity.get_gateway, auth=False)
        r("GET", "/gateway/bot", identity.get_gateway_bot)
        r("GET", "/users/@me", identity.get_me)
        r("GET", "/applications/@me", identity.get_application)
        r("GET", "/oauth2/applications/@me", identity.get_application)
        r("GET", "/users/{user_id}", identity.get_user)
        r("POST", "/users/@me/channels", channels.open_dm)
        for scope in ("/applications/{application_id}", "/applications/{application_id}/guilds/{guild_id}"):
            r("GET", scope + "/commands", commands.list_commands)
            r("PUT", scope + "/commands", commands.put_commands)
            r("POST", scope + "/commands", commands.post_command)
            r("GET", scope + "/commands/{command_id}", commands.get_command)
            r("PATCH", scope + "/commands/{command_id}", commands.patch_command)
            r("DELETE", scope + "/commands/{command_id}", commands.delete_command)
        r("GET", "/applications/{application_id}/emojis", emojis.list_app_emojis)
        r("POST", "/applications/{application_id}/emojis", emojis.create_app_emoji)
        r("GET", "/applications/{application_id}/emojis/{emoji_id}", emojis.get_app_emoji)
        r("PATCH", "/applications/{application_id}/emojis/{emoji_id}", emojis.edit_app_emoji)
        r("DELETE", "/applications/{application_id}/emojis/{emoji_id}", emojis.delete_app_emoji)
        r(
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
            callbacks.callback,
            auth=False,
        )
        hook = "/webhooks/{webhook_id}/{webhook_token}"
        r("POST", hook, callbacks.followup, auth=False)
        for which in ("@original", "{message_id}"):
            r("GET", hook + "/messages/" + which, callbacks.get_webhook_message, auth=False)
            r("PATCH", hook + "/messages/" + which, callbacks.edit_webhook_message, auth=False)
            r("DELETE", hook + "/messages/" + which, callbacks.delete_webhook_message, auth=False)
        r("GET", "/channels/{channel_id}", channels.get_channel)
        r("GET", "/channels/{channel_id}/messages", channels.list_messages)
        r("POST", "/channels/{channel_id}/messages", channels.create_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", channels.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", channels.edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", channels.delete_message)
        r("POST", "/channels/{channel_id}/typing", channels.typing)
        r("POST", "/channels/{channel_id}/threads", channels.create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", channels.create_thread)
        on_reactions = "/channels/{channel_id}/messages/{message_id}/reactions"
        r("PUT", on_reactions + "/{emoji}/@me", reactions.add_reaction)
        r("DELETE", on_reactions + "/{emoji}/@me", reactions.remove_reaction)
        r("DELETE", on_reactions + "/{emoji}/{user_id}", reactions.remove_reaction)
        r("GET", on_reactions + "/{emoji}", reactions.reaction_users)
        r("DELETE", on_reactions, reactions.clear_reactions)
        r("GET", "/guilds/{guild_id}", guilds.get_guild)
        r("GET", "/guilds/{guild_id}/channels", guilds.get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", guilds.get_roles)
        r("GET", "/guilds/{guild_id}/members/{user_id}", guilds.get_member)
        r("GET", "/guilds/{guild_id}/scheduled-events", events.list_events)
        r("POST", "/guilds/{guild_id}/scheduled-events", events.create_event)
        r("GET", "/guilds/{guild_id}/scheduled-events/{event_id}", events.get_event)
        r("PATCH", "/guilds/{guild_id}/scheduled-events/{event_id}", events.edit_event)
        r("DELETE", "/guilds/{guild_id}/scheduled-events/{event_id}", events.delete_event)
        r("GET", "/guilds/{guild_id}/scheduled-events/{event_id}/users", events.list_users)
