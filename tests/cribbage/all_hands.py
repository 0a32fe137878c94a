"""The published count of all hands by score (docs/rules.md, "All hands by score"), which the exhaustive
enumeration (test_exhaustive.py) reproduces and the statistics' picture compares against."""

from __future__ import annotations

# docs/rules.md, "All hands by score" (RULES.md's "Facts to test against"): score -> (hand, crib); every other
# score has no hands.
RULES_TABLE = {
    0: (1_009_008, 1_022_208), 1: (99_792, 99_792), 2: (2_813_796, 2_839_800), 3: (505_008, 508_908),
    4: (2_855_676, 2_868_960), 5: (697_508, 703_496), 6: (1_800_268, 1_787_176), 7: (751_324, 755_320),
    8: (1_137_236, 1_118_336), 9: (361_224, 358_368), 10: (388_740, 378_240), 11: (51_680, 43_880),
    12: (317_340, 310_956), 13: (19_656, 16_548), 14: (90_100, 88_132), 15: (9_168, 9_072),
    16: (58_248, 57_288), 17: (11_196, 11_196), 18: (2_708, 2_264), 20: (8_068, 7_828), 21: (2_496, 2_472),
    22: (444, 444), 23: (356, 356), 24: (3_680, 3_680), 28: (76, 76), 29: (4, 4),
}
