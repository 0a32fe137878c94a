"""The font shipped with the package, so the OLED shows the same pixels on every machine.

DejaVu Sans Mono (Bitstream Vera licence, see LICENSE-DejaVu.txt), copied from Debian's fonts-dejavu-core.
"""

from __future__ import annotations

from pathlib import Path

MONO = Path(__file__).with_name("DejaVuSansMono.ttf")
