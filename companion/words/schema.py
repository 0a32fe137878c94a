"""The published JSON Schemas of the contract, in docs/schema/ (which is this package's `schemas/` folder):
generated from the TypedDicts (contract.py, and the page's snapshot) by companion/schemagen.py (`python3 dev.py
schema`), kept equal to them by a test. `validate` checks a payload against one of them: the club's scoreboard
checks every board's state with it, the tests every output that carries the state. It needs only the published
file and fastjsonschema."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

FOLDER = Path(__file__).with_name("schemas")


class Invalid(ValueError):
    """A payload that breaks its schema; the text says where and how."""


def path(name: str) -> Path:
    return FOLDER / f"{name}.schema.json"


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
