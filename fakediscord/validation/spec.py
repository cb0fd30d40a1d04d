"""Discord's OpenAPI spec: loading it, and checking request (and response) bodies against it.

The spec is vendored (gzipped, MIT licence next to it, upstream commit in ``spec/VERSION``) from
Discord's ``discord-api-spec`` repository, so a clean checkout validates the same way.

Every body is checked in full by ``jsonschema-rs`` (a compiled validator, ~2 us a body); only a body
it finds invalid is checked again by the pure-Python ``jsonschema``, whose errors say where and why
(~4 ms a body, which made spec checking ~40 % of an end-to-end test's time when it ran on every
request). ``tests/fakediscord/test_validation_properties.py`` checks that the two agree.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

Json = dict[str, Any]

SPEC_PATH = Path(__file__).parent.parent / "spec" / "openapi.json.gz"
_SPEC_URI = "urn:discord-openapi"


@functools.cache
def spec() -> Json:
    """The spec, with one correction: Discord accepts snowflakes as JSON integers as well as strings
    (discord.py sends ``message_reference``, ``allowed_mentions.users``, ``recipient_id``... as
    integers), while the spec's ``SnowflakeType`` allows only strings."""
    with gzip.open(SPEC_PATH, "rt", encoding="utf-8") as fh:
        data: Json = json.load(fh)
    schemas = data["components"]["schemas"]
    schemas["SnowflakeType"] = {
        "anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]
    }
    return data


@functools.cache
def _registry() -> Registry:
    resource: Resource[Any] = DRAFT202012.create_resource(spec())
    return Registry().with_resource(_SPEC_URI, resource)


