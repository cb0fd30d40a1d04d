"""A local Discord that the real discord.py talks to, stricter than Discord about what it accepts.

The bot runs its real discord.py code (HTTP client, gateway, command tree, views) against an aiohttp
server on 127.0.0.1. Every request body is checked against Discord's OpenAPI spec and the documented
limits; breaking a rule answers like Discord (400/50035, 404/10062, 400/40060, ...) *and* is recorded
as a violation that fails the test at teardown unless the test takes it.

A package of its own that imports nothing of the bot's: the tests drive it, and
``python -m bot --sandbox`` (``bot/sandbox``) puts a web page in front of it so anyone can try the
bot without Discord. It needs the ``sandbox`` extra (``pip install -e '.[sandbox]'``: the spec
validators).

``FakeDiscord`` (``fake.py``) builds one collaborator per job, each given the shared state and the
parts it calls: the driver API below (``driver/``), the REST API the bot calls (``rest/``), the
world, messages and interactions they share, over the gateway and the models; it exposes the
driver API and the parts (``fake.world``, ``fake.runner``, ...). ``docs/TESTING.md`` maps them.

Example (pytest; the ``fake_discord`` fixture comes from ``fakediscord/pytest_plugin.py``, registered in
``tests/conftest.py``)::

    from fakediscord import FakeDiscord

    async def test_join_and_bid(fake_discord: FakeDiscord) -> None:
        fake = fake_discord                       # started on 127.0.0.1, random port, ~2 ms
        guild = fake.add_guild("Test server")     # the bot is a member with a managed role
        channel = guild.add_text_channel("spades")
        thread = channel.add_thread("table-1")    # threads work like channels
        alice = fake.add_user("alice")            # member of every guild so far (or guild=...)
        bob = fake.add_user("bob", global_name="Bobby")
        admin = fake.add_user("root", manage_guild=True)   # role with Manage Server

        bot = make_bot()                          # your commands.Bot, not started
        async with fake.run_bot(bot, token="x", sync_commands=True):
            # run_bot: patches Route.BASE and the gateway URL, logs in, connects, waits for READY
            # and the guilds; sync_commands=True syncs bot.tree through the fake's HTTP API (without
            # it, commands synced by an earlier run_bot on the same fake stay registered).
            r = await fake.slash(alice, channel, "spades new", preset="standard", target=300)
            # built from the *synced* definition: unknown command/option, wrong type, out of range,
            # not a choice, missing required option -> FakeDiscordUsageError (an AssertionError)
            assert r.type == 4 and not r.ephemeral and r.error is None
            table = fake.public_messages(channel)[-1]    # Message: content, embeds, components...
            r = await fake.click(bob, table, label="Join")   # or custom_id="..."
            assert r.ephemeral and "joined" in r.content
            hand = fake.ephemeral_messages(bob)[-1]          # only bob sees it
            r = await fake.click(bob, hand, custom_id="play:AS")   # others cannot click it
            r = await fake.select(alice, table, custom_id="bid", values=["5"])
            choices = await fake.autocomplete(alice, channel, "bid", "bid", "ni")  # [{"name", "value"}]
            r = await fake.user_command(alice, channel, "Invite to table", bob)     # context menus
            r = await fake.message_command(alice, table, "Quote")
            r = await fake.slash(alice, channel, "spades rename")    # bot answers with a modal
            r = await fake.submit_modal(alice, r, {"name": "Friday game", "seat": ["North"]})
            # text inputs take a str, selects in labels a list; each modal can be submitted once
            await fake.settle()               # no request in flight, none for 0.1 s
            assert table.content.startswith("...")   # edits are applied to the same object
            assert table.history                     # earlier versions, oldest first

            # Faults and time
            fake.fail_next("POST", "/channels/{channel_id}/messages", status=429, retry_after=0.05)
            fake.fail_next("PATCH", "/channels/{channel_id}/messages/{message_id}", status=500)
            fake.delay_next("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 0.5)
            await fake.drop_gateway()         # returns once the bot has RESUMEd (events replayed)
            await fake.invalidate_session()   # bot must IDENTIFY again
            await fake.send_reconnect()       # op 7: bot must reconnect and RESUME
            fake.advance_clock(minutes=16)    # interaction tokens expire (3 s deadline too)
            # FakeDiscord(rate_limits=True): Discord-like buckets (5 posts/edits per 5 s per channel...)
            # with X-RateLimit-* headers discord.py obeys; over the limit -> 429, fake.rate_limit_hits
            # and Discord's global limit: 50 bot-token requests/s (FakeDiscord(global_limit=N) alone;
            # interaction routes exempt), over it -> 429 "global": true + X-RateLimit-Global
            fake.invalid_requests             # every 401/403/429 answer (10,000 in 10 min: a violation)
            fake.dispatch("GUILD_MEMBER_REMOVE", {...})      # any raw gateway event

            # What happened
            fake.requests                     # RecordedRequest(method, path, route, json, status, ...)
            fake.requests_to("POST", "/channels/{channel_id}/messages")
            fake.peak_rate("PATCH", "/channels/{channel_id}/messages/{message_id}", 5.0)  # per channel
            fake.bot_messages()               # everything the bot sent, public or ephemeral
            fake.visible_messages(alice, channel)   # public + alice's ephemeral, in order
            fake.pings(bob)                   # messages that notified bob (allowed_mentions applied)
            fake.thinking()                   # deferred responses never completed
        assert fake.take_violations() == []   # what the fixture checks at teardown (with
                                              # thinking() and errors discord.py logged)

Result of ``slash``/``click``/``select``/``submit_modal`` (:class:`InteractionResult`, live):
``type`` (4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal, ``None`` = no
answer in 3 s, see ``error``), ``message`` (the response message; for 6/7 the clicked message),
``content``, ``text`` (content + embed text), ``ephemeral``, ``followups``, ``choices``, ``modal``,
``response_data`` (the initial response's ``data`` as sent, before later edits), ``answer``.
After a deferred response (5) the first follow-up replaces the "thinking" message, as on Discord.
``await r.answered()`` is ``answer`` once the bot has given it (after a deferral: its follow-up or
edit; ``has_answered()`` says whether it has; ``followup=True`` waits for a follow-up message), so
reading it right after a command never races.

:class:`Message`: ``id`` (snowflake), ``content``, ``embeds``, ``components`` (raw dicts),
``flags``, ``ephemeral``, ``loading``, ``author`` (a :class:`User`), ``visible_to``, ``text``,
``buttons``, ``selects``, ``find_component(label=|custom_id=)``, ``history``, ``edits``, ``deleted``,
``attachments``, ``mentions``, ``pinged``, ``reactions``, ``type``.

``settle()`` counts as busy: requests in flight, gateway events not yet written, an interaction
still inside its 3 s window without an answer, and a retry discord.py owes after a 429/5xx the
fake answered, and (with ``rate_limits``) a bucket at 0 until it resets. It cannot see a bot
sleeping on its own timers: pass a longer ``quiet=`` or wait for a condition.
``FakeDiscord(quiet_period=...)`` sets the default (0.1 s).

World: ``Guild.add_text_channel/add_thread/add_role/add_member/set_roles/remove_member/
remove_channel/member``, ``fake.remove_guild(guild, outage=False)``,
``Channel.set_permissions(target, allow=, deny=)`` (overwrites; the bot's app_permissions and the
403 answers follow them), ``fake.member(user, guild).roles``; changes made
while the bot runs are dispatched (CHANNEL_CREATE/DELETE, GUILD_MEMBER_ADD/UPDATE/REMOVE with the
members intent, ...). ``fake.say(user, channel, "text")`` posts a user message (MESSAGE_CREATE;
content blanked unless the bot has the message content intent or is mentioned);
``fake.react(user, message, "♠")``/``unreact`` add and remove reactions (MESSAGE_REACTION_ADD/REMOVE).
The bot can create threads (from a message or not) and add/remove reactions; ``message.reactions``
maps each emoji to the ids of the users who reacted. DMs: the bot opens them as usual
(``user.send``); ``fake.dm_messages(user)`` reads the conversation, ``fake.dm(user, "text")`` writes
to the bot, buttons on DM messages are clicked like any other (the interaction has no guild);
``fake.add_user(...).dms_open = False`` makes the bot's DMs fail with 403/50007 (so does a user who
shares no server with the bot). ``FakeDiscord(privileged_intents=False)`` closes the gateway with
4014 if the bot asks for them. The server owner is ``fake.owner``; the bot's user ``fake.bot_user``
(its application id is the same).

Rules enforced (each a violation with Discord's code): request bodies vs the OpenAPI spec and the
documented limits (content 2000, 10 embeds / 6000 chars, 5 rows of 5 buttons, 25 select options,
labels 80, custom_id 100 and unique, command names/descriptions/options/choices, 25 autocomplete
choices, modal limits) -> 400/50035; empty message -> 400/50006; initial response after 3 s ->
404/10062; a second initial response -> 400/40060; callback type not valid for the interaction ->
400/50035; follow-up before the initial response -> 404/10015; unknown route -> 404 (``unknown_route``);
missing ``Authorization`` -> 401. Not violations (the bot must cope): 403/50013 missing permissions,
404 unknown message/channel, 401/50027 expired interaction token (after 15 minutes). A deferred
response never completed is reported at teardown too (``fake.take_thinking()`` to accept one).
What the Discord *client* would not let a user do (unknown command or option, wrong option type,
a disabled or missing button, someone else's ephemeral message, a hidden channel, a command whose
``default_member_permissions`` the user lacks) raises :class:`FakeDiscordUsageError` in the test.
Errors discord.py logs (an exception in a command, view or event handler) are collected in
``fake.bot_errors`` and fail the test at teardown too; clear the list to accept them.

Uploads (``fakediscord/uploads.py``): multipart bodies are checked as Discord does (the JSON
in ``payload_json``, files in parts named ``files[n]`` with a filename, at most 10, each at most
10 MiB -> 413/40005, ``attachments[].id`` naming an uploaded ``n``) -> 400/50035. Attachments get
the content type of their bytes (and ``width``/``height`` for PNG and GIF), and
``fake.attachment_bytes(attachment)`` returns what the bot uploaded. Application emojis
(``GET/POST /applications/{id}/emojis``, ``GET/PATCH/DELETE …/{emoji_id}``): names of 2-32 letters,
digits or underscores, unique; images as data URIs of a real image of at most 256 KiB; at most 2000
(30008); kept in ``fake.app_emojis`` and ``fake.app_emoji_images``. A component whose emoji has an
id that is not one of the application's emojis is refused (400/50035 "Invalid emoji"). The fake also
answers as Discord's CDN (no token, outside ``/api/v10``): ``GET /emojis/{id}.png`` an application
emoji's image, ``GET /attachments/{channel_id}/{attachment_id}/{filename}`` an upload
(``fake.cdn_file(path)`` gives the same bytes and content type).

Spec correction: Discord accepts snowflakes as JSON integers (discord.py sends replies'
``message_reference``, ``allowed_mentions.users`` and ``recipient_id`` that way); the spec's
``SnowflakeType`` only allows strings, so integers are allowed here too. Upload references
(``attachments[].id`` = 0, 1, ...) are integers as Discord documents.

Outside pytest: ``async with FakeDiscord() as fake: ...`` works the same; check
``fake.violations`` yourself. One bot runs per fake at a time (``run_bot`` patches class attributes
of discord.py, so do not run two fakes' bots at once in one process).
"""

from .clock import Stopwatch
from .fake import FakeDiscord
from .models import Channel, DMChannel, Guild, Member, Message, Role, ScheduledEvent, User
from .records import FakeDiscordUsageError, InteractionResult, RecordedRequest, Violation

__all__ = [
    "Channel",
    "DMChannel",
    "FakeDiscord",
    "FakeDiscordUsageError",
    "Guild",
    "InteractionResult",
    "Member",
    "Message",
    "RecordedRequest",
    "Role",
    "ScheduledEvent",
    "Stopwatch",
    "User",
    "Violation",
]
