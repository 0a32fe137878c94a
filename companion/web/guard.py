"""Wrong control tokens slowed per address, as a device with a PIN does.

The token is 32 bits. Unlimited, the board answers about 1,800 wrong guesses a second, so one laptop would try
all 2^32 in 27 days. Here an address has FREE_TRIES wrong tokens for nothing; after that each wrong token makes it
wait before the next is even looked at: 1 s, 2 s, 4 s ... doubling up to MAX_WAIT (10 minutes). A guess while
waiting is refused without being checked. At the cap an address gets 6 guesses an hour, 144 a day: 2^32 would
take about 82,000 years (half that on average). The right token clears the address's count.

IPv6 addresses count by their /64 (one home network's prefix: a host picks any address in it at will). At most
MAX_ADDRESSES are remembered, the least recently seen forgotten first.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from dataclasses import dataclass

from companion.base.clock import Clock

FREE_TRIES = 5
FIRST_WAIT = 1.0
MAX_WAIT = 600.0
MAX_ADDRESSES = 4096


@dataclass
class _Tries:
    wrong: int = 0
    until: float = float("-inf")  # no guess from this address is checked before this time


def address_key(address: str | None) -> str:
    """Who is counted: the IPv4 address, or the /64 an IPv6 address is in ('?' when the peer is unknown)."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "?"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class TokenGuard:
    """Counts wrong tokens by address; says how long an address must wait before its next guess is checked."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._tries: OrderedDict[str, _Tries] = OrderedDict()

    def wait(self, address: str | None) -> float:
        """Seconds before a guess from `address` is looked at (0: now)."""
        tries = self._tries.get(address_key(address))
        return 0.0 if tries is None else max(0.0, tries.until - self.clock.monotonic())

    def wrong(self, address: str | None) -> tuple[int, float]:
        """A wrong token from `address`: how many in a row now, and the seconds it must wait for the next."""
        key = address_key(address)
        tries = self._tries.pop(key, None) or _Tries()
        self._tries[key] = tries
        while len(self._tries) > MAX_ADDRESSES:
            self._tries.popitem(last=False)
        tries.wrong += 1
        extra = tries.wrong - FREE_TRIES
        delay = 0.0 if extra <= 0 else min(MAX_WAIT, FIRST_WAIT * 2 ** min(extra - 1, 30))
        tries.until = self.clock.monotonic() + delay
        return tries.wrong, delay

    def right(self, address: str | None) -> None:
        """The right token: the address starts afresh."""
        self._tries.pop(address_key(address), None)
