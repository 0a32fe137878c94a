"""The table controller, in four parts a reader can hold one at a time:

- `Table` (table.py): entries in, engine inputs applied to the game and appended to the log, outcomes out;
- `HeldCards` (held.py): the crib and coached hands on their way in, and their file beside the log;
- `Coach` (coach.py): the discards worked out after the play and the review of each (advice imported lazily);
- `Presenter` (presenter.py): what the strip and the OLED show, and `Shown`, the same in plain values.

The daemon, `crib sim` and the benchmarks use `Table` and `Outcome`; the parts are public for their tests and
for other views of the same table (a web page shows `Table.shown()`).
"""

from companion.words.phrases import HELP  # the menu's help, for the views that show it too

from .coaching import Coach
from .held import CommandMistake, HeldCards
from .presenter import Picture, Presenter, Shown
from .table import DEALER, NEW_GAME, Outcome, Table

__all__ = [
    "DEALER",
    "HELP",
    "NEW_GAME",
    "Coach",
    "CommandMistake",
    "HeldCards",
    "Outcome",
    "Picture",
    "Presenter",
    "Shown",
    "Table",
]
