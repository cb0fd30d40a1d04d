"""Validation rules, one by one: the OpenAPI spec and the documented limits, at and past each limit."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from fakediscord import validation
from fakediscord.validation import check_limits, errors_tree, validate_request


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(label: str = "Go", custom_id: str = "go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def select(n: int, custom_id: str = "pick", **extra: Any) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": str(i), "value": str(i)} for i in range(n)],
    } | extra


def option(name: str = "opt", **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "An option"} | extra


def command(**extra: Any) -> dict[str, Any]:
    return {"name": "spades", "description": "Play spades", "type": 1} | extra


def embed(**extra: Any) -> dict[str, Any]:
    return {"title": "t", "description": "d"} | extra


# (kind, body, substring of the expected error); each limit is also checked exactly at the limit below.
BROKEN: list[tuple[str, dict[str, Any], str]] = [
    ("message", {"content": "x" * 2001}, "content: Must be 2000 or fewer"),
    ("message", {"embeds": [embed()] * 11}, "embeds: Must be 10 or fewer"),
    ("message", {"embeds": [embed(title="t" * 257)]}, "embeds.0.title: Must be 256"),
    ("message", {"embeds": [embed(description="d" * 4097)]}, "embeds.0.description: Must be 4096"),
    (
        "message",
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        "embeds.0.fields: Must be 25",
    ),
    (
        "message",
        {"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]},
        "fields.0.name: Must be 256",
    ),
    (
        "message",
        {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]},
        "fields.0.value: Must be 1024",
    ),
    (
        "message",
        {"embeds": [embed(fields=[{"name": "n", "value": ""}])]},
        "fields.0.value: Must be at least 1",
    ),
    ("message", {"embeds": [embed(footer={"text": "f" * 2049})]}, "footer.text: Must be 2048"),
    ("message", {"embeds": [embed(description="d" * 4000)] * 2}, "Embed size exceeds maximum size of 6000"),
    ("message", {"components": [row(button(custom_id=str(i))) for i in range(6)]}, "components: Must be 5"),
    ("message", {"components": [row(*[button(custom_id=str(i)) for i in range(6)])]}, "Must be 5 or fewer"),
    ("message", {"components": [row(select(26))]}, "options: Must be between 1 and 25"),
    ("message", {"components": [row(select(0))]}, "options: Must be between 1 and 25"),
    ("message", {"components": [row(select(3, max_values=4))]}, "max_values: 4 is more than the 3 options"),
    ("message", {"components": [row(select(3), button())]}, "must be alone in its action row"),
    ("message", {"components": [row(button(label="l" * 81))]}, "label: Must be 80"),
    ("message", {"components": [row(button(custom_id="c" * 101))]}, "custom_id: Must be 100"),
    ("message", {"components": [row(button(), button())]}, "custom id cannot be duplicated"),
    ("message", {"components": [row(button()), row(select(2, custom_id="go"))]}, "cannot be duplicated"),
    ("message", {"components": [row(button(label=""))]}, "needs a label or an emoji"),
    (
        "message",
        {"components": [row({"type": 2, "style": 5, "label": "x", "custom_id": "a"})]},
        "link button",
    ),
    ("message", {"components": [button()]}, "must be action rows"),
    ("message", {"components": [row()]}, "an action row needs 1 to 5"),
    (
        "message",
        {"content": "x", "flags": 1 << 15, "components": [{"type": 10, "content": "t"}]},
        "IS_COMPONENTS_V2",
    ),
    ("command", command(name="Spades"), "in lower case"),
    ("command", command(name="spades new"), "in lower case"),
    ("command", command(name="s" * 33), "in lower case"),
    ("command", command(description=""), "description: Must be at least 1"),
    ("command", command(description="d" * 101), "description: Must be 100"),
    ("command", command(options=[option(f"o{i}") for i in range(26)]), "options: Must be 25"),
    (
        "command",
        command(options=[option(choices=[{"name": str(i), "value": str(i)} for i in range(26)])]),
        "25",
    ),
    ("command", command(options=[option(description="d" * 101)]), "options.0.description: Must be 100"),
    ("command", command(options=[option(), option()]), "duplicate option name"),
    ("command", command(options=[option("a"), option("b", required=True)]), "required options must come"),
    (
        "command",
        command(options=[option(autocomplete=True, choices=[{"name": "a", "value": "a"}])]),
        "autocomplete",
    ),
    ("command", command(options=[option("Opt")]), "in lower case"),
    (
        "command",
        command(
            options=[
                option(f"o{i}", description="d" * 100, choices=[{"name": "n" * 100, "value": "v"}] * 5)
                for i in range(14)
            ]
        ),
        "(max 8000)",
    ),
    (
        # short default texts, long translations: each field counts its longest localization
        "command",
        command(
            options=[
                option(
                    f"o{i}",
                    description="d",
                    description_localizations={"pl": "d" * 100},
                    choices=[{"name": "n", "name_localizations": {"ru": "n" * 100}, "value": "v"}] * 5,
                )
                for i in range(14)
            ]
        ),
        "longest localization (max 8000)",
    ),
    (
        "autocomplete",
        {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]},
        "choices: Must be 25",
    ),
    ("autocomplete", {"choices": [{"name": "n" * 101, "value": "v"}]}, "choices.0.name: Must be 100"),
    ("autocomplete", {}, "choices: required"),
    (
        "modal",
        {
            "title": "t" * 46,
            "custom_id": "m",
            "components": [row({"type": 4, "custom_id": "a", "label": "l"})],
        },
        "title",
    ),
    ("modal", {"title": "t", "custom_id": "m", "components": []}, "components: Must be between 1 and 5"),
    (
        "scheduled_event",
        {"name": "n", "entity_type": 3, "scheduled_start_time": "2030-01-01T00:00:00Z"},
        "location",
    ),
    ("scheduled_event", {"name": "n" * 101}, "name: Must be 100"),
]


@pytest.mark.parametrize(("kind", "body", "expected"), BROKEN, ids=[b[2][:40] for b in BROKEN])
def test_limit_is_enforced(kind: str, body: dict[str, Any], expected: str) -> None:
    errors = check_limits(kind, body)
    assert any(expected in e for e in errors), errors


AT_THE_LIMIT: list[tuple[str, dict[str, Any]]] = [
    ("message", {"content": "x" * 2000}),
    ("message", {"embeds": [embed(title="t" * 256, description="d" * 2000)] + [embed()] * 9}),
    ("message", {"embeds": [embed(fields=[{"name": "n" * 10, "value": "v" * 200}] * 25)]}),
    ("message", {"components": [row(*[button(custom_id=f"{r}.{i}") for i in range(5)]) for r in range(5)]}),
    ("message", {"components": [row(select(25, max_values=25))]}),
    ("message", {"components": [row(button(label="l" * 80, custom_id="c" * 100))]}),
    (
        "message",
        {"components": [row({"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"})]},
    ),
    ("message", {"flags": 1 << 15, "components": [{"type": 10, "content": "t"}, row(button())]}),
    ("command", command(name="bid", options=[option(f"o{i}") for i in range(25)])),
    ("command", command(name="ß-über_2", description="d" * 100)),
    ("command", command(options=[option("a", required=True), option("b")])),
    ("command", {"name": "Show Hand", "type": 2}),
    (
        # 7,908 characters counting each field once at its longest, four times that summed over languages
        "command",
        command(
            options=[
                option(
                    f"o{i}",
                    description="d" * 100,
                    description_localizations={lang: "d" * 100 for lang in ("pl", "cs", "ru")},
                    choices=[{"name": "n" * 100, "name_localizations": {"pl": "n" * 99}, "value": "v"}] * 5,
                )
                for i in range(13)
            ]
        ),
    ),
    ("autocomplete", {"choices": [{"name": str(i), "value": str(i)} for i in range(25)]}),
    (
        "modal",
        {
            "title": "t" * 45,
            "custom_id": "m",
            "components": [row({"type": 4, "custom_id": "a", "label": "l"})],
        },
    ),
]


@pytest.mark.parametrize(("kind", "body"), AT_THE_LIMIT)
def test_at_the_limit_is_accepted(kind: str, body: dict[str, Any]) -> None:
    assert check_limits(kind, body) == []


def test_openapi_schema_catches_wrong_types_and_missing_fields() -> None:
    assert validate_request("POST", "/channels/{channel_id}/messages", {"content": 5}) == [
        "content: 5 is not of type 'string', 'null'"
    ]
    errors = validate_request("POST", "/channels/{x}/messages", {"embeds": [{"color": "red"}]})
    assert errors == ["embeds.0.color: 'red' is not of type 'integer', 'null'"]
    assert validate_request("POST", "/guilds/{g}/scheduled-events", {"name": "x", "entity_type": 3}) != []
    assert validate_request("POST", "/channels/{channel_id}/messages", {"content": "fine"}) == []


def test_openapi_union_errors_explain_the_intended_branch() -> None:
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    assert validate_request("POST", callback, {"type": 4, "data": {"content": "x", "flags": "abc"}}) == [
        "data.flags: 'abc' is not of type 'integer', 'null'"
    ]
    assert validate_request("POST", callback, {"type": 42}) == [
        "type: 42 is not a valid type here (one of [1, 4, 5, 6, 7, 8, 9, 12, 13])"
    ]
    assert validate_request("POST", callback, {"type": 4, "data": {"content": 5}}) == [
        "data.content: 5 is not of type 'string', 'null'"
    ]
    command = {"name": "x", "description": "d", "options": [{"type": 99, "name": "a", "description": "b"}]}
    assert validate_request("PUT", "/applications/{application_id}/commands", [command]) == [
        "0.options.0.type: 99 is not a valid type here"
    ]
    assert validate_request("POST", callback, {"type": 4, "data": {"content": "ok"}}) == []


def test_errors_tree_has_discords_shape() -> None:
    tree = errors_tree(["data.content: Must be 2000 or fewer in length.", "data.embeds.0.title: too long"])
    assert tree["data"]["content"]["_errors"][0]["message"] == "Must be 2000 or fewer in length."
    assert tree["data"]["embeds"]["0"]["title"]["_errors"][0]["message"] == "too long"


def test_the_vendored_spec_is_whole_and_says_where_it_comes_from() -> None:
    with gzip.open(validation.SPEC_PATH, "rt", encoding="utf-8") as fh:
        spec = json.load(fh)
    assert spec["openapi"].startswith("3.") and len(spec["paths"]) > 100
    assert "/channels/{channel_id}/messages" in spec["paths"]
    assert "/interactions/{interaction_id}/{interaction_token}/callback" in spec["paths"]
    commit, _, when = (validation.SPEC_PATH.parent / "VERSION").read_text().strip().partition(" ")
    assert len(commit) == 40 and int(commit, 16) and when  # the upstream commit it was taken from
    assert "MIT" in (validation.SPEC_PATH.parent / "LICENSE").read_text()


def test_integer_snowflakes_are_accepted_as_discord_does() -> None:
    big = 1576718178288013315
    reply = {"content": "x", "message_reference": {"message_id": big, "channel_id": big}}
    assert validate_request("POST", "/channels/{channel_id}/messages", reply) == []
    mentions = {"content": "x", "allowed_mentions": {"parse": [], "users": [big, str(big)]}}
    assert validate_request("POST", "/channels/{channel_id}/messages", mentions) == []
    assert validate_request("POST", "/users/@me/channels", {"recipient_id": big}) == []
    assert validate_request("POST", "/users/@me/channels", {"recipient_id": "12x"}) != []
    assert validate_request("POST", "/users/@me/channels", {"recipient_id": -1}) != []
