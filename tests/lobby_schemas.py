"""The published JSON Schemas of the lobby's --json outputs (docs/schemas/*.json, draft
2020-12), checked with the jsonschema package (the test extra): ``check(schema, value)``
raises naming every way ``value`` breaks it. docs/schemas.md's table says which schema
describes each command's output (:func:`schema_of`)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema", reason='the schema tests need jsonschema: pip install ".[test]"')
from referencing import Registry  # noqa: E402  (jsonschema's own dependency)
from referencing.jsonschema import DRAFT202012  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"
SCHEMAS = DOCS / "schemas"


@functools.cache
def schemas() -> dict[str, dict]:
    return {path.name: json.loads(path.read_text()) for path in sorted(SCHEMAS.glob("*.json"))}


@functools.cache
def _registry() -> Registry:
    return Registry().with_resources((schema["$id"], DRAFT202012.create_resource(schema))
                                     for schema in schemas().values())


@functools.cache
def _validator(name: str) -> Any:
    return jsonschema.Draft202012Validator(schemas()[name], registry=_registry())


def check(name: str, value: Any) -> None:
    """``value`` conforms to docs/schemas/``name``, or AssertionError saying where it does not."""
    validator = _validator(name)
    found = [f"{'/'.join(map(str, error.absolute_path)) or '$'}: {error.message}"[:300]
             for error in validator.iter_errors(value)]
    assert not found, f"{name}: " + "; ".join(found)


@functools.cache
def table() -> dict[str, str]:
    """docs/schemas.md's table: each command (or stream) and the schema of its --json output."""
    rows = re.findall(r"^\| `(\w+)[^`]*`[^|]*\| \[(?:schemas\/)?(\S+\.json)\]", (DOCS / "schemas.md").read_text(), re.MULTILINE)
    return dict(rows)


def schema_of(command: str) -> str:
    return table()[command]
