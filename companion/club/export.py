"""The night on paper and in spreadsheets: CSV of the standings and of every game, and a PDF scorecard a player.

Everything is read from the night (night.py), the same rows the page shows. The PDF needs fpdf2 (the print
extra); the scoreboard serves the CSV, `crib club export` and `crib club scorecards` write the files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from companion.club.night import Night
from companion.cribbage.facts import Side
from companion.fonts import MONO
from companion.words.phrases import side_name

STANDING_COLUMNS = ("rank", "player", "points", "wins", "games", "spread", "skunks", "skunked", "byes",
                    "match_points")


def standings_csv(night: Night) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, STANDING_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(s.to_json() for s in night.standings())
    return out.getvalue()


def games_csv(night: Night) -> str:
    """Every finished game (qualifying and playoffs), in the order finished: a row per game with each side's
    players and score, the winner's players, the skunk and the winner's spread and game points."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "stage", "board", "side 1", "score 1", "side 2", "score 2", "winner", "skunk",
                     "spread", "game points"])
    for game in night.games():
        sides = [side_name(Side(side)) for side in game.sides]
        columns = [x for side, score in zip(sides, game.scores, strict=True) for x in (side, score)]
        writer.writerow([game.round or "", game.stage, game.board, *columns[:4], sides[game.winner], game.skunk or "",
                         game.margin(game.winner), game.game_points(game.winner)])
    return out.getvalue()


def scorecards_pdf(night: Night, players: Sequence[str], path: Path, *, title: str) -> None:
    """A printable A4 scorecard a page for each player: every game with its opponent, won or lost, the
    scores, the game points, the spread and the running totals, and the player's place tonight."""
    from fpdf import FPDF
    from fpdf.enums import XPos, YPos

    ranks = {s.player: s for s in night.standings()}
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_font("card", "", str(MONO))  # any player's name: the core fonts have Latin-1 only
    widths = (14, 16, 50, 12, 22, 16, 18, 16, 26)
    heads = ("Round", "Board", "Opponent", "W/L", "Score", "Points", "Spread", "Total", "Total spread")
    for player in players:
        pdf.add_page()
        pdf.set_font("card", "", 15)
        pdf.cell(0, 10, f"{title}: scorecard of {player}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font("card", "", 10)
        row = ranks.get(player)
        scoring = "ACC game points" if night.scoring.name == "acc" else "match points"
        if row is not None:
            pdf.cell(0, 7, f"Place {row.rank}: {row.points} {scoring}, {row.wins} won of {row.games} "
                     f"(byes {row.byes}), spread {row.spread:+d}, skunks {row.skunks}",
                     new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(2)
        pdf.set_font("card", "", 9)
        for width, head in zip(widths, heads, strict=True):
            pdf.cell(width, 7, head, border=1, align="C")
        pdf.ln()
        pdf.set_font("card", "", 9)
        for line in night.scorecard(player):
            bye = line.opponent is None
            cells = (str(line.round or ""), line.board, "bye" if line.opponent is None else line.opponent[:30],
                     "W" if line.won else "L", "" if bye else f"{line.scores[0]}-{line.scores[1]}",
                     str(line.points), f"{line.spread:+d}", str(line.total), f"{line.total_spread:+d}")
            for width, cell in zip(widths, cells, strict=True):
                pdf.cell(width, 7, cell, border=1, align="L" if width == 50 else "C")
            pdf.ln()
        pdf.ln(6)
        pdf.cell(0, 7, "Player's signature: ______________________    Director: ______________________")
    pdf.output(str(path))
