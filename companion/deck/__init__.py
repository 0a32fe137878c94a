"""Printed decks: barcode symbols, label sheets, sticker and card-face drawing, and what a scan means.

The payloads themselves are fixed in `companion.cribbage.cards` (cards) and `companion.entry.barcodes`
(commands); this package only prints them and explains them.
"""
