"""`crib replay`: replay a game's transcript (JSON Lines table inputs) and print the scores, deal by deal."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

from companion.commands.score import open_text
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.phrases import event_name, event_words, side_name
from companion.cribbage.projection import state_json
from companion.cribbage.transcript import parse_input
from companion.gamelog import is_header
from companion.i18n import _


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a game transcript and print the scores",
        description="Replay a transcript: one table input a line as JSON, e.g. {\"type\":\"play\",\"card\":\"5H\"} "
        "(the format of the game log; see RULES.md). Prints every deal's points and the state of the game.",
    )
    parser.add_argument("file", metavar="FILE", help="the transcript ('-' for standard input)")
    parser.add_argument("--json", action="store_true", help="print the state as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with open_text(args.file) as lines:
        state = replay_lines(lines)
    if args.json:
        print(json.dumps(state_json(state), ensure_ascii=False))
    else:
        print(describe(state))
    return 0


def replay_lines(lines: Iterable[str]) -> GameState:
    """Apply every input in turn; an error names its line and nothing after it is read. A board log's header line
    is skipped."""
    state = initial_state()
    for number, line in enumerate(lines, 1):
        if not line.strip() or (number == 1 and is_header(line)):
            continue
        try:
            state = apply(state, parse_input(line))
        except CribbageError as error:
            raise type(error)(_("line {number}: {error}").format(number=number, error=error)) from None
    return state


def describe(state: GameState) -> str:
    """The game in words: each deal's points with their reasons, then the scores and what comes next."""
    out: list[str] = []
    for record in state.deals:
        starter = _(", starter {starter}").format(starter=record.starter) if record.starter else ""
        out.append(_("deal {number}: {dealer} deals{starter}")
                   .format(number=record.number, dealer=record.dealer, starter=starter))
        for event in state.events:
            if event.deal == record.number:
                who = event.player or side_name(event.side)
                side = "" if event.side.players == (who,) or event.player is None else _(" for {side}").format(
                    side=side_name(event.side))
                said = event_words(event) or _("nothing")
                out.append(_("  {label}: {who}{side} +{points} ({said})")
                           .format(label=event_name(event), who=who, side=side, points=event.points, said=said))
    scores = ", ".join(f"{side_name(side)} {state.scores[side]}" for side in state.sides)
    if scores:
        out.append(_("scores: {scores}").format(scores=scores))
    if state.match_target is not None:
        points = ", ".join(f"{side_name(s)} {state.match_points[s]}" for s in state.sides)
        out.append(_("match points: {points}").format(points=points))
    out.append(state.prompt())
    return "\n".join(out)
