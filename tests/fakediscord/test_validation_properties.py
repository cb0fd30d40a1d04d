"""Properties of the validator: embed limits match an independent count, and whatever discord.py's
own builders produce is accepted by the spec (no false alarms in the bot's tests)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakediscord.validation import check_limits, validate_request

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MESSAGES = "/channels/{channel_id}/messages"

text = st.text(alphabet="ab ♠♥\n", max_size=40)
sizes = st.integers(min_value=0, max_value=1200)


@st.composite
def embeds(draw: st.DrawFn) -> discord.Embed:
    embed = discord.Embed(
        title=draw(st.one_of(st.none(), text)),
        description="d" * draw(sizes) or None,
        colour=draw(st.one_of(st.none(), st.integers(0, 0xFFFFFF))),
        timestamp=draw(st.one_of(st.none(), st.datetimes(timezones=st.just(dt.UTC)))),
        url=draw(st.one_of(st.none(), st.just("https://example.com/x"))),
    )
    for _ in range(draw(st.integers(0, 6))):
        embed.add_field(
            name=draw(text) or "n", value="v" * draw(st.integers(1, 300)), inline=draw(st.booleans())
        )
    if draw(st.booleans()):
        embed.set_footer(text=draw(text))
    if draw(st.booleans()):
        embed.set_author(name=draw(text) or "a")
    return embed


def embed_chars(e: dict[str, Any]) -> int:
    fields = sum(len(f["name"]) + len(f["value"]) for f in e.get("fields", []))
    return (
        len(e.get("title") or "")
        + len(e.get("description") or "")
        + fields
        + len((e.get("footer") or {}).get("text") or "")
        + len((e.get("author") or {}).get("name") or "")
    )


@FAST
@given(st.lists(embeds(), min_size=1, max_size=10))
def test_embed_total_limit_matches_an_independent_count(items: list[discord.Embed]) -> None:
    data: list[dict[str, Any]] = [dict(e.to_dict()) for e in items]
    total = sum(embed_chars(e) for e in data)
    errors = check_limits("message", {"embeds": data})
    assert any("Embed size exceeds" in e for e in errors) == (total > 6000)


@FAST
@given(st.lists(embeds(), max_size=3), st.one_of(st.none(), text))
def test_what_discord_py_builds_is_valid_for_the_spec(
    items: list[discord.Embed], content: str | None
) -> None:
    body: dict[str, Any] = {"embeds": [e.to_dict() for e in items], "tts": False}
    if content is not None:
        body["content"] = content
    assert validate_request("POST", MESSAGES, body) == []


@FAST
@given(st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f"]), min_size=1, max_size=5))
def test_duplicate_custom_ids_are_caught_exactly_when_present(ids: list[str]) -> None:
    view = discord.ui.View()
    for i, cid in enumerate(ids):
        view.add_item(discord.ui.Button(label=str(i), custom_id=cid, row=i))
    errors = check_limits("message", {"components": view.to_components()})
    assert any("cannot be duplicated" in e for e in errors) == (len(set(ids)) < len(ids))


@FAST
@given(st.integers(min_value=1, max_value=40))
def test_select_option_count(n: int) -> None:
    options = [discord.SelectOption(label=str(i), value=str(i)) for i in range(n)]
    view = discord.ui.View()
    view.add_item(discord.ui.Select(custom_id="s", options=options))
    body = {"components": view.to_components()}
    errors = check_limits("message", body)
    assert bool(errors) == (n > 25)
    assert validate_request("POST", MESSAGES, body) == [] or n > 25


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 2**65), st.text(max_size=5), st.lists(st.integers(), max_size=2)
)


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A message body discord.py could build, with one value replaced by a random one (most such
    bodies are invalid somewhere deep: a type, a range, an enum, a missing member)."""
    view = discord.ui.View()
    for i in range(draw(st.integers(0, 3))):
        view.add_item(discord.ui.Button(label=draw(text) or "b", custom_id=f"c{i}", row=i))
    body: dict[str, Any] = {
        "content": draw(text),
        "embeds": [e.to_dict() for e in draw(st.lists(embeds(), max_size=2))],
        "components": view.to_components(),
        "allowed_mentions": {"parse": [], "users": draw(st.lists(st.integers(1, 2**63), max_size=2))},
    }
    paths: list[tuple[Any, Any]] = []

    def collect(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, value in items:
            paths.append((node, key))
            collect(value)

    collect(body)
    if paths and draw(st.booleans()):
        node, key = draw(st.sampled_from(paths))
        node[key] = draw(_scalars)
    return body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies())
def test_the_compiled_validator_agrees_with_the_reference_validator(body: dict[str, Any]) -> None:
    """The fast path (jsonschema-rs) decides which bodies the reference validator (jsonschema) sees:
    on valid and on broken bodies they must give the same verdict, or errors would go unseen."""
    from fakediscord.validation.spec import (
        _fast_validator,
        _normalize,
        _operations,
        _tolerate,
        _validator,
    )

    pointer = _operations()[("POST", _normalize(MESSAGES))]
    body = _tolerate(body)
    reference = not any(True for _ in _validator(pointer).iter_errors(body))
    assert _fast_validator(pointer).is_valid(body) == reference
