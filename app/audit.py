"""The audit of one game's log, and its export and import as JSON Lines.

Four checks, each naming the first event where it fails (`Finding(version, check, detail)`):

- chain: every stored entry's hash, its link to the entry before, contiguous versions and the recorded
  head (events/audit.py);
- replay: the log is replayed through games.table and the game's engine, and every step is decided
  again - each system step (commitment and deal with the deck the match's seed or operator decks give,
  the round's scoring and reveal, the match's end), each player's move (it must be what one of the
  seat's legal actions decides, consequences such as trick winners and draws included), each timeout,
  claim, reset, abandonment and rematch offer - so every recorded round result and the match result are reproduced, not
  trusted;
- commitments: each deal was committed right before it was dealt, each finished deal was revealed, the
  revealed deck and salt hash to the commitment, and dealing the revealed deck gives the recorded deal;
- conservation: each deck is exactly the pack of the players at its deal, the hands dealt come from it,
  no card is played more often than the pack holds it, and each trick holds exactly the cards played to it.

Logs written before Fifty-Six 56.2 hold deals after an elimination that were committed to the match's
first pack (64 cards) while only its cards of the smaller pack were dealt. The replay accepts such a
deal where the log shows it - where the step the table takes now departs from the log and exactly the
step it took then (`games.table.first_pack_deal`: that deal's seeded or operator deck, nothing else)
reproduces it - and the other checks then expect that deal's first-pack deck.

The report is operator data (it may quote hidden cards): the ops route and the `talon` command show it,
logs never do.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypedDict, cast

import orjson

from app.ports import AuditedLog
from events.audit import Finding, FindingDict, verify_chain
from events.codec import Codec, StoredEvent
from events.store import RawEntry
from games import table as tables
from games.engine import OptionDict, Rules
from games.events import Event
from games.registry import game_names, rules_for

EXPORT_FORMAT = 1
MAX_FINDINGS = 50
CHECK_ORDER = ("chain", "replay", "commitment", "conservation")


class NotFound(Exception):
    """No events are stored under this game id."""


class BadExport(ValueError):
    """A JSON Lines file that is not a Talon export, or whose chain is broken."""


@dataclass
class Replay:
    """What the replay found: how far it got, and what the other checks need from it."""

    findings: list[Finding] = field(default_factory=list)
    reproduced: int = 0  # events reproduced by deciding again
    rounds_scored: int = 0
    match_result: str = "not finished"  # "reproduced" | "abandoned" | "not finished"
    game: str | None = None
    options: OptionDict = field(default_factory=dict)  # the match's (read once `game` is known)
    # deal number -> engine state before it; looked up by the deal numbers a log holds, whatever they are
    deal_states: dict[object, object] = field(default_factory=dict)
    first_pack_deals: set[int] = field(default_factory=set)  # deals dealt as before Fifty-Six 56.2


class Head(TypedDict):
    version: int
    hash: str | None


class ChainCheck(TypedDict):
    ok: bool
    entries: int


class ReplayCheck(TypedDict):
    ok: bool
    events_reproduced: int
    rounds_scored: int
    match_result: str


class CommitmentStats(TypedDict):
    deals: int
    revealed: int
    pending: int


class CommitmentCheck(CommitmentStats):
    ok: bool


class ConservationCheck(TypedDict):
    ok: bool
    deals: int


class Checks(TypedDict):
    chain: ChainCheck
    replay: ReplayCheck
    commitments: CommitmentCheck
    conservation: ConservationCheck


class Report(TypedDict):
    """The audit report of one game (operator data: it may quote hidden cards)."""

    game_id: str
    ok: bool
    events: int
    head: Head
    checks: Checks
    first_broken: FindingDict | None
    findings: list[FindingDict]
    elapsed_ms: float


# ---------------------------------------------------------------------------------------------------
# The audit


def audit_game(store: AuditedLog, game_id: str) -> Report:
    """The audit report of one game in this store. Raises NotFound."""
    entries = list(store.iter_raw_entries(game_id))
    if not entries:
        raise NotFound(game_id)
    return audit_entries(game_id, entries, store.head(game_id), store.codec)


def audit_entries(
    game_id: str, entries: list[RawEntry], head: tuple[int, str] | None, codec: Codec | None = None
) -> Report:
    started = time.perf_counter()
    codec = codec or Codec()
    chain = verify_chain(game_id, entries, head, max_findings=MAX_FINDINGS)
    events, decode_findings = _decode(entries, codec)
    replay = _replay(game_id, events)
    commitments, commit_stats = _commitments(events, replay)
    conservation, deals = _conservation(events, replay)
    findings = chain.findings + decode_findings + replay.findings + commitments + conservation
    findings.sort(key=lambda f: (f.version if f.version is not None else float("inf"), CHECK_ORDER.index(f.check)))

    def ok(check: str) -> bool:
        return not any(f.check == check for f in findings)

    return {
        "game_id": game_id,
        "ok": not findings,
        "events": len(entries),
        "head": {"version": chain.head_version, "hash": chain.head_hash},
        "checks": {
            "chain": {"ok": ok("chain"), "entries": chain.entries},
            "replay": {
                "ok": ok("replay"),
                "events_reproduced": replay.reproduced,
                "rounds_scored": replay.rounds_scored,
                "match_result": replay.match_result,
            },
            "commitments": {"ok": ok("commitment"), **commit_stats},
            "conservation": {"ok": ok("conservation"), "deals": deals},
        },
        "first_broken": findings[0].to_dict() if findings else None,
        "findings": [f.to_dict() for f in findings[:MAX_FINDINGS]],
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 2),
    }


def _decode(entries: list[RawEntry], codec: Codec) -> tuple[list[StoredEvent], list[Finding]]:
    events: list[StoredEvent] = []
    findings: list[Finding] = []
    for entry in entries:
        try:
            events.append(codec.decode(entry.version, entry.payload, entry.hash, entry.prev_hash))
        except (ValueError, KeyError, TypeError) as exc:
            findings.append(Finding(entry.version, "replay", f"event {entry.version} cannot be decoded: {exc}"))
            break
    return events, findings


def _plain(event: StoredEvent) -> Event:
    # The event as the table folds and decides events. A game's actor is a seat or None (the system);
    # a text actor, which the store takes for other aggregates and only a tampered log holds here, is
    # kept as it is: it then matches no decision, and the finding quotes it.
    return cast(Event, {"type": event.type, "actor": event.actor, "data": event.data})


# ---------------------------------------------------------------------------------------------------
# Replay: decide every step again and compare


def _replay(game_id: str, events: list[StoredEvent]) -> Replay:
    out = Replay()
    if not events:
        return out
    first = events[0]
    if first.type != "match_created" or first.version != 1:
        out.findings.append(
            Finding(
                first.version,
                "replay",
                f"event {first.version} is `{first.type}`; a game's log starts with `match_created`",
            )
        )
        return out
    data = first.data
    if data.get("game") not in game_names() or data.get("game_id") != game_id:
        out.findings.append(
            Finding(
                1,
                "replay",
                f"event 1 creates game {data.get('game_id')!r} of "
                f"{data.get('game')!r}, not a game {game_id!r} this server knows",
            )
        )
        return out
    try:
        table = tables.evolve(None, _plain(first))
    except Exception as exc:  # noqa: BLE001 - a tampered creation must be reported, not crash the audit
        out.findings.append(Finding(1, "replay", f"event 1 does not create a match: {exc!r}"))
        return out
    out.game, out.options, out.reproduced = table.game, table.options, 1
    plain = [_plain(e) for e in events]
    i, before_last = 1, table
    while i < len(events):
        best: tuple[int, list[Event], str] = (-1, [], "")
        matched = None
        for label, candidate in _candidates(table, before_last, plain, i):
            if not candidate:
                continue
            k = _common_prefix(candidate, plain[i:])
            if k == len(candidate) and candidate:
                matched = candidate
                if label == FIRST_PACK_DEAL:
                    out.first_pack_deals.add(table.deals + 1)
                break
            if k > best[0]:
                best = (k, candidate, label)
        if matched is None:
            out.findings.append(_mismatch(events, i, *best))
            # A deal that departs from the replay is still checked against its revealed deck.
            agreed = max(best[0], 0)  # the departing candidate's events that the log has too
            table = tables.applied(table, best[1][:agreed])
            if i + agreed < len(events) and plain[i + agreed]["type"] == "dealt":
                out.deal_states[table.deals + 1] = table.state
            return out
        before_last = table
        for event in matched:
            if event["type"] == "dealt":
                out.deal_states[table.deals + 1] = table.state
            table = tables.evolve(table, event)
            out.rounds_scored += event["type"] == "round_scored"
        i += len(matched)
        out.reproduced = i
    if table.abandoned:
        out.match_result = "abandoned"
    elif table.finished:
        out.match_result = "reproduced"
    return out


FIRST_PACK_DEAL = "the system's deal as dealt before Fifty-Six 56.2"


def _candidates(
    table: tables.Table, before_last: tables.Table, events: list[Event], i: int
) -> Iterator[tuple[str, list[Event]]]:
    """Every decision that could have produced the events from `i` on, each as (label, its events)."""
    event = events[i]
    kind = event["type"]
    data: Mapping[str, object] = event["data"] if isinstance(event["data"], dict) else {}

    def attempt(label: str, decide: Callable[[], list[Event]]) -> Iterator[tuple[str, list[Event]]]:
        try:
            produced = decide()
        except Exception:  # noqa: BLE001 - a decision the rules refuse is simply not a candidate
            return
        yield label, produced

    rematch_id = data.get("game_id")
    if kind == "rematch_offered" and isinstance(rematch_id, str):
        # The one event a finished match may take, once: its link to its rematch.
        yield from attempt("the rematch's offer", lambda: tables.offer_rematch(table, rematch_id))
    if table.finished:
        return
    seats_open = any(s.open for s in table.seats)
    if table.deals > 0 or not seats_open:
        yield from attempt("the system's next step", lambda: tables.system_events(table))
        yield from attempt(FIRST_PACK_DEAL, lambda: tables.first_pack_deal(table))
    if table.status == "active":
        rules = table.rules
        for mover in rules.to_act(table.state):
            for action in rules.legal_actions(table.state, mover):
                yield from attempt(f"seat {mover}: {action}", partial(tables.act, table, mover, action))
    # The logged event's own fields. A seat that is not a number (or None, for a claim) is no seat the
    # rules would take: it is not a candidate, as when the rules refuse it.
    seat, idle_s = data.get("seat"), data.get("idle_s")
    player_id = data.get("player_id")
    if kind == "seat_claimed" and (seat is None or isinstance(seat, int)):
        # The claim is decided again with the name and token hash as logged, whatever they hold: a claim
        # only copies them into its event, and the replay checks where and when seats were claimed. A
        # rematch's reserved seat was claimed with its player's token of the match before, which the log
        # does not hold: the audit accepts the claim as it accepts any token's hash.
        name, token_hash = cast(str, data.get("name")), cast(str, data.get("token_hash"))
        yield from attempt(
            "a seat claim",
            lambda: tables.claim_seat(
                table,
                seat,
                name,
                token_hash,
                reserved_ok=True,
                player_id=player_id if isinstance(player_id, str) else None,
            )[:1],
        )
    elif kind == "seat_resumed" and isinstance(seat, int) and isinstance(player_id, str):
        resumed_hash = cast(str, data.get("token_hash"))
        yield from attempt("a player's seat resume", lambda: tables.resume_seat(table, seat, player_id, resumed_hash))
    elif kind == "seat_reset" and isinstance(seat, int):
        yield from attempt("an operator's seat reset", lambda: tables.reset_seat(table, seat))
    elif kind == "match_abandoned" and isinstance(idle_s, int):
        by = data.get("by")
        yield from attempt(
            "the sweeper or an operator closing the match",
            lambda: tables.abandon(table, idle_s, by if isinstance(by, str) else None),
        )
    elif kind == "turn_timed_out" and isinstance(seat, int) and 0 <= seat < len(table.seats):
        # Follows the move the stand-in bot made for the seat: the count is the seat's timeouts before it.
        previous = events[i - 1]
        if previous.get("actor") == seat and table.seats[seat].kind == "human":
            consecutive = before_last.seats[seat].timeouts + 1
            produced: list[Event] = [
                {"type": "turn_timed_out", "actor": None, "data": {"seat": seat, "consecutive": consecutive}}
            ]
            if consecutive >= table.takeover_after:
                produced.append({"type": "seat_taken_over", "actor": None, "data": {"seat": seat}})
            yield "a turn timeout", produced


def _common_prefix(candidate: Sequence[Event], actual: Sequence[Event]) -> int:
    k = 0
    for expected, stored in zip(candidate, actual):
        if expected != stored:
            break
        k += 1
    return k


def _mismatch(events: list[StoredEvent], i: int, k: int, candidate: list[Event], label: str) -> Finding:
    if k < 0:
        at = events[i]
        return Finding(
            at.version,
            "replay",
            f"event {at.version} (`{at.type}`) cannot follow event "
            f"{at.version - 1}: no decision of the system or of a seat leads to it",
        )
    if i + k >= len(events):
        at = events[-1]
        return Finding(
            at.version + 1,
            "replay",
            f"the log ends at event {at.version} in the middle of {label}: {candidate[k]['type']!r} is missing",
        )
    at, expected = events[i + k], candidate[k]
    if k == 0 and isinstance(at.actor, int) and expected.get("actor") != at.actor:
        return Finding(
            at.version,
            "replay",
            f"event {at.version} (`{at.type}` by seat {at.actor}, "
            f"{_short(at.data)}) is not what any legal action of that seat decides here",
        )
    return Finding(
        at.version, "replay", f"event {at.version} differs from what {label} decides: " + _diff(_plain(at), expected)
    )


def _diff(stored: Event, expected: Event) -> str:
    if stored["type"] != expected["type"]:
        return f"it is `{stored['type']}`, the replay gives `{expected['type']}` ({_short(expected['data'])})"
    if stored["actor"] != expected["actor"]:
        return f"its actor is {stored['actor']!r}, the replay gives {expected['actor']!r}"
    sd, ed = stored["data"], expected["data"]
    keys = sorted(set(sd) | set(ed), key=str)
    parts = [
        f"data.{key} is {_short(sd.get(key, '(absent)'))}, the replay gives {_short(ed.get(key, '(absent)'))}"
        for key in keys
        if sd.get(key, "(absent)") != ed.get(key, "(absent)")
    ]
    return f"`{stored['type']}`: " + "; ".join(parts)


def _short(value: Any, limit: int = 120) -> str:
    text = orjson.dumps(value).decode() if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------------
# Commitments: what a player can check from public events, plus the deal itself


def commitment_of(salt: str, deck: list[str]) -> str:
    return tables.deal_commitment(salt, deck)


def _commitments(events: list[StoredEvent], replay: Replay) -> tuple[list[Finding], CommitmentStats]:
    findings: list[Finding] = []
    # Keyed by the deal numbers as logged: a tampered log may hold any value there (None when absent).
    committed: dict[object, tuple[int, object]] = {}  # deal -> (version, commitment)
    revealed: dict[object, int] = {}  # deal -> version
    dealt_at: dict[object, StoredEvent] = {}
    deals = 0
    for n, event in enumerate(events):
        if event.type == "deal_committed":
            committed[event.data.get("deal")] = (event.version, event.data.get("commitment"))
        elif event.type == "dealt":
            deals += 1
            dealt_at[deals] = event
            before = events[n - 1] if n else None
            if before is None or before.type != "deal_committed" or before.data.get("deal") != deals:
                findings.append(
                    Finding(
                        event.version,
                        "commitment",
                        f"deal {deals} (event {event.version}) was not committed right before it was dealt",
                    )
                )
        elif event.type == "deal_revealed":
            deal = event.data.get("deal")
            revealed[deal] = event.version
            findings += _check_reveal(event, committed.get(deal), dealt_at.get(deal), replay)
    for deal in range(1, deals + 1):
        over = deal < deals or (events and events[-1].type in ("match_ended", "deal_revealed", "match_abandoned"))
        if deal not in revealed and over:
            version = dealt_at[deal].version
            findings.append(
                Finding(version, "commitment", f"deal {deal} (event {version}) is over but was never revealed")
            )
    pending = sum(1 for deal in range(1, deals + 1) if deal not in revealed)
    return findings, {"deals": deals, "revealed": len(revealed), "pending": pending}


def _check_reveal(
    event: StoredEvent, committed: tuple[int, object] | None, dealt: StoredEvent | None, replay: Replay
) -> list[Finding]:
    deal, deck, salt = event.data.get("deal"), event.data.get("deck"), event.data.get("salt")
    v = event.version
    if committed is None:
        return [Finding(v, "commitment", f"event {v} reveals deal {deal}, which was never committed")]
    if not isinstance(deck, list) or not isinstance(salt, str):
        return [Finding(v, "commitment", f"event {v} reveals deal {deal} without a deck and a salt")]
    actual = commitment_of(salt, [str(c) for c in deck])
    committed_at, commitment = committed
    if actual != commitment:
        # A commitment is 64 hex digits; a tampered log's may be any value, quoted as JSON.
        shown = commitment if isinstance(commitment, str) else _short(commitment)
        return [
            Finding(
                v,
                "commitment",
                f"deal {deal}: the deck and salt revealed at event {v} hash to "
                f"{actual[:16]}..., but event {committed_at} committed to {shown[:16]}...",
            )
        ]
    state = replay.deal_states.get(deal)
    if dealt is not None and state is not None and replay.game is not None:
        rules = rules_for(replay.game)
        if deal in replay.first_pack_deals:  # the engine dealt only the cards of the deal's pack
            deck = tables.cards_within(deck, rules.deal_pack(replay.options, state))
        try:
            redealt = rules.decide(state, None, {"type": "deal", "deck": list(deck)})
        except Exception as exc:  # noqa: BLE001
            return [Finding(v, "commitment", f"deal {deal}: the revealed deck cannot be dealt: {exc}")]
        if not redealt or redealt[0]["data"] != dealt.data:
            return [
                Finding(
                    dealt.version,
                    "commitment",
                    f"deal {deal}: the cards dealt at event {dealt.version} are not the revealed deck dealt out",
                )
            ]
    return []


def verify_commitments(public_events: Iterable[Mapping[str, Any]]) -> list[str]:
    """What a player can check alone, from the public event log (GET /v1/games/{id}/events): every
    revealed deal hashes to its earlier commitment. Returns the problems found ([] = all good)."""
    problems: list[str] = []
    committed: dict[object, object] = {}  # deal -> commitment, as the log says
    for event in public_events:
        data = event["data"]
        if event["type"] == "deal_committed":
            committed[data["deal"]] = data["commitment"]
        elif event["type"] == "deal_revealed":
            if data["deal"] not in committed:
                problems.append(f"deal {data['deal']} revealed but never committed")
            elif commitment_of(data["salt"], data["deck"]) != committed[data["deal"]]:
                problems.append(f"deal {data['deal']}: the revealed deck does not match its commitment")
    return problems


# ---------------------------------------------------------------------------------------------------
# Card conservation


def _conservation(events: list[StoredEvent], replay: Replay) -> tuple[list[Finding], int]:
    if replay.game is None:
        return [], 0
    rules = rules_for(replay.game)
    # Cards as logged: a tampered log may hold any value where a card belongs.
    first: Counter[object] = Counter(rules.deck(replay.options))
    pack = first
    findings: list[Finding] = []
    deals = 0
    played: Counter[object] = Counter()
    trick: list[dict[str, object]] = []

    def found(version: int, detail: str) -> None:
        if len(findings) < MAX_FINDINGS:
            findings.append(Finding(version, "conservation", detail))

    for event in events:
        v, data = event.version, event.data
        if event.type == "deal_revealed":
            deck = Counter(map(str, data.get("deck") or []))
            expected = _revealed_pack(rules, replay, data.get("deal"), deck)
            if deck != expected:
                found(
                    v,
                    f"deal {data.get('deal')}: the revealed deck is not the pack "
                    f"(missing {sorted((expected - deck).elements())}, extra {sorted((deck - expected).elements())})",
                )
        elif event.type == "dealt":
            deals += 1
            played, trick = Counter(), []
            state = replay.deal_states.get(deals)
            pack = first if state is None else Counter(rules.deal_pack(replay.options, state))
            hands = data.get("hands")
            if isinstance(hands, list):
                held = Counter(c for hand in hands if isinstance(hand, list) for c in hand)
                if held - pack:
                    found(
                        v, f"deal {deals}: the hands hold cards the pack does not: {sorted((held - pack).elements())}"
                    )
        elif event.type == "played":
            card = data.get("card")
            played[card] += 1
            trick.append({"seat": data.get("seat"), "card": card})
            if played[card] > pack[card]:
                found(v, f"deal {deals}: {card} is played more often than the pack holds it")
        elif event.type == "trick_taken":
            if isinstance(data.get("cards"), list) and data["cards"] != trick:
                found(
                    v,
                    f"deal {deals}: the trick taken at event {v} holds {_short(data['cards'])}, "
                    f"but the cards played to it were {_short(trick)}",
                )
            trick = []
        elif event.type == "round_ended" and trick:
            found(v, f"deal {deals}: the round ended with cards on the table that no trick took: {_short(trick)}")
    return findings, deals


def _revealed_pack(rules: Rules[Any], replay: Replay, deal: object, deck: Counter[str]) -> Counter[str]:
    """The pack deal `deal`'s revealed deck must be: that of the players at the deal, or the first pack
    for a deal dealt as before Fifty-Six 56.2. Where the replay did not reach the deal, any pack of the
    game will do (the replay reports the departure)."""
    if deal in replay.first_pack_deals:
        return Counter(rules.deck(replay.options))
    if deal in replay.deal_states:
        return Counter(rules.deal_pack(replay.options, replay.deal_states[deal]))
    packs = [Counter(pack) for pack in rules.packs(replay.options)]
    return deck if deck in packs else packs[0]


# ---------------------------------------------------------------------------------------------------
# Export and import (JSON Lines)


def export_lines(store: AuditedLog, game_id: str) -> Iterator[str]:
    """A header line, then one line per stored entry exactly as stored (payload and hashes)."""
    head = store.head(game_id)
    if not store.exists(game_id):
        raise NotFound(game_id)
    header = {
        "talon_export": EXPORT_FORMAT,
        "game_id": game_id,
        "meta": store.meta(game_id),
        "head": {"version": head[0], "hash": head[1]} if head else None,
    }
    yield orjson.dumps(header).decode()
    for entry in store.iter_raw_entries(game_id):
        yield orjson.dumps(entry.to_dict()).decode()


def read_export(lines: Iterable[str | bytes]) -> tuple[dict[str, Any], list[RawEntry]]:
    rows = [orjson.loads(line) for line in lines if line.strip()]
    if not rows or not isinstance(rows[0], dict) or rows[0].get("talon_export") != EXPORT_FORMAT:
        raise BadExport("not a Talon export: the first line must be its header")
    header: dict[str, Any] = rows[0]
    entries: list[RawEntry] = []
    for n, row in enumerate(rows[1:], start=2):
        try:
            entries.append(RawEntry(int(row["v"]), row["e"], row.get("p"), row.get("h")))
        except (KeyError, TypeError, ValueError):
            raise BadExport(f"line {n} is not an exported event") from None
    return header, entries


def import_lines(store: AuditedLog, lines: Iterable[str | bytes], force: bool = False) -> tuple[str, int]:
    """Writes an export into this store; refuses a broken chain unless `force` (forensics)."""
    header, entries = read_export(lines)
    game_id = header.get("game_id")
    if not isinstance(game_id, str):
        raise BadExport("not a Talon export: its header names no game")
    head = header.get("head")
    chain = verify_chain(game_id, entries, (head["version"], head["hash"]) if head else None)
    if not chain.ok and not force:
        first = chain.findings[0]
        raise BadExport(f"the export's chain is broken at event {first.version}: {first.detail}")
    return game_id, store.import_entries(game_id, entries, header.get("meta") or None)
