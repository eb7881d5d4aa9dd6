"""No seat ever sees a card it may not know: views, event pages, SSE frames, hints and error bodies, for every
game and variant, in random matches where every seat is a human client.

At each checked moment a card is secret from seat s when it lies in another seat's hand, s does not
hold a copy of it, and the rules have not made it public in this round (the oracle below, read from
the operator's full log). Every JSON string served to s, and to spectators, is scanned for secret cards.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.support.talon import OPERATOR, auth, make_app, run_jobs

CARD_RANKS, CARD_SUITS = set("AKQJT987"), set("SHDC")
# Fields whose cards say nothing about where this deal's cards lie: the name of the card that may be
# exchanged for the trump (66), and the last, finished round (its whole deck is revealed once scored).
NAMING_FIELDS = {"exchange_card", "last_result"}
MATCHES = [
    ("sixty-six", {"variant": "2p24"}, 2),
    ("sixty-six", {"variant": "3p"}, 3),
    ("sixty-six", {"variant": "3p", "three_player_mode": "pagat_no_talon"}, 3),
    ("sixty-six", {"variant": "4p"}, 4),
    ("fifty-six", {}, 4),
    ("fifty-six", {"starting_tables": 2}, 6),
    ("fifty-six", {"starting_tables": 2}, 8),
    ("smear", {"widow_size": 0}, 4),
    ("smear", {"widow_size": 2}, 4),
    ("smear", {"widow_size": 3}, 4),
]
STEPS = 70  # actions played per match
CHECK_EVERY = 4  # a full scan every few actions (and at every deal boundary the log crosses)


def cards_in(value) -> list[str]:
    """Every JSON string in `value` that is a card."""
    if isinstance(value, str):
        return [value] if len(value) == 2 and value[0] in CARD_RANKS and value[1] in CARD_SUITS else []
    if isinstance(value, dict):
        return [c for k, v in value.items() if k not in NAMING_FIELDS for c in cards_in(v)]
    if isinstance(value, list):
        return [c for v in value for c in cards_in(v)]
    return []


class Table:
    def __init__(self, client, game: str, options: dict, players: int, seed: int):
        body = {
            "game": game,
            "options": {**options, "first_dealer": 0},
            "seats": [{"kind": "human"}] * players,
            "seed": seed,
        }
        created = client.post("/v1/games", json=body, headers=auth(OPERATOR))
        assert created.status_code == 201, created.json
        self.client, self.id = client, created.json["game_id"]
        self.tokens = [
            client.post(f"/v1/games/{self.id}/players", json={"name": f"p{i}"}).json["token"] for i in range(players)
        ]

    def headers(self, seat: int | str | None) -> dict:
        if seat == "operator":
            return auth(OPERATOR)
        return auth(self.tokens[seat]) if seat is not None else {}

    def view(self, seat: int | None) -> dict:
        return self.client.get(f"/v1/games/{self.id}", headers=self.headers(seat)).json

    def events(self, seat: int | str | None) -> list[dict]:
        headers = self.headers(seat)
        page = self.client.get(f"/v1/games/{self.id}/events?limit=500", headers=headers).json
        assert not page["has_more"]
        return page["events"]

    def stream(self, seat: int, until: int) -> list[str]:
        ticket = self.client.post(f"/v1/games/{self.id}/stream-tickets", headers=auth(self.tokens[seat])).json["ticket"]
        frames, text = [], ""
        with self.client.get(f"/v1/games/{self.id}/stream?ticket={ticket}", buffered=False) as response:
            chunks = iter(response.response)
            while f"id: {until}\n" not in text:
                text += next(chunks).decode()
        for frame in text.split("\n\n"):
            data = [line[6:] for line in frame.splitlines() if line.startswith("data: ")]
            frames.extend(data)
        return frames


def public_cards(operator_log: list[dict], start: int) -> set[str]:
    """What the rules show everyone this round: cards played, marriages shown, the face-up trump card
    and cards exchanged for it (66), and a deal's revealed deck once it is over."""
    public: set[str] = set()
    for event in (e for e in operator_log if e["version"] >= start):
        data, kind = event["data"], event["type"]
        if kind in ("played", "trick_taken", "exchanged", "deal_revealed"):
            public |= set(cards_in(data))
        elif kind == "melded":
            public |= {"K" + data["suit"], "Q" + data["suit"]}
        elif kind == "dealt" and data.get("trump_card"):
            public.add(data["trump_card"])
        elif kind == "drew":
            public |= {d["card"] for d in data["draws"] if d.get("face_up")}
    return public


