"""The terminal simulator's 80x24 screen of the sample deal just after Ann's last card (8H), on a given board,
as `crib sim` draws it: for the tests of its fit and of its words in each language."""

from __future__ import annotations

from companion.boards import load_layout
from companion.cribbage.game import replay
from companion.view.history import game_history
from companion.view.pegs import DEFAULT_COLOURS, render_pegs
from companion.view.picture import board_rows, legend_for, legend_text
from companion.view.screen import screen_view
from companion.view.terminal import oled_box, terminal_screen
from tests.sample_deal import deal


def screen(layout_name: str, *, colour: bool, error: str | None = None, status: str = "8H: ok") -> list[str]:
    before, state = replay(deal("8H")[:-1]), replay(deal("8H"))
    layout = load_layout(layout_name)
    frame = render_pegs(state, layout)[0]
    view = screen_view(state, recent=state.events[len(before.events):], error=error)
    return terminal_screen(oled=oled_box(view, colour=colour), board=board_rows(layout, frame, colour=colour),
                           legend=legend_text(legend_for(state, DEFAULT_COLOURS), colour=colour),
                           history=game_history(state), status=[status, "help"])
