"""FIDE rating tables used by the rating-based tie-breaks (FIDE B.02 8.1.1 and 8.1.2).

``rating_difference(half_points, games)`` is the table 8.1.1 (fractional score -> rating
difference dp) used for the tournament performance rating (C.07 10.2); ``expected_hundredths(d)`` is the table
8.1.2 (rating difference -> expected score, in hundredths) used for the perfect tournament performance
(C.07 10.3).
"""

from __future__ import annotations

from bisect import bisect_left

TYPE_CHECKING = False  # decimal and fractions load only when a rating-based tie-break runs (start-up time)
if TYPE_CHECKING:
    from fractions import Fraction

# B.02 8.1.1: dp for p = 0.50, 0.51, ..., 1.00 (negative for p < 0.50, by symmetry).
_DP = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322,
    336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)

# B.02 8.1.2: the upper bound of each rating-difference band; band k gives the higher
# rated player an expected score of 0.50 + k/100 (differences above 735 give 1.00).
_BAND_UPPER = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328,
    344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)


def round_half_up(value: Fraction | float | int, digits: int = 0) -> float | int:
    """Round half away from zero to ``digits`` decimals, as C.07 10.1 and 8.2 ask."""
    from decimal import ROUND_HALF_UP, Decimal
    from fractions import Fraction

    exact = Decimal(value.numerator) / Decimal(value.denominator) if isinstance(value, Fraction) else Decimal(
        str(value))
    rounded = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return int(rounded) if digits == 0 else float(rounded)


def rating_difference(half_points: int, games: int) -> int:
    """B.02 8.1.1: dp for the fractional score p of ``half_points`` / 2 points in ``games`` games,
    p rounded half up to two decimals first, in integers: 100 p rounded is
    (100 half_points + games) // (2 games) (a site computes a thousand at every result).

    >>> rating_difference(8, 5), rating_difference(4, 3), rating_difference(7, 9), rating_difference(0, 11)
    (240, 125, -80, -800)
    """
    hundredths = (100 * half_points + games) // (2 * games)
    if hundredths >= 50:
        return _DP[hundredths - 50]
    return -_DP[50 - hundredths]


def expected_hundredths(difference: int) -> int:
    """B.02 8.1.2: the expected score, in hundredths, of a player rated ``difference`` points
    above the other (the table's values are whole hundredths: PTP adds them up in integers).

    >>> expected_hundredths(0), expected_hundredths(100), expected_hundredths(-800)
    (50, 64, 0)
    """
    band = bisect_left(_BAND_UPPER, abs(difference))
    return 50 + band if difference >= 0 else 50 - band
