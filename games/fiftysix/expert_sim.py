"""Fast play-outs of a Fifty-Six deal from an engine state, for the expert's search.

The engine (decide/evolve, views, legal_actions) costs about a third of a millisecond per card; a
search plays thousands of cards per decision, so the trick play is replayed here on plain lists with
the same rules (follow suit, RULES §0.4 trick winner, §1.8 made or failed) and `basic_card`, a port of
the basic player's card choice (games/fiftysix/bots.py) for every seat. tests/unit/fiftysix/
test_expert.py checks that this replay and the engine agree card for card.
"""

from __future__ import annotations

from games.fiftysix.expert_world import SORT
from games.fiftysix.options import CARD_POINTS, RANK_ORDER, ranks_for
from games.fiftysix.scoring import band, stake
from games.fiftysix.state import State, team_of

INDEX = {r: i for i, r in enumerate(RANK_ORDER)}  # 0 = jack, the highest
STRENGTH = {r: len(RANK_ORDER) - i for r, i in INDEX.items()}
POINTS = CARD_POINTS
POINT_WEIGHT = 0.03  # tables per card point in a play-out's value


def beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return INDEX[card[0]] < INDEX[best[0]]
    return card[1] == trump


def legal_cards(hand: list[str], trick: list[tuple[int, str]]) -> list[str]:
    """RULES §1.6, each distinct card once, in hand order (as legal_actions lists them)."""
    if trick:
        led = trick[0][1][1]
        return list(dict.fromkeys([c for c in hand if c[1] == led] or hand))
    return list(dict.fromkeys(hand))


class Deal:
    """The trick play of one deal: hands, the trick so far, points per team. Copy before playing."""

    __slots__ = (
        "hands",
        "trick",
        "to_play",
        "trump",
        "team",
        "order",
        "ranks",
        "seen",
        "points",
        "declarer_team",
        "value",
        "won",
        "lost",
        "tables",
        "n_teams",
        "best",
    )
    hands: list[list[str]]  # per seat
    trick: list[tuple[int, str]]  # (seat, card) in play order
    to_play: int
    trump: str | None
    team: list[int]  # per seat
    order: dict[int, int]  # seat -> the next active seat
    ranks: str
    seen: dict[str, int]  # card -> copies played
    points: list[int]  # per team
    declarer_team: int
    value: int
    won: int  # tables per other team if made
    lost: int  # if failed
    tables: list[int]  # per team
    n_teams: int
    best: tuple[int, str] | None  # the (seat, card) winning the open trick

    @classmethod
    def from_state(cls, state: State) -> Deal:
        rnd = state.round
        assert rnd is not None and rnd.contract is not None  # the trick play of a deal under contract
        d = cls()
        d.hands = [sorted(h, key=SORT) for h in rnd.hands]
        d.trick = [(p.seat, p.card) for p in rnd.trick]
        d.to_play = rnd.to_play
        d.trump = rnd.contract.trump
        d.best = None
        for seat_card in d.trick:
            if d.best is None or beats(seat_card[1], d.best[1], d.trump):
                d.best = seat_card
        d.team = [team_of(state, s) for s in range(state.n_seats)]
        active = rnd.active
        d.order = {s: active[(i + 1) % len(active)] for i, s in enumerate(active)}
        d.ranks = ranks_for(len(active))
        seen: dict[str, int] = {}
        for t in rnd.tricks:
            for p in t.plays:
                seen[p.card] = seen.get(p.card, 0) + 1
        for p in rnd.trick:
            seen[p.card] = seen.get(p.card, 0) + 1
        d.seen = seen
        d.points = [0] * len(state.teams)
        for t in rnd.tricks:
            d.points[team_of(state, t.winner)] += t.points
        contract = rnd.contract
        d.declarer_team = team_of(state, contract.declarer)
        d.value = contract.value
        d.won = stake(band(contract.value, True), contract.level, state.options.double_scoring)[0]
        d.lost = stake(band(contract.value, False), contract.level, state.options.double_scoring)[0]
        d.tables = list(state.tables)
        d.n_teams = len(state.teams)
        return d

    def copy(self) -> Deal:
        d = Deal()
        for name in Deal.__slots__:
            setattr(d, name, getattr(self, name))
        d.hands = [list(h) for h in self.hands]
        d.trick = list(self.trick)
        d.seen = dict(self.seen)
        d.points = list(self.points)
        return d

    def play(self, card: str) -> None:
        seat = self.to_play
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.seen[card] = self.seen.get(card, 0) + 1
        if self.best is None or beats(card, self.best[1], self.trump):
            self.best = (seat, card)
        if len(self.trick) < len(self.order):
            self.to_play = self.order[seat]
            return
        assert self.best is not None  # a card has been played to the trick
        winner = self.best[0]
        self.points[self.team[winner]] += sum(POINTS[c[0]] for _, c in self.trick)
        self.trick = []
        self.best = None
        self.to_play = winner

    def over(self) -> bool:
        return not self.trick and not self.hands[self.to_play]

    def play_out(self) -> None:
        while not self.over():
            self.play(basic_card(self, self.to_play))

    def outcome(self, team: int) -> float:
        """Tables `team` gains (negative: loses) when the deal ends with these points (RULES §1.8),
        short payment included, plus POINT_WEIGHT per card point: the points smooth the estimate (a
        few worlds decide made or failed by luck) and tell close results apart."""
        made = self.points[self.declarer_team] >= self.value
        active = [t for t in range(self.n_teams) if self.tables[t] > 0]
        others = [t for t in active if t != self.declarer_team]
        gains: dict[int, int]  # team -> tables
        if made:
            gains = {t: -min(self.won, self.tables[t]) for t in others}
            gains[self.declarer_team] = -sum(gains.values())
        else:
            gains = {}
            left = self.tables[self.declarer_team]
            for t in others:
                paid = min(self.lost, left)
                left -= paid
                gains[t] = paid
            gains[self.declarer_team] = -sum(gains.values())
        return gains.get(team, 0) + POINT_WEIGHT * self.points[team]