def _normalize(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", template)


@functools.cache
def _operations() -> dict[tuple[str, str], str]:
    """(METHOD, path with anonymous params) -> JSON pointer of the JSON request body schema."""
    out: dict[tuple[str, str], str] = {}
    for path, item in spec()["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict) or "requestBody" not in op:
                continue
            if "application/json" not in op["requestBody"].get("content", {}):
                continue
            escaped = path.replace("~", "~0").replace("/", "~1")
            pointer = f"/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
            out[(method.upper(), _normalize(path))] = pointer
    return out


@functools.cache
def _response_operations() -> dict[tuple[str, str, str], str]:
    """(METHOD, anonymous path, status) -> JSON pointer of the JSON response schema."""
    out: dict[tuple[str, str, str], str] = {}
    for path, item in spec()["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            for status, response in op.get("responses", {}).items():
                if "application/json" not in response.get("content", {}):
                    continue
                escaped = path.replace("~", "~0").replace("/", "~1")
                pointer = f"/paths/{escaped}/{method}/responses/{status}/content/application~1json/schema"
                out[(method.upper(), _normalize(path), status)] = pointer
    return out


def validate_response(method: str, template: str, status: int, body: Any) -> list[str]:
    """Errors of a response the fake sent against the spec (a self-check of the fake's payloads)."""
    pointer = _response_operations().get((method.upper(), _normalize(template), str(status)))
    if pointer is None or body is None:
        return []
    return [_describe(e) for e in _errors(pointer, body)]


def _resolve(pointer: str) -> Any:
    node: Any = spec()
    for part in pointer.strip("/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


@functools.cache
def _type_branches(pointer: str) -> dict[int, str]:
    """For a union discriminated by ``type`` (the interaction callback), type value -> branch pointer,
    so a body is checked against the branch it names: faster, and errors speak about that branch."""
    schema = _resolve(pointer)
    union = schema.get("anyOf") or schema.get("oneOf") or []
    out: dict[int, str] = {}
    for branch in union:
        ref = branch.get("$ref", "")
        if not ref.startswith("#/"):
            return {}
        type_schema = _resolve(ref[1:]).get("properties", {}).get("type", {})
        for value in type_schema.get("enum", []):
            out[value] = ref[1:]
    return out


@functools.cache
def _validator(pointer: str) -> jsonschema.protocols.Validator:
    schema = {"$ref": f"{_SPEC_URI}#{pointer}"}
    return jsonschema.Draft202012Validator(schema, registry=_registry())


@functools.cache
def _rs_registry() -> jsonschema_rs.Registry:
    return jsonschema_rs.Registry([(_SPEC_URI, spec())], draft=jsonschema_rs.Draft202012)


@functools.cache
def _fast_validator(pointer: str) -> jsonschema_rs.Draft202012Validator:
    """The compiled validator of one schema (a JSON pointer into the spec, percent-encoded in the
    ``$ref`` since path templates carry ``{...}``)."""
    ref = f"{_SPEC_URI}#{urllib.parse.quote(pointer, safe='/~')}"
    return jsonschema_rs.Draft202012Validator({"$ref": ref}, registry=_rs_registry())


def _errors(pointer: str, body: Any) -> list[ValidationError]:
    """The body's errors against the schema at ``pointer``: none when the compiled validator accepts
    it, else the reference validator's, in path order."""
    if _fast_validator(pointer).is_valid(body):
        return []
    return sorted(_validator(pointer).iter_errors(body), key=lambda e: list(map(str, e.absolute_path)))


def has_schema(method: str, template: str) -> bool:
    return (method.upper(), _normalize(template)) in _operations()


def _branch_errors(error: ValidationError) -> Any:
    """For an anyOf/oneOf failure, the errors of the branch the instance was meant for.

    Discord's unions are discriminated by ``type``: the branch whose ``type`` accepted the value is
    the one to explain (not "type: 4 is not one of [8]" from the first branch tried).
    """
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
    depth = len(error.absolute_path)

    def about_type(e: ValidationError) -> bool:
        rel = list(e.absolute_path)[depth:]
        return rel[:1] == ["type"] or (not rel and e.validator == "required" and "'type'" in e.message)

    matching = [errs for errs in branches.values() if not any(about_type(e) for e in errs)]
    if isinstance(error.instance, dict) and "type" in error.instance:
        return min(matching, key=len) if matching else error.context
    # A branch that fails only because the value has another JSON type (``null``, or an object where
    # a string was allowed) says less than one that accepted the type and failed inside.
    inside = [
        errs
        for errs in branches.values()
        if not any(e.validator == "type" and len(e.absolute_path) == depth for e in errs)
    ]
    if inside:
        return min(inside, key=len)
    return error.context


def _describe(error: ValidationError) -> str:
    where = ".".join(str(p) for p in error.absolute_path) or "body"
    instance: Any = error.instance
    typed = isinstance(instance, dict) and "type" in instance
    if error.context and typed and _branch_errors(error) is error.context:
        return f"{where}.type: {instance['type']!r} is not a valid type here".removeprefix("body.")
    if error.context:
        deepest = best_match(_branch_errors(error))
        if deepest is not None and deepest is not error:
            return _describe(deepest)
    message = error.message
    if len(message) > 300:
        message = message[:300] + "..."
    return f"{where}: {message}"


def _tolerate(body: Any) -> Any:
    """Undo the spots where the spec is stricter than Discord and discord.py relies on it.

    Uploads reference their multipart part with an integer ``attachments[].id`` (Discord's own
    docs show ``"id": 0``); the spec types every attachment id as a snowflake string. (Integer
    snowflakes in general are allowed in :func:`spec`.)
    """
    if isinstance(body, dict):
        out = {k: _tolerate(v) for k, v in body.items()}
        if isinstance(out.get("attachments"), list):
            out["attachments"] = [
                a | {"id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
                for a in out["attachments"]
            ]
        return out
    if isinstance(body, list):
        return [_tolerate(v) for v in body]
    return body


def validate_request(method: str, template: str, body: Any) -> list[str]:
    """Errors of ``body`` against the spec's JSON request schema for that operation ([] if valid)."""
    pointer = _operations().get((method.upper(), _normalize(template)))
    if pointer is None or body is None:
        return []
    body = _tolerate(body)
    if isinstance(body, dict) and isinstance(body.get("type"), int):
        branches = _type_branches(pointer)
        if branches:
            if body["type"] not in branches:
                return [f"type: {body['type']!r} is not a valid type here (one of {sorted(branches)})"]
            pointer = branches[body["type"]]
    return [_describe(e) for e in _errors(pointer, body)]
