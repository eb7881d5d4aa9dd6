"""One whole deal of our own for each widow size 1, 2 and 3, every number checked by hand in the
comments (Game values A4 K3 Q2 J1 T10, others 0; 80 in the pack)."""

from __future__ import annotations

from dataclasses import dataclass

from tests.unit.smear.support import Match, deck_for_deal, play_deal, points_of


@dataclass(frozen=True)
class Deal:
    widow_size: int
    dealer: int
    bidder: int
    bid: int
    widow: tuple[str, ...]
    discards: tuple[str, ...]
    tricks: tuple[str, ...]


# Widow 1, dealer s1 (s2 speaks first), s0 bids 3, takes AD, discards KC and names diamonds.
# Every seat is dealt the cards it plays (s0 also KC, less the AD it takes): s0 KD AS 7S QH 8D KC.
DEAL_W1 = Deal(
    1,
    dealer=1,
    bidder=0,
    bid=3,
    widow=("AD",),
    discards=("KC",),
    tricks=(
        "AD 9D JD 7D",  # s0 s1 s2 s3: s0 wins 4+0+1+0 = 5 → A. High A (AD, s0), Low B (7D, s3), Jack A
        "KD 9H TD QD",  # s0 wins 3+0+10+2 = 15 → A (s1 has no diamond left)
        "AS KS QS JS",  # s0 wins 4+3+2+1 = 10 → A
        "7S TS 8S 9S",  # s1 wins with TS: 0+10+0+0 = 10 → B
        "AH KH TH QH",  # s1 s2 s3 s0: s1 wins 4+3+10+2 = 19 → B
        "AC TC JH 8D",  # s1 s2 s3 s0: s0 trumps (no club left): 4+10+1+0 = 15 → A
    ),
)
# A: 5+15+10+15 = 45 + discard KC 3 = 48; B: 10+19 = 29. In play 74, discard 3, out of play
# 8H 7H QC JC 9C 8C 7C = 3: 80. Points: A High, Jack, Game = 3 = bid (made, +3); B Low (+1).

# Widow 2, dealer s0 (s1 speaks first), s1 bids 2, takes QH 9S, discards TD 8D, names hearts.
DEAL_W2 = Deal(
    2,
    dealer=0,
    bidder=1,
    bid=2,
    widow=("QH", "9S"),
    discards=("TD", "8D"),
    tricks=(
        "AH 7H 9H KH",  # s1 s2 s3 s0: s1 wins 4+0+0+3 = 7 → B. High B (AH, s1), Low A (7H, s2)
        "QH AC TH JH",  # s1 wins (QH the highest trump): 2+4+10+1 = 17 → B. Jack B
        "AS KS QS 9D",  # s1 wins 4+3+2+0 = 9 → B (s0 has no spade and does not trump)
        "7D KD QD AD",  # s1 s2 s3 s0: s0 wins 0+3+2+4 = 9 → A
        "TC 7C KC QC",  # s0 s1 s2 s3: s2 wins with KC: 10+0+3+2 = 15 → A
        "JS TS 8H 9S",  # s2 s3 s0 s1: s0 trumps: 1+10+0+0 = 11 → A
    ),
)
# Tricks: A 9+15+11 = 35, B 7+17+9 = 33; B's discards TD 8D add 10 → B 43: Game B (without the
# discards A would have it). In play 68 + discards 10 + out of play 8S 7S JD JC 9C 8C = 2: 80.
# B: High, Jack, Game = 3 ≥ 2 (over-made, +3); A: Low (+1).

# Widow 3, dealer s3 (s0 speaks first), s0 bids 2 and takes 7S JS AH: eight spades and a heart, so
# it must discard the heart and two spades (here 7S and JS, keeping AS KS QS TS 9S 8S).
DEAL_W3 = Deal(
    3,
    dealer=3,
    bidder=0,
    bid=2,
    widow=("7S", "JS", "AH"),
    discards=("AH", "JS", "7S"),
    tricks=(
        "AS KH QH JH",  # s0 wins 4+3+2+1 = 10 (nobody else holds a spade)
        "KS TH 9H 8H",  # 3+10 = 13
        "QS AD KD QD",  # 2+4+3+2 = 11
        "TS JD TD 9D",  # 10+1+10 = 21
        "9S AC KC QC",  # 4+3+2 = 9
        "8S JC TC 9C",  # 1+10 = 11
    ),
)
# A: 75 in tricks + discards AH 4, JS 1, 7S 0 = 80; B 0; out of play 7H 8D 7D 8C 7C = 0.
# Points: High A (AS); Low (7S) and Jack (JS) were discarded, so not awarded by default; Game A:
# A 2 = bid, made (+2). With discards_count_for_high_low_jack: Low and Jack too, A 4.


def play_hand_checked(deal: Deal, options=None):
    deck = deck_for_deal(list(deal.tricks), deal.bidder, deal.dealer, deal.widow, deal.discards)
    m = Match({"widow_size": deal.widow_size, **(options or {})}, first_dealer=deal.dealer, deck=deck)
    trump = deal.tricks[0].split()[0][1]
    return m, play_deal(m, list(deal.tricks), deal.bidder, deal.bid, deal.discards, trump)


def test_widow_1_bidder_takes_the_trump_ace():
    m, data = play_hand_checked(DEAL_W1)
    assert m.state.round.widow == ("AD",) and m.state.round.discards == ("KC",)
    assert [t.winner for t in m.state.round.tricks] == [0, 0, 0, 1, 1, 0]
    assert [sum(_value(p.card) for p in t.plays) for t in m.state.round.tricks] == [5, 15, 10, 10, 19, 15]
    assert data["game_counts"] == [48, 29]
    assert points_of(data) == {"high": 0, "low": 1, "jack": 0, "game": 0}
    assert (data["made"], data["deltas"], data["scores"], data["next_dealer"]) == (True, [3, 1], [3, 1], 2)


def test_widow_2_discards_swing_the_game():
    m, data = play_hand_checked(DEAL_W2)
    assert [t.winner for t in m.state.round.tricks] == [1, 1, 1, 0, 2, 0]
    assert data["game_counts"] == [35, 43]
    assert points_of(data) == {"high": 1, "low": 0, "jack": 1, "game": 1}
    assert (data["made"], data["deltas"], data["scores"], data["next_dealer"]) == (True, [1, 3], [1, 3], 1)


def test_widow_3_trumps_discarded_score_nothing_by_default():
    m, data = play_hand_checked(DEAL_W3)
    assert data["game_counts"] == [80, 0]
    assert points_of(data) == {"high": 0, "low": None, "jack": None, "game": 0}
    assert (data["made"], data["deltas"]) == (True, [2, 0])


def test_widow_3_trumps_discarded_score_for_the_bidders_with_the_option():
    m, data = play_hand_checked(DEAL_W3, {"discards_count_for_high_low_jack": True})
    assert points_of(data) == {"high": 0, "low": 0, "jack": 0, "game": 0}
    low = next(p for p in data["points"] if p["point"] == "low")
    assert (low["seat"], low["card"], low["why"]) == (0, "7S", "7S discarded by the bidder")
    assert data["deltas"] == [4, 0]


def _value(card: str) -> int:
    return {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}.get(card[0], 0)
