"""Club night: many boards publish to one MQTT broker, and one scoreboard shows every table.

Each board's publisher (`publisher.py`) follows the board's own game logs and sends every accepted input
with the state after it; the scoreboard (`scoreboard.py`, `crib club`) subscribes to the club's boards,
keeps the night in SQLite and serves a page. The topic tree and the payloads are in `protocol.py` and
docs/club.md; drawing and seating a round is `pairing.py`; a tournament's scoring, scorecards and playoffs
are `tournament.py`, its paper and spreadsheets `export.py`.
"""
