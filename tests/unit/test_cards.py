"""The card helpers every game shares (games/cards.py)."""

from games import cards
from games.sixtysix.options import RANK_ORDER as SIXTY_SIX
from games.smear.options import RANK_ORDER as SMEAR


def test_sort_key_orders_by_suit_then_from_the_highest_rank():
    hand = ["7H", "AS", "TC", "KH", "9S", "TS"]
    assert sorted(hand, key=cards.sort_key(SIXTY_SIX)) == ["AS", "TS", "9S", "KH", "7H", "TC"]
    # The same cards in another game's rank order (ten below the jack in Smear).
    assert sorted(["JS", "TS", "QS"], key=cards.sort_key(SMEAR)) == ["QS", "JS", "TS"]


def test_sort_key_follows_the_suits_given():
    key = cards.sort_key(SIXTY_SIX, suits=("C", "D", "H", "S"))
    assert sorted(["AS", "AC", "TH", "AD"], key=key) == ["AC", "AD", "TH", "AS"]
