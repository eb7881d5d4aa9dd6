"""Each implementation of a port (app/ports.py) has every member of its protocol, and each method takes
the protocol's parameters under the same names, kinds and defaults: a use case written against the
port works on the Redis adapters and the in-memory ones alike (their behaviour is
tests/integration/test_port_contracts.py's business)."""

from __future__ import annotations

import inspect

import pytest

from adapters.memory_queue import InMemoryJobQueue
from adapters.rq_queue import RqJobQueue
from app.ports import AuditedLog, EventStore, JobQueue
from events.memory import InMemoryEventStore
from events.repository import AggregateStore
from events.store import EventStore as RedisEventStore

PORTS = [
    (EventStore, RedisEventStore),
    (EventStore, InMemoryEventStore),
    (AggregateStore, RedisEventStore),
    (AggregateStore, InMemoryEventStore),
    (AuditedLog, RedisEventStore),
    (AuditedLog, InMemoryEventStore),
    (JobQueue, RqJobQueue),
    (JobQueue, InMemoryJobQueue),
]


def members(protocol) -> set[str]:
    names = set()
    for cls in protocol.__mro__:
        if cls is object or not getattr(cls, "_is_protocol", False):
            continue
        names |= {n for n in vars(cls) if not n.startswith("_")} | set(getattr(cls, "__annotations__", {}))
    return names


@pytest.mark.parametrize("protocol, implementation", PORTS, ids=lambda c: c.__module__ + "." + c.__name__)
def test_the_implementation_takes_what_the_port_gives(protocol, implementation):
    assert members(protocol), "a port without members"
    for name in members(protocol):
        wanted = getattr(protocol, name, None)
        if not callable(wanted):  # an attribute (the codec): the constructor takes it
            assert name in inspect.signature(implementation.__init__).parameters, name
            continue
        given = inspect.signature(getattr(implementation, name)).parameters
        for parameter in inspect.signature(wanted).parameters.values():
            assert parameter.name in given, f"{implementation.__name__}.{name} lacks {parameter.name}"
            other = given[parameter.name]
            assert (other.kind, other.default) == (parameter.kind, parameter.default), f"{name}({parameter.name})"
