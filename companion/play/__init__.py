"""The virtual table of a game against the computer: the deck that cuts, deals and turns the starter, the
computer players and their settings (computer.py). The board's page and `crib play --terminal` both seat a
person at it; everything it does reaches the table as entries carrying typed table inputs."""
