"""The sample deal `crib sim --demo` plays, which the benchmarks replay too: Ann deals; Bob holds 10C 5H 5D JH,
Ann 4C 6D 7S 8H; the crib 2C 3D 9S KH."""

DEMO = ["5C", "10C", "4C", "5H", "6D", "5D", "go", "go", "7S", "JH", "8H", "2C", "3D", "9S", "KH"]
