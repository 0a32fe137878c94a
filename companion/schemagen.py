"""Writes the published JSON Schemas (docs/schema/) from the contract's TypedDicts: `python3 dev.py schema`.

A development tool, like the message catalog's (catalog.py): it stands above every layer, so it can name the
payloads of each (the game's state in words/contract.py, the page's snapshot in web/snapshot.py); the package
itself only reads the published files (words/schema.py `validate`). Generating needs pydantic."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from companion.boards import LayoutJSON
from companion.club import payloads as club
from companion.web.snapshot import SnapshotJSON
from companion.words import contract
from companion.words.schema import FOLDER, path

PAYLOADS: Mapping[str, type] = {
    "state": contract.StateJSON,  # crib replay --json; under "state" in every payload below
    "board-state": contract.BoardStateJSON,  # crib state --json
    "game": contract.GameJSON,  # /api/games/LOG/N
    "snapshot": SnapshotJSON,  # /api/state and each message of the page's WebSocket
    "board-layout": LayoutJSON,  # companion/boards/*.json and --layout files
    "stats": contract.StatsJSON,  # crib stats --json
    "stats-overview": contract.OverviewJSON,  # /api/stats
    "club-event": club.EventMessageJSON,  # cribbage/CLUB/boards/BOARD/events
    "club-state": club.StateMessageJSON,  # cribbage/CLUB/boards/BOARD/state
    "club-status": club.StatusMessageJSON,  # cribbage/CLUB/boards/BOARD/status
    "club-seat": club.SeatMessageJSON,  # cribbage/CLUB/seats/BOARD
    "club-night": club.NightJSON,  # the scoreboard page's WebSocket
    "club-director": club.DirectorJSON,  # the director's page: /api/waiting
}
BASE = "https://cribbage-companion.invalid/schema/"  # the schemas' ids: names, not addresses to fetch


def generate(name: str) -> dict[str, Any]:  # a JSON Schema document: any JSON, as pydantic types it
    """The JSON Schema of one payload, from its TypedDict; every object closed to keys it does not name."""
    from pydantic import TypeAdapter

    schema: dict[str, Any] = TypeAdapter(PAYLOADS[name]).json_schema()
    for shape in (schema, *schema.get("$defs", {}).values()):
        if "properties" in shape:
            shape["additionalProperties"] = False
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"{BASE}{name}.schema.json", **schema}


def text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main() -> int:
    FOLDER.mkdir(exist_ok=True)
    for name in PAYLOADS:
        path(name).write_text(text(generate(name)), encoding="utf-8")
        print(f"wrote {path(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
