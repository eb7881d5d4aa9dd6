"""The loop every engine's tests use to play a match with bots, without I/O (pure, like the engines)."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.cards import shuffled


def play_out(
    rules,
    bots,
    state,
    options: dict,
    rng: random.Random,
    levels,
    bot_view: Callable,
    keep_going: Callable,
    on_step: Callable | None = None,
):
    """Drives `state` with the system's deals and scoring and the bots' moves while `keep_going(state)`.

    Deals shuffle the pack of the players at that deal with `rng`; each bot gets its seat's view from `bot_view(state, seat)`.
    Returns (final state, all events); `on_step(state, events)` is called after every action.
    """
    log = []
    while keep_going(state):
        system = rules.pending_system_action(state)
        if system is not None:
            seat, action = None, dict(system)
            if action["type"] == "deal":
                action["deck"] = shuffled(rules.deal_pack(options, state), rng)
        else:
            seat = rules.to_act(state)[0]
            action = bots.choose(bot_view(state, seat), levels[seat], rng)
        events = rules.decide(state, seat, action)
        for event in events:
            state = rules.evolve(state, event)
        log += events
        if on_step:
            on_step(state, events)
    return state, log
