"""`crib print-deck OUT.pdf`: sticker sheets (or whole card faces) carrying the deck's barcodes."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands import CommandError, need_extra
from companion.deck.sheets import DEFAULT_SHEETS, PAPER_NAMES, PAPERS, PRESETS, Sheet, custom_sheet, preset
from companion.deck.symbols import Symbology
from companion.i18n import _, ngettext


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sheets = "\n".join(f"  {sheet.describe()}" for sheet in PRESETS.values())
    parser = subparsers.add_parser(
        "print-deck",
        help=_("print barcode stickers (or whole cards) for a real deck"),
        description=_("Write a PDF with a barcode for each of the 52 cards and for the commands GO, UNDO, OK, "
        "NEW GAME and MENU: stickers for a label sheet, or --cards for whole printable card faces. "
        "Print at actual size (100%, not 'fit to page')."),
        epilog=_("label sheets (--sheet):\n{sheets}\ndefault: {a4} on A4, {letter} on US Letter\n")
        .format(sheets=sheets, a4=DEFAULT_SHEETS["a4"], letter=DEFAULT_SHEETS["letter"]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("out", metavar="OUT.pdf", type=Path, help=_("the PDF to write"))
    parser.add_argument("--paper", choices=sorted(PAPERS), help=_("page size (default: the sheet's, else a4)"))
    parser.add_argument("--sheet", metavar="NAME", help=_("a label sheet: {sheets}").format(sheets=", ".join(PRESETS)))
    parser.add_argument("--grid", metavar="COLSxROWS", help=_("your own label sheet: labels across and down"))
    parser.add_argument("--label", metavar="WxH", help=_("with --grid: label width and height in mm"))
    parser.add_argument("--margins", metavar="TOP,LEFT",
                        help=_("with --grid: page edge to the first label in mm (default: the grid centred)"))
    parser.add_argument("--gaps", metavar="ACROSS,DOWN",
                        help=_("with --grid: space between labels in mm (default: even, from the margins)"))
    parser.add_argument("--cards", action="store_true",
                        help=_("whole poker-size card faces (63x88 mm, nine a page) with the barcode in a corner"))
    parser.add_argument("--symbology", choices=[s.value for s in Symbology], default=Symbology.DATAMATRIX.value,
                        help=_("datamatrix (default: smallest, survives blur), code128 (for 1D laser scanners), qr"))
    parser.add_argument("--mono", action="store_true", help=_("all black: no red for hearts and diamonds"))
    parser.add_argument("--outline", action="store_true",
                        help=_("draw each label's edge, to check the alignment on plain paper first"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    need_extra("print", "fpdf", "zxingcpp")
    from companion.deck.labels import DeckOptions, write_deck

    options = DeckOptions(_sheet(args), Symbology(args.symbology), cards=args.cards, mono=args.mono,
                          outline=args.outline)
    if not args.out.parent.is_dir():
        raise CommandError(_("cannot write {out}: the folder {folder} does not exist").format(out=args.out,
                                                                                        folder=args.out.parent))
    pages = write_deck(args.out, options)
    what = _("card faces") if args.cards else options.sheet.describe()
    print(ngettext("wrote {out}: {pages} page, {what}, {symbology}. Print at actual size (100%); test a few codes "
                   "with `crib scan-test` before sticking them all.",
                   "wrote {out}: {pages} pages, {what}, {symbology}. Print at actual size (100%); test a few codes "
                   "with `crib scan-test` before sticking them all.", pages)
          .format(out=args.out, pages=pages, what=what, symbology=options.symbology.value))
    return 0


def _sheet(args: argparse.Namespace) -> Sheet:
    from companion.deck.labels import card_sheet

    custom = [name for name in ("grid", "label", "margins", "gaps") if getattr(args, name) is not None]
    if args.cards:
        if args.sheet or custom:
            raise CommandError(_("--cards prints whole card faces on plain paper: leave out --sheet and the grid"))
        return card_sheet(args.paper or "a4")
    if custom:
        if args.sheet:
            raise CommandError(_("give either --sheet or your own --grid and --label, not both"))
        if args.grid is None or args.label is None:
            raise CommandError(_("a custom sheet needs both --grid COLSxROWS and --label WxH (mm), for example "
                                 "--grid 5x13 --label 38.1x21.2"))
        return custom_sheet(args.paper or "a4", args.grid, args.label, args.margins, args.gaps)
    sheet = preset(args.sheet or DEFAULT_SHEETS[args.paper or "a4"])
    if args.paper and sheet.paper != args.paper:
        raise CommandError(_("the {sheet} sheet is {paper}, not {given}: leave out --paper or choose another sheet")
                           .format(sheet=sheet.name, paper=PAPER_NAMES[sheet.paper], given=PAPER_NAMES[args.paper]))
    return sheet
