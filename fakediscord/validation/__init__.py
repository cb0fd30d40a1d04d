"""Request validation: Discord's OpenAPI spec (``spec``) plus the documented limits the spec
leaves out (``limits``), and the shapes Discord answers with (``shapes``)."""

from .limits import check_limits, parse_time
from .shapes import errors_tree, normalize_components, normalize_embed, walk_components
from .spec import SPEC_PATH, has_schema, spec, validate_request, validate_response

__all__ = [
    "SPEC_PATH",
    "check_limits",
    "errors_tree",
    "has_schema",
    "normalize_components",
    "normalize_embed",
    "parse_time",
    "spec",
    "validate_request",
    "validate_response",
    "walk_components",
]
