"""Reading ordinary playing cards from a camera frame: find each card, read its index, say how sure.

Pure of the table: numpy and (imported when reading) OpenCV, the engine at most. Used by `crib recognize`, the
phone's /scan page and a board camera. docs/vision.md tells how it works and how it was trained.
"""

from companion.vision.reader import CardReading, Recognizer, UnreadableImage, decode, learn
from companion.vision.taught import DeckError

__all__ = ["CardReading", "DeckError", "Recognizer", "UnreadableImage", "decode", "learn"]
