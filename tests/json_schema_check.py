"""A small JSON Schema checker for the schemas in docs/ (jsonschema is not a dependency): the
keywords those schemas use, $ref to #/$defs, type (with lists and null), const, enum, oneOf,
required, properties, additionalProperties: false, items, minimum. An unknown keyword is an
error, so a schema cannot quietly ask for more than this checks."""

from __future__ import annotations

from typing import Any

KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum", "oneOf", "required", "properties",
         "additionalProperties", "items", "minimum", "$ref", "$defs"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[kind])


def errors(value: Any, schema: dict, root: dict | None = None, where: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema``, each naming where (empty: it conforms)."""
    root = schema if root is None else root
    unknown = set(schema) - KNOWN
    if unknown:
        return [f"{where}: the checker does not know {sorted(unknown)}"]
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        return errors(value, root["$defs"][ref.removeprefix("#/$defs/")], root, where)
    found: list[str] = []
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(value, k) for k in kinds):
            return [f"{where}: {value!r} is not {' or '.join(kinds)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        found.append(f"{where}: {value!r} is below {schema['minimum']}")
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not errors(value, s, root, where)]
        if len(fits) != 1:
            found.append(f"{where}: fits {len(fits)} of oneOf, not exactly one")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                found.append(f"{where}: {key!r} is missing")
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                found.append(f"{where}: {key!r} is not in the schema")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += errors(item, schema["items"], root, f"{where}[{i}]")
    return found