# --- the basic player's card choice (bots._Player), on the Deal ---------------------------------------


def _higher(ranks: str) -> dict[str, list[str]]:
    return {r + s: [h + s for h in ranks[:i]] for i, r in enumerate(ranks) for s in "SHDC"}


HIGHER = {ranks: _higher(ranks) for ranks in (ranks_for(4), ranks_for(8))}  # the cards above each card


def _is_master(d: Deal, hand: list[str], card: str) -> bool:
    seen = d.seen
    for c in HIGHER[d.ranks][card]:
        if seen.get(c, 0) + hand.count(c) < 2:
            return False
    return True


def _cheap(d: Deal, options: list[str]) -> str:
    trump = d.trump
    return min(options, key=lambda c: (c[1] == trump, POINTS[c[0]], STRENGTH[c[0]]))


def _spare(d: Deal, options: list[str]) -> list[str]:
    return [c for c in options if c[0] not in "J9" and c[1] != d.trump]


def basic_card(d: Deal, seat: int) -> str:
    hand = d.hands[seat]
    plays = legal_cards(hand, d.trick)
    if len(plays) == 1:
        return plays[0]
    return _follow(d, seat, hand, plays) if d.trick else _lead(d, seat, hand, plays)


def _lead(d: Deal, seat: int, hand: list[str], plays: list[str]) -> str:
    masters = [c for c in plays if _is_master(d, hand, c)]
    trumps = [c for c in masters if c[1] == d.trump]
    if d.team[seat] == d.declarer_team and trumps:
        return max(trumps, key=lambda c: STRENGTH[c[0]])
    plain = [c for c in masters if c[1] != d.trump]
    if plain:
        return max(plain, key=lambda c: (POINTS[c[0]], STRENGTH[c[0]]))
    return _cheap(d, _spare(d, plays) or plays)


def _follow(d: Deal, seat: int, hand: list[str], plays: list[str]) -> str:
    trick, trump = d.trick, d.trump
    assert d.best is not None  # following: a card is on the table
    best_seat, best_card = d.best
    last = len(trick) == len(d.order) - 1
    beaters = [c for c in plays if beats(c, best_card, trump)]
    others = [c for c in plays if c not in beaters]
    if d.team[best_seat] == d.team[seat]:  # do not overtake a partner's winning card
        if not others:
            return min(beaters, key=lambda c: STRENGTH[c[0]])
        if last:
            fed = [c for c in others if c[1] != trump] or others
            return max(fed, key=lambda c: (POINTS[c[0]], -STRENGTH[c[0]]))
        return _cheap(d, others)
    worth = sum(POINTS[c[0]] for _, c in trick)
    led = trick[0][1][1]
    suited = [c for c in beaters if c[1] == led]
    if suited:
        safe = [c for c in suited if last or _is_master(d, hand, c)]
        if safe:
            return min(safe, key=lambda c: STRENGTH[c[0]])
    trumps = [c for c in beaters if c[1] == trump]
    if trumps and (worth >= 2 or (last and worth >= 1)):
        return min(trumps, key=lambda c: STRENGTH[c[0]])
    return _cheap(d, _spare(d, others) or others or plays)
