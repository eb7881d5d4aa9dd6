"""Player ratings: the pure core of the ratings projection (no I/O, no clock, no randomness).

`glicko2` is the rating system itself (one player, one rating period); `matches` turns the outcome of
one finished match into the rating updates of its participants. The method for each kind of match is
explained in docs/ratings.md.
"""
