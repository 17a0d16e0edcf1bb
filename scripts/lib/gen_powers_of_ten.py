#!/usr/bin/env python3
"""Writes Sources/JSONAPI/Writing/ShortestDouble+Powers.swift: the 126-bit approximations of
10^e, e = -292 ... 324, that the shortest-decimal printer of doubles (ShortestDouble.swift, the
Schubfach algorithm of Raffaello Giulietti) multiplies a binary significand by. Computed here
with exact integers.

Each entry is g = floor(10^e * 2^r) + 1, with r chosen so that 2^125 <= g < 2^126, stored as two
63-bit words: g >> 63, then g & (2^63 - 1). The + 1 makes g an upper bound of 10^e * 2^r even
where the power is exact, which the algorithm's error analysis assumes.

Usage: scripts/lib/gen_powers_of_ten.py > Sources/JSONAPI/Writing/ShortestDouble+Powers.swift
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from gen_powers_of_five import print_table  # noqa: E402

SMALLEST = -292
LARGEST = 324


def entry(e):
    # floor(10^e * 2^r) with r = 125 - floor(log2(10^e)), exactly.
    if e >= 0:
        power = 10**e
        shift = 125 - (power.bit_length() - 1)
        value = power << shift if shift >= 0 else power >> -shift
    else:
        divisor = 10**-e
        # floor(2^r / 10^-e), starting near the right r and stepping until it lies in
        # [2^125, 2^126).
        r = 125 + divisor.bit_length()
        value = (1 << r) // divisor
        while value >= (1 << 126):
            r -= 1
            value = (1 << r) // divisor
        while value < (1 << 125):
            r += 1
            value = (1 << r) // divisor
    g = value + 1
    assert (1 << 125) <= g < (1 << 126), e
    return g


def main():
    words = []
    for e in range(SMALLEST, LARGEST + 1):
        g = entry(e)
        words.append(g >> 63)
        words.append(g & ((1 << 63) - 1))
    print_table(
        "gen_powers_of_ten.py",
        "ShortestDouble",
        [
            "The 126-bit upper approximations of 10^e for e = ``smallestPower`` ... ``largestPower``,",
            "two 63-bit words per power (high, then low): see scripts/lib/gen_powers_of_ten.py.",
        ],
        "powersOfTen",
        words,
    )

if __name__ == "__main__":
    main()
