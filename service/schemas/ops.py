"""The operators' feed and audit report."""

from __future__ import annotations

from marshmallow import fields

from service.schemas.base import Model, boolean, integer, many, nested, text


class FeedEntry(Model):
    """One event of one game, in the order of the global feed."""

    id = text("The feed entry's id", example="1764471845123-0")
    game_id = text()
    version = integer("The event's version in its game", minimum=1)
    type = text("The event's type (see the game's event catalogue)")


class Feed(Model):
    """A page of the global feed, oldest first."""

    entries = many(FeedEntry, "Entries after the cursor")
    next_cursor = text(
        "Pass as `cursor` to read on after this page (or, on an empty page, from the same place). Opaque."
    )
    has_more = boolean("More entries follow already")


class AuditFinding(Model):
    """Where and why a check fails."""

    version = integer("The event where the check fails; null: the log as a whole", nullable=True)
    check = text("The check that failed", enum=("chain", "replay", "commitment", "conservation"))
    detail = text(
        example="event 42's content does not match its hash: the stored event was edited after it was written"
    )


class AuditHead(Model):
    """The last event of the log and its chain hash."""

    version = integer("The last event's version", minimum=0)
    hash = text("Its chain hash (hex); null for an empty log", nullable=True)


class ChainCheck(Model):
    """The hash chain: every entry's hash, its link to the one before, contiguous versions, the head."""

    ok = boolean()
    entries = integer("Entries checked", minimum=0)


class ReplayCheck(Model):
    """Every step decided again by the rules engines."""

    ok = boolean()
    events_reproduced = integer("Events the replay reproduced", minimum=0)
    rounds_scored = integer("Deals scored", minimum=0)
    match_result = text(
        "`reproduced` (the match's end was reproduced), `abandoned` or `not finished`",
        enum=("reproduced", "abandoned", "not finished"),
    )


class CommitmentsCheck(Model):
    """Every deal committed before it was dealt, and revealed (matching its commitment) once over."""

    ok = boolean()
    deals = integer("Deals dealt", minimum=0)
    revealed = integer("Deals revealed", minimum=0)
    pending = integer("Deals not revealed yet (the current one)", minimum=0)


class ConservationCheck(Model):
    """Every deck is the game's pack and every card played was dealt, once."""

    ok = boolean()
    deals = integer("Deals checked", minimum=0)


class AuditChecks(Model):
    """The four checks, each with `ok`."""

    chain = nested(ChainCheck)
    replay = nested(ReplayCheck)
    commitments = nested(CommitmentsCheck)
    conservation = nested(ConservationCheck)


class AuditReport(Model):
    """The audit of one game's log. It may quote hidden cards: operators only."""

    game_id = text()
    ok = boolean("Every check passed")
    events = integer("Events in the log", minimum=0)
    head = nested(AuditHead)
    checks = nested(AuditChecks)
    first_broken = nested(AuditFinding, "The first event at which a check fails, or null", nullable=True)
    findings = many(AuditFinding, "Every finding (at most 50), by version")
    elapsed_ms = fields.Float(required=True, metadata={"description": "How long the audit took"})
