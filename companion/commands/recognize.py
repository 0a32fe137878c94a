"""`crib recognize`: read ordinary playing cards from photographs; teach the reader one particular deck; train it."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.commands import CommandError, need_extra
from companion.config import add_config_arguments
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.i18n import _

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png"}
DECK_DIR = "deck"
"""A deck taught for one reading, in a temporary folder."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "recognize", help=_("read ordinary playing cards from photographs"),
        description=_("For each photograph, the card seen in it: one line PHOTO CODE CONFIDENCE ('-' when no card "
        "is seen), or with --json one object a line with every card found, its confidence, whether the board "
        "would enter it without asking (sure) and its box in the photograph. --learn teaches the reader one "
        "particular deck from a folder with one photograph of each card, named by its code (AS.jpg, 10H.jpg, "
        "...), and keeps it where the board finds it."),
    )
    parser.add_argument("photos", nargs="*", metavar="PHOTO", help=_("JPEG or PNG photographs of cards"))
    parser.add_argument("--json", action="store_true", help=_("print every card found, as JSON, one photo a line"))
    parser.add_argument("--deck", metavar="DIR", type=Path, help=_("a taught deck (a folder --learn made), or a "
                        "folder of one photograph of each card to learn first"))
    parser.add_argument("--learn", metavar="DIR", type=Path, help=_("teach the deck photographed in DIR (one "
                        "photograph of each of the 52 cards, named by its code) and keep it"))
    parser.add_argument("--out", metavar="DIR", type=Path, help=_("where --learn keeps the deck (default: the "
                        "folder the configuration's camera.deck names, else the state directory's deck folder)"))
    parser.add_argument("--train", action="store_true", help=_("train the reader again from the licensed card "
                        "designs and measure it (docs/vision.md tells how, and the options)"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    need_extra("vision", "cv2")
    if args.train:
        from companion.vision.train import main

        return main([])
    if args.learn is not None:
        if args.photos:
            raise CommandError(_("give photographs to read or --learn DIR, not both"))
        from companion.config import config_from_args
        from companion.devices.camera import taught_folder

        config = config_from_args(args)
        out = args.out or taught_folder(config.camera.deck, config.state.path)
        teach(args.learn, out)
        print(_("deck taught from {folder}, kept in {out}").format(folder=args.learn, out=out))
        return 0
    if not args.photos:
        raise CommandError(_("give one or more photographs to read (or --learn DIR to teach a deck)"))
    with tempfile.TemporaryDirectory() as temp:
        deck = args.deck
        if deck is not None and not (deck / "deck.npz").is_file():
            deck = teach(deck, Path(temp) / DECK_DIR)
        return read_photos(args, deck)


def read_photos(args: argparse.Namespace, deck: Path | None) -> int:
    from companion.vision import DeckError, Recognizer, UnreadableImage

    try:
        recognizer = Recognizer.load(deck)
    except DeckError:
        raise CommandError(_("{deck} holds a taught deck this reader cannot use (taught by an older version, or "
                             "damaged): teach the deck again with crib recognize --learn DIR").format(deck=deck)
                           ) from None
    bad = 0
    for photo in args.photos:
        try:
            readings = recognizer.read_bytes(Path(photo).read_bytes())
        except OSError as error:
            print(_("crib recognize: cannot read {photo}: {reason}").format(photo=photo, reason=error.strerror),
                  file=sys.stderr)
            bad += 1
            continue
        except UnreadableImage:
            print(_("crib recognize: {photo} is not a JPEG or PNG image").format(photo=photo), file=sys.stderr)
            bad += 1
            continue
        if args.json:
            cards = [{"code": r.code, "confidence": r.confidence, "sure": r.sure, "box": list(r.box)}
                     for r in readings]
            print(json.dumps({"photo": photo, "cards": cards}))
        elif readings:
            print(f"{photo} {readings[0].code} {readings[0].confidence:.3f}")
        else:
            print(f"{photo} -")
    return 2 if bad else 0


def teach(folder: Path, out: Path) -> Path:
    """Learn the deck photographed in `folder` (CODE.jpg ...) into `out`, with a progress line, naming the photos
    whose card reads as another card (or as none)."""
    from companion.vision import UnreadableImage, learn

    if not folder.is_dir():
        raise CommandError(_("{folder} is not a folder: give the folder with one photograph of each card")
                           .format(folder=folder))
    photos: dict[str, Path] = {}
    strange = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in PHOTO_SUFFIXES:
            continue
        try:
            photos[str(Card.parse(path.stem))] = path
        except CribbageError:
            strange.append(path.name)
    if strange:
        raise CommandError(_("these photographs are not named by a card's code (AS.jpg, 10H.jpg, QD.png): "
                             "{names}").format(names=", ".join(strange)))

    def progress(done: int, total: int) -> None:
        print("\r\x1b[K" + _("learning the deck: {done}/{total}").format(done=done, total=total),
              end="" if done < total else "\n", file=sys.stderr, flush=True)

    try:
        doubtful = learn(photos, out, progress)
    except (UnreadableImage, ValueError) as error:
        print(file=sys.stderr)
        raise CommandError(str(error)) from None
    for code, found in doubtful.items():  # a deck whose index the reader misreads is taught so: said, not refused
        other = found.looks_like(code)
        said = (_("{photo}: looks like {other} to the board; taught as {card} all the same (take it again, the card "
                  "whole and alone, if {card} is then misread)") if other else
                _("{photo}: the board cannot read {card} in it; taught all the same (take it again, the card whole "
                  "and alone, if {card} is then misread)"))
        print(said.format(photo=photos[code].name, other=other, card=code), file=sys.stderr)
    return out
