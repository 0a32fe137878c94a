"""The words that can reach the OLED, for the tests that page them: every message of the catalog from the
modules that speak to the screen, each placeholder filled with the longest value it takes (names of
NAME_CHARS letters)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

from companion import catalog, daemon, i18n
from companion.cribbage.facts import Prompt, Wanted
from companion.table import HELP
from companion.words.phrases import prompt_words

NAMES = ("Bartholomäus", "Maximilianus", "Konstantinus", "Philippineke")  # NAME_CHARS letters each
LONGEST = NAMES[0]

# Where the words on the OLED come from: the engine's facts said in words (companion/words: prompts, refusals,
# notes, the spoken count), the table and what it holds, the entries' decoding, the log's and the daemon's
# messages, the page's notices (wrong tokens), the screen itself and the coach's review (companion/words/review.py).
OLED_SOURCES = ("companion/words/", "companion/table/", "companion/entry/", "companion/gamelog.py",
                "companion/daemon.py", "companion/web/server.py", "companion/view/screen.py")
# Words modules that never speak to the OLED: the hint and the pro's lay-away (`crib hint`), the statistics, the
# settings of a game against the computer (the page, `crib play`), the club's words (its scoreboard's pages and
# `crib club`), the configuration's problems (said by a command or at the start), what reading a game log finds
# (the journal and the commands; the OLED says only that the log was cared for), the page API's refusals and the
# devices' problems (the commands, `crib state` and the journal say them; the OLED names the device missing).
ELSEWHERE = ("companion/words/advice.py", "companion/words/statistics.py", "companion/words/opponents.py",
             "companion/words/club.py", "companion/words/settings.py", "companion/words/logbook.py",
             "companion/words/webapi.py", "companion/words/devices.py")
# Messages of those modules a person never sees on the OLED (said on the command line or to a programmer).
NOT_ON_THE_OLED = {
    'no game yet: start one first, like {"type":"game","players":["Ann","Bob"]}',  # `crib replay` of a bad file
    'a game needs 2, 3 or 4 players, like "players":["Ann","Bob"]',
    "Muggins! {note}",  # a game against the computer: said on the page and in the terminal beside the table
    # a command's input (words/saying.py)
    "cannot read {path}: {strerror}; give a readable file or '-'",
    "{name}: line {number} is not UTF-8 text (byte {byte} at column {column}): save it as UTF-8, or type that line "
    "again",
    *daemon.JOURNAL.values(), *daemon.DISK.values(), daemon.DISK_OTHER,  # the daemon's journal and its start
}
# Messages the OLED shows cut across its lines, known: the phones' address in the menu (https://cribbage.local:
# 8443/scan is 32 characters, the OLED 21 columns), broken at its seams ("https://cribbage." "local:8443/scan").
CUT_ON_THE_OLED = {"phones {phones} cert {fingerprint}"}


def longest(language: str) -> dict[str, str]:
    """A value for each placeholder of the messages, as long as it gets: names of NAME_CHARS letters, four
    players, 10♥, three-digit scores, and the longest prompt of the language where a message quotes one."""
    three = i18n._("{some} and {last}").format(some=", ".join(NAMES[:2]), last=NAMES[2])
    prompt = prompt_words(Prompt(Wanted.CUT, NAMES[:3], again=True))
    card, cards = "10♥", "10♥ 10♦ 10♣ 10♠"
    phrase = i18n._("a double double run is {running}").format(running=i18n.number(24))
    values = dict.fromkeys(("player", "who", "dealer", "turn", "caller", "first", "second", "loser", "hand_for",
                            "name", "side", "winner"), LONGEST)
    values |= dict.fromkeys(("players", "losers", "others", "waiting", "some", "last"), three)
    values |= dict.fromkeys(("card", "asked", "starter", "twice", "missing", "cut", "rank"), card)
    values |= dict.fromkeys(("cards", "held", "hand", "fits", "keep", "discard", "best"), cards)
    values |= dict.fromkeys(("count", "total", "points", "score", "target", "won", "claim", "most", "number", "n",
                             "size", "page", "pages", "needed", "net", "loss", "pegged", "pegging", "allowed",
                             "wanted", "match", "usual", "running", "again", "on", "table", "round", "hand_min",
                             "hand_max"), "121")
    values |= dict.fromkeys(("crib", "more"), "+21.5")  # a lay-away's averages (the coach's review)
    values |= dict.fromkeys(("prompt", "seen", "why", "error", "problem", "progress", "what", "label", "kind",
                             "msg", "advice", "words", "shown", "where", "example"), prompt)
    spelt = max((i18n.number(n) for n in range(32)), key=len)  # the count says numbers in words
    values |= {"running": spelt, "points": spelt, "size": spelt}
    values |= {"phrase": phrase, "new_game": "NEW GAME", "text": "'what'", "raw": "'what'", "inp": "'what'",
               "key": "'#'", "keys": "0-9 * # A B C D", "commands": "go, undo, ok, menu", "types": "play, go",
               "suits": "C D H S", "forms": "5H, 10D, QS", "layout": "two-track-121", "devices": "strip, display",
               "variant": "five-card", "variants": "two, three, four, five-card", "scoring": "'acc'",
               "scorings": "standard, acc", "address": "192.168.100.200", "wrong": "121", "seconds": "121",
               "inputs": "1000", "help": i18n._(HELP).format(new_game="NEW GAME"), "": LONGEST,
               "listen": "192.168.100.200:8121", "token": "5f3a9c1d"}
    return values


class Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        raise AssertionError(f"no longest value for the placeholder {{{key}}}: add one to longest()")


def oled_messages() -> Iterator[str]:
    """Every message (each plural form) of the catalog that can reach the OLED, as the catalog has it."""
    for message in catalog.extract():
        if not message.id or not any(location.startswith(OLED_SOURCES) and not location.startswith(ELSEWHERE)
                                     for location, _ in message.locations):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        yield from (text for text in ids if text not in NOT_ON_THE_OLED | CUT_ON_THE_OLED)


def filled(template: str, values: dict[str, str]) -> str:
    """`template` (already translated) with the longest values; a format spec is dropped (the value is text)."""
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    plain = re.sub(r"\{(\w*)(![rs])?(:[^}]*)?\}", lambda m: "{" + m.group(1) + (m.group(2) or "") + "}", template)
    if "" in fields:
        return plain.format(*[values[""]] * fields.count(""), **Blank(values))
    return plain.format_map(Blank(values))