def round_start(events: list[dict]) -> int:
    """The version from which this round's events begin (the last deal's commitment or the deal)."""
    starts = [e["version"] for e in events if e["type"] in ("deal_committed", "dealt")]
    return starts[-1] if starts else 0


def secrets_from(seat: int, hands: list[list[str]], public: set[str]) -> set[str]:
    own = set(hands[seat])
    others = {c for s, hand in enumerate(hands) if s != seat for c in hand}
    return others - own - public


def scan(table: Table, players: int) -> None:
    hands = [table.view(s)["round"]["hand"] or [] for s in range(players)]
    operator_log = table.events("operator")
    start = round_start(operator_log)
    public = public_cards(operator_log, start)
    spectator = {
        "view": cards_in(table.view(None)),
        "events": cards_in([e for e in table.events(None) if e["version"] >= start]),
    }
    for where, cards in spectator.items():
        leaked = set(cards) - public
        assert not leaked, f"a spectator was shown {sorted(leaked)} in its {where}"
    for seat in range(players):
        secret = secrets_from(seat, hands, public)
        view = table.view(seat)
        log = [e for e in table.events(seat) if e["version"] >= start]
        served = {"view": cards_in(view), "events": cards_in(log)}
        if view["legal_actions"]:
            hint = table.client.get(f"/v1/games/{table.id}/hint", headers=auth(table.tokens[seat]))
            assert hint.status_code == 200, hint.json
            served["hint"] = cards_in(hint.json)
        probe = sorted(secret)[0] if secret else None
        if probe:  # an illegal action naming a card the seat does not hold: the error must leak nothing else
            refused = table.client.post(
                f"/v1/games/{table.id}/actions", json={"type": "play", "card": probe}, headers=auth(table.tokens[seat])
            )
            assert refused.status_code in (409, 422), refused.json
            served["error"] = [c for c in cards_in(refused.json) if c != probe]
        for where, cards in served.items():
            leaked = secret & set(cards)
            assert not leaked, f"seat {seat} was shown {sorted(leaked)} in its {where} (version {view['version']})"


@pytest.mark.parametrize(
    "game,options,players",
    MATCHES,
    ids=[f"{g}-{p}p-{'-'.join(map(str, o.values())) or 'default'}" for g, o, p in MATCHES],
)
def test_no_seat_sees_a_card_it_may_not_know(r, redis_url, game, options, players):
    client = make_app(redis_url).test_client()
    table = Table(client, game, options, players, seed=len(game) * 100 + players)
    rng = random.Random(players)
    scans = actions = 0
    for _ in range(STEPS * 3):  # bounded: scoring steps interleave with the actions
        if actions == STEPS:
            break
        views = [table.view(s) for s in range(players)]
        if views[0]["status"] == "finished":
            break
        acting = [s for s, v in enumerate(views) if v["legal_actions"]]
        if not acting:
            run_jobs(redis_url)  # the workers' turn
            continue
        if actions % CHECK_EVERY == 0:
            scan(table, players)
            scans += 1
        seat = acting[0]
        response = client.post(
            f"/v1/games/{table.id}/actions",
            json=rng.choice(views[seat]["legal_actions"]),
            headers=auth(table.tokens[seat]),
        )
        assert response.status_code == 201, response.json
        actions += 1
    assert scans >= 3
    # The live stream carries the same events as the pages: read every frame once for each seat.
    version = table.view(None)["version"]
    operator_log = table.events("operator")
    start = round_start(operator_log)
    hands = [table.view(s)["round"]["hand"] or [] for s in range(players)]
    public = public_cards(operator_log, start)
    for seat in range(players):
        frames = [json.loads(f) for f in table.stream(seat, version)]
        this_round = [f for f in frames if f["version"] >= start]
        assert not secrets_from(seat, hands, public) & set(cards_in(this_round))
