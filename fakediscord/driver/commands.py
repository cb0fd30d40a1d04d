"""Users running the bot's commands: slash commands (subcommands, typed options), autocomplete, and
the user and message context menus. Interactions are built from the *synced* definitions, and what
Discord's client would not let a user send raises :class:`FakeDiscordUsageError`."""

from __future__ import annotations

from typing import Any

from discord import Permissions

from ..interactions import Interactions
from ..models import Channel, Guild, Json, Member, Message, Role, User
from ..records import FakeDiscordUsageError, InteractionResult
from ..state import FakeState
from ..world import World


class CommandUse:
    """``slash``, ``autocomplete``, ``user_command``, ``message_command``, ``commands_for``."""

    def __init__(self, state: FakeState, world: World, desk: Interactions) -> None:
        self.state = state
        self.world = world
        self.desk = desk

    def commands_for(self, guild: Guild | None = None) -> list[Json]:
        """The synced commands a user in ``guild`` sees (guild commands, then global ones)."""
        found = dict(self.state.commands.get(None, {}))
        if guild is not None:
            found.update(self.state.commands.get(guild.id, {}))
        return list(found.values())

    async def slash(
        self, user: User, channel: Channel, command: str, /, options: Json | None = None, **kwargs: Any
    ) -> InteractionResult:
        """``user`` runs ``/command`` (``"spades new"`` for a subcommand) in ``channel``.

        Options come as keyword arguments (or ``options=`` for names that are not identifiers);
        users, channels and roles are passed as the fake's objects. The interaction is built from
        the *synced* command: an unknown command or option, a missing required option, a value of the
        wrong type, outside min/max or not among the choices fails the test here, since Discord's
        client would not let a user send it. Returns once the bot's initial response arrived (or 3 s).
        """
        given = dict(options or {}) | kwargs
        self.world.check_member(user, channel)
        data = self._command_data(user, channel, command, given, focused=None)
        record = self.desk.create(2, user, channel, data)
        return await self.desk.send(record)

    async def autocomplete(
        self, user: User, channel: Channel, command: str, option: str, value: str, /, **kwargs: Any
    ) -> list[Json]:
        """``user`` types ``value`` into ``option`` of ``/command``: returns the choices the bot offered."""
        self.world.check_member(user, channel)
        data = self._command_data(user, channel, command, dict(kwargs), focused=(option, value))
        record = self.desk.create(4, user, channel, data)
        result = await self.desk.send(record)
        if result.type != 8:
            if result.type is not None:
                raise AssertionError(f"autocomplete answered with callback type {result.type}, expected 8")
            return []
        return result.choices or []

    async def user_command(self, user: User, channel: Channel, name: str, target: User) -> InteractionResult:
        """``user`` runs the user context-menu command ``name`` (Apps > name) on ``target``."""
        self.world.check_member(user, channel)
        cmd = self.find_command(channel.guild, name, 2)
        self._check_command_allowed(cmd, user, channel)
        resolved: Json = {}
        target_id = self.option_value({"name": "target", "type": 6}, target, resolved, channel)
        data = {"id": cmd["id"], "name": name, "type": 2, "target_id": target_id, "resolved": resolved}
        return await self.desk.send(self.desk.create(2, user, channel, data))

    async def message_command(self, user: User, message: Message, name: str) -> InteractionResult:
        """``user`` runs the message context-menu command ``name`` on ``message``."""
        channel = self.world.visible_component_message(user, message)
        if not isinstance(channel, Channel):
            raise FakeDiscordUsageError("message commands are only modelled in servers")
        cmd = self.find_command(channel.guild, name, 3)
        self._check_command_allowed(cmd, user, channel)
        data = {
            "id": cmd["id"],
            "name": name,
            "type": 3,
            "target_id": str(message.id),
            "resolved": {"messages": {str(message.id): message.payload()}},
        }
        return await self.desk.send(self.desk.create(2, user, channel, data))

    def find_command(self, guild: Guild, name: str, type_: int = 1) -> Json:
        cmd = next(
            (c for c in self.commands_for(guild) if c["name"] == name and c.get("type", 1) == type_), None
        )
        if cmd is None:
            known = sorted(c["name"] for c in self.commands_for(guild) if c.get("type", 1) == type_)
            kind = {1: "slash", 2: "user", 3: "message"}[type_]
            raise FakeDiscordUsageError(f"no synced {kind} command {name!r} (synced: {known})")
        return cmd

    def _check_command_allowed(self, cmd: Json, user: User, channel: Channel) -> None:
        perms = channel.guild.member(user).permissions_in(channel)
        if not perms & Permissions(use_application_commands=True).value:
            raise FakeDiscordUsageError(
                f"{user.username} may not use application commands in #{channel.name}"
            )
        required = cmd.get("default_member_permissions")
        if required is not None and (int(required) & perms) != int(required):
            raise FakeDiscordUsageError(
                f"{cmd['name']!r} needs permissions {int(required)} that {user.username} lacks: "
                "Discord hides it"
            )
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise FakeDiscordUsageError(f"{cmd['name']!r} is not available in servers (contexts={contexts})")

    def _command_data(
        self, user: User, channel: Channel, command: str, given: Json, focused: tuple[str, str] | None
    ) -> Json:
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise FakeDiscordUsageError("empty command name")
        cmd = self.find_command(channel.guild, parts[0])
        self._check_command_allowed(cmd, user, channel)
        resolved: Json = {}
        options = self._build_options(cmd, parts, given, focused, resolved, channel)
        data: Json = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    def _build_options(
        self,
        cmd: Json,
        parts: list[str],
        given: Json,
        focused: tuple[str, str] | None,
        resolved: Json,
        channel: Channel,
    ) -> list[Json]:
        defs: list[Json] = cmd.get("options") or []
        path = [parts[0]]
        wrappers: list[Json] = []
        for part in parts[1:]:
            sub = next((o for o in defs if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                subs = [o["name"] for o in defs if o["type"] in (1, 2)]
                raise FakeDiscordUsageError(f"/{' '.join(path)} has no subcommand {part!r} (has {subs})")
            path.append(part)
            wrappers.append({"name": part, "type": sub["type"], "options": []})
            defs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in defs):
            subs = [o["name"] for o in defs if o["type"] in (1, 2)]
            raise FakeDiscordUsageError(f"/{' '.join(path)} needs a subcommand: one of {subs}")
        leaf: list[Json] = []
        names = {o["name"] for o in defs}
        for key in given:
            if key not in names and not (focused and key == focused[0]):
                raise FakeDiscordUsageError(f"/{' '.join(path)} has no option {key!r} (has {sorted(names)})")
        if focused is not None and focused[0] not in names:
            raise FakeDiscordUsageError(
                f"/{' '.join(path)} has no option {focused[0]!r} (has {sorted(names)})"
            )
        for opt in defs:
            name = opt["name"]
            if focused is not None and name == focused[0]:
                if not opt.get("autocomplete"):
                    raise FakeDiscordUsageError(f"option {name!r} of /{' '.join(path)} has no autocomplete")
                leaf.append({"name": name, "type": opt["type"], "value": focused[1], "focused": True})
                continue
            if name not in given:
                if opt.get("required") and focused is None:
                    raise FakeDiscordUsageError(f"/{' '.join(path)} needs option {name!r}")
                continue
            leaf.append(
                {
                    "name": name,
                    "type": opt["type"],
                    "value": self.option_value(opt, given[name], resolved, channel),
                }
            )
        options = leaf
        for wrapper in reversed(wrappers):
            wrapper["options"] = options
            options = [wrapper]
        return options

    def option_value(self, opt: Json, value: Any, resolved: Json, channel: Channel) -> Any:
        t = opt["type"]
        name = opt["name"]
        guild = channel.guild

        def bad(why: str) -> FakeDiscordUsageError:
            return FakeDiscordUsageError(f"option {name!r}: {why} (got {value!r})")

        if t == 3:
            if not isinstance(value, str):
                raise bad("expects a string")
            if len(value) < opt.get("min_length", 0) or len(value) > opt.get("max_length", 6000):
                raise bad(f"length must be {opt.get('min_length', 0)}..{opt.get('max_length', 6000)}")
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("expects an integer")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad("expects a number")
        elif t == 5:
            if not isinstance(value, bool):
                raise bad("expects a boolean")
        elif t in (6, 9) and isinstance(value, User | Member):
            user = value if isinstance(value, User) else value.user
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if user.id in guild.members:
                resolved.setdefault("members", {})[str(user.id)] = guild.members[user.id].payload(
                    with_user=False, permissions_in=channel
                )
            return str(user.id)
        elif t in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        elif t == 7 and isinstance(value, Channel):
            types = opt.get("channel_types")
            if types and value.type not in types:
                raise bad(f"channel type must be one of {types}")
            member_perms = guild.members[self.state.bot_user.id].permissions_in(value)
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id),
                "name": value.name,
                "type": value.type,
                "permissions": str(member_perms),
                **({"parent_id": str(value.parent.id)} if value.parent else {}),
                **({"thread_metadata": value.payload()["thread_metadata"]} if value.is_thread else {}),
            }
            return str(value.id)
        else:
            raise bad(f"unsupported value for option type {t}")
        if t in (4, 10):
            lo, hi = opt.get("min_value"), opt.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise bad(f"must be within {lo}..{hi}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise bad(f"must be one of {[c['value'] for c in choices]}")
        return value
