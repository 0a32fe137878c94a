# Optional 4x4 matrix keypad on the Pico. The columns are inputs with pull-ups, and so are the rows but for the
# one being read, which is switched to output-low for the moment of its reading: two keys pressed at once never
# join an output driven high to one driven low. A key changes state only after it reads the same for
# DEBOUNCE_MS. `scan(now)` runs from a timer (pico.py) every SCAN_MS, whatever the main loop is doing: each
# change waits in a queue, with its time, until the loop `take()`s it, so a busy loop loses and merges no press.
# Keys are numbered row * 4 + column. Times are ticks_ms, which wrap at 2**30 on the RP2040.
DEBOUNCE_MS = 20
SCAN_MS = 5
MAX_EVENTS = 64
TICKS_MASK = 0x3FFFFFFF


class Keypad:
    def __init__(self, rows, columns):
        """`rows` and `columns` are machine.Pin objects; a column reads 0 while its key joins it to the row
        being read."""
        self.rows = rows
        self.columns = columns
        for pin in rows + columns:
            pin.init(pin.IN, pin.PULL_UP)
        count = len(rows) * len(columns)
        self.state = [False] * count
        self.seen = [False] * count
        self.since = [0] * count
        self.events = []

    def scan(self, now):
        """Read every key once at `now`; each debounced change is queued as (key, pressed, now)."""
        width = len(self.columns)
        for r in range(len(self.rows)):
            row = self.rows[r]
            row.init(row.OUT, value=0)
            for c in range(width):
                key = r * width + c
                down = self.columns[c].value() == 0
                if down != self.seen[key]:
                    self.seen[key] = down
                    self.since[key] = now
                elif down != self.state[key] and (now - self.since[key]) & TICKS_MASK >= DEBOUNCE_MS:
                    self.state[key] = down
                    if len(self.events) < MAX_EVENTS:
                        self.events.append((key, down, now))
            row.init(row.IN, row.PULL_UP)

    def take(self):
        """The queued changes, oldest first (the timer may add more meanwhile: they wait for the next take)."""
        events = self.events
        self.events = []
        return events
