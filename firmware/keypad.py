# Optional 4x4 matrix keypad on the Pico: rows driven low one at a time, columns read with pull-ups.
# A key changes state only after it reads the same for DEBOUNCE_MS. Keys are numbered row * 4 + column.
DEBOUNCE_MS = 20


class Keypad:
    def __init__(self, rows, columns):
        """`rows` are output pins (value(0) selects a row), `columns` input pins reading 0 when pressed."""
        self.rows = rows
        self.columns = columns
        for row in rows:
            row.value(1)
        count = len(rows) * len(columns)
        self.state = [False] * count
        self.seen = [False] * count
        self.since = [0] * count

    def scan(self, now):
        """Read every key once; returns (key, pressed) for each debounced change."""
        events = []
        width = len(self.columns)
        for r in range(len(self.rows)):
            self.rows[r].value(0)
            for c in range(width):
                key = r * width + c
                down = self.columns[c].value() == 0
                if down != self.seen[key]:
                    self.seen[key] = down
                    self.since[key] = now
                elif down != self.state[key] and now - self.since[key] >= DEBOUNCE_MS:
                    self.state[key] = down
                    events.append((key, down))
            self.rows[r].value(1)
        return events
