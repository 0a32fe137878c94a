"""The JSON Schemas of the contract (contract.py), generated from its TypedDicts and published in
docs/schema/ (which is this package's `schemas/` folder): `python3 dev.py schema` writes them again, a test keeps
the published files equal to the types, and `validate` checks a payload against one of them (the club's
scoreboard checks every board's state with it; the tests check every output that carries the state).

Generating needs pydantic (a development tool); validating needs only the published file and fastjsonschema."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from . import contract

FOLDER = Path(__file__).with_name("schemas")
PAYLOADS: Mapping[str, type] = {
    "state": contract.StateJSON,  # crib replay --json; under "state" in every payload below
    "board-state": contract.BoardStateJSON,  # crib state --json
    "game": contract.GameJSON,  # /api/games/LOG/N
}
BASE = "https://cribbage-companion.invalid/schema/"  # the schemas' ids: names, not addresses to fetch


class Invalid(ValueError):
    """A payload that breaks its schema; the text says where and how."""


def generate(name: str) -> dict[str, Any]:
    """The JSON Schema of one payload, from its TypedDict; every object closed to keys it does not name."""
    from pydantic import TypeAdapter

    schema: dict[str, Any] = TypeAdapter(PAYLOADS[name]).json_schema()
    for shape in (schema, *schema.get("$defs", {}).values()):
        if "properties" in shape:
            shape["additionalProperties"] = False
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{BASE}{name}.schema.json", **schema}


def path(name: str) -> Path:
    return FOLDER / f"{name}.schema.json"


def text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


@functools.cache
def _validator(name: str) -> Callable[[object], object]:
    import fastjsonschema

    return fastjsonschema.compile(json.loads(path(name).read_text(encoding="utf-8")))


def validate(name: str, payload: object) -> None:
    """Raise `Invalid` when `payload` does not follow the published schema `name`."""
    import fastjsonschema

    try:
        _validator(name)(payload)
    except fastjsonschema.JsonSchemaValueException as error:
        raise Invalid(f"not a {name} payload: {error.message}") from None


def main() -> int:
    FOLDER.mkdir(exist_ok=True)
    for name in PAYLOADS:
        path(name).write_text(text(generate(name)), encoding="utf-8")
        print(f"wrote {path(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
