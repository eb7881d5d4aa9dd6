"""The audit of a finished match on a real Redis: a whole log verifies; tampering with it (an edited
field, a deleted event, two events reordered, an altered deal, with and without a recomputed chain) is
caught and located; a player checks the deal commitments from public events only; export, import into
another Redis, audit there; the `talon` command and the ops route."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import orjson
import pytest
import redis

from app import audit
from events.audit import entry_hash, genesis_hash
from events.codec import pack, unpack
from events.store import EventStore
from service import cli
from tests.support.redis_proc import RedisProcess
from tests.support.talon import OPERATOR, auth, make_app, run_jobs

REPO = Path(__file__).resolve().parents[2]
HUMAN, BOT = 0, 1


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url)


@pytest.fixture
def store(app) -> EventStore:
    return app.extensions["talon_application"].store


def bot_match(
    app, redis_url, game: str = "sixty-six", seats: int = 2, seed: int = 7, options: dict | None = None
) -> str:
    """A whole match of basic bots, played by real rq jobs."""
    client = app.test_client()
    created = client.post(
        "/v1/games",
        headers=auth(OPERATOR),
        json={
            "game": game,
            "seed": seed,
            "options": options or {},
            "seats": [{"kind": "bot", "level": "basic"}] * seats,
        },
    )
    assert created.status_code == 201, created.json
    run_jobs(redis_url)
    game_id = created.json["game_id"]
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    return game_id


_PLAYED: dict[str, tuple[str, dict, list]] = {}


@pytest.fixture
def finished(app, store, redis_url) -> str:
    """A finished Sixty-Six match of bots: played once, then imported as it was into each test's Redis."""
    if "match" not in _PLAYED:
        game_id = bot_match(app, redis_url)
        _PLAYED["match"] = (game_id, store.meta(game_id), store.raw_entries(game_id))
        return game_id
    game_id, meta, raw = _PLAYED["match"]
    store.import_entries(game_id, raw, meta)
    return game_id


def key(game_id: str) -> str:
    return f"talon:{{g:{game_id}}}:events"


def entries(r, game_id: str) -> list[tuple[int, dict]]:
    """The stream's entries as stored: `e` (packed text) and `h` (the hash's 20 bytes)."""
    return [(int(i.decode().split("-")[0]), {k.decode(): v for k, v in f.items()}) for i, f in r.xrange(key(game_id))]


def rewrite(r, game_id: str, rows: list[tuple[int, dict]], rechain: bool = False) -> None:
    """Replace the stream as someone with write access to Redis could; with `rechain`, as a careful
    forger who also recomputes every hash and the head."""
    if rechain:
        prev = genesis_hash(game_id)
        for version, fields in rows:
            prev = entry_hash(prev, version, fields["e"].decode())
            fields["h"] = bytes.fromhex(prev)
        r.set(f"talon:{{g:{game_id}}}:head", f"{rows[-1][0]}:{prev}")
    r.delete(key(game_id), f"talon:{{g:{game_id}}}:snap")
    for version, fields in rows:
        r.xadd(key(game_id), fields, id=f"{version}-0")


def payload(fields: dict) -> dict:
    return orjson.loads(unpack(fields["e"]))


def set_payload(fields: dict, event: dict) -> None:
    fields["e"] = pack(orjson.dumps(event))


def first_of(rows, kind: str, after: int = 0) -> int:
    return next(i for i, (v, f) in enumerate(rows) if v > after and payload(f)["t"] == kind)


def test_a_finished_match_verifies(store, finished):
    report = audit.audit_game(store, finished)
    assert report["ok"] and report["first_broken"] is None and report["findings"] == []
    checks = report["checks"]
    assert checks["chain"] == {"ok": True, "entries": report["events"]}
    assert checks["replay"]["events_reproduced"] == report["events"]
    assert checks["replay"]["match_result"] == "reproduced" and checks["replay"]["rounds_scored"] >= 2
    assert checks["commitments"]["deals"] == checks["commitments"]["revealed"] == checks["conservation"]["deals"] >= 2
    assert checks["commitments"]["pending"] == 0
    events = store.read(finished)
    assert events[-1].type == "match_ended"
    for n, event in enumerate(events):
        if event.type == "dealt":
            assert events[n - 1].type == "deal_committed"


def test_every_game_verifies(app, store, redis_url):
    for game, seats, options in (("fifty-six", 4, {"starting_tables": 2}), ("smear", 4, {"match_target": 5})):
        game_id = bot_match(app, redis_url, game, seats, seed=3, options=options)
        report = audit.audit_game(store, game_id)
        assert report["ok"], (game, report["first_broken"])
        assert report["checks"]["replay"]["match_result"] == "reproduced"


def test_an_edited_field_is_caught_and_located(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "round_scored")
    event = payload(rows[n][1])
    event["d"]["standing"][0]["score"] += 1
    set_payload(rows[n][1], event)
    rewrite(r, finished, rows)
    report = audit.audit_game(store, finished)
    assert not report["ok"]
    assert report["first_broken"] == {
        "version": rows[n][0],
        "check": "chain",
        "detail": f"event {rows[n][0]}'s content does not match its hash: "
        "the stored event was edited after it was written",
    }


def test_an_edited_result_with_a_recomputed_chain_is_caught_by_the_replay(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "round_scored")
    event = payload(rows[n][1])
    event["d"]["standing"][1]["score"] += 3
    set_payload(rows[n][1], event)
    rewrite(r, finished, rows, rechain=True)
    report = audit.audit_game(store, finished)
    assert report["checks"]["chain"]["ok"]
    first = report["first_broken"]
    assert (first["version"], first["check"]) == (rows[n][0], "replay")
    assert "data.standing is" in first["detail"] and "score round" not in first["detail"]


def test_a_deleted_event_is_caught_and_located(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "played")
    version = rows[n][0]
    r.xdel(key(finished), f"{version}-0")
    report = audit.audit_game(store, finished)
    first = report["first_broken"]
    assert (first["version"], first["check"]) == (version, "chain")
    assert f"event {version} is missing: event {version - 1} is followed by event {version + 1}" == first["detail"]


def test_a_deleted_event_with_a_recomputed_chain_is_caught_by_the_replay(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "played", after=first_of(rows, "played") + 1)
    version = rows[n][0]
    renumbered = [(v if v < version else v - 1, f) for v, f in rows if v != version]
    rewrite(r, finished, renumbered, rechain=True)
    report = audit.audit_game(store, finished)
    assert report["checks"]["chain"]["ok"]
    assert report["first_broken"]["version"] == version and report["first_broken"]["check"] == "replay"


def test_two_reordered_events_are_caught_and_located(r, store, finished):
    rows = entries(r, finished)
    a = first_of(rows, "played")
    b = first_of(rows, "played", after=rows[a][0])
    (va, fa), (vb, fb) = rows[a], rows[b]
    rows[a], rows[b] = (va, fb), (vb, fa)
    rewrite(r, finished, rows)
    report = audit.audit_game(store, finished)
    first = report["first_broken"]
    assert (first["version"], first["check"]) == (va, "chain")
    details = [f["detail"] for f in report["findings"] if f["version"] == va]
    assert f"event {va} was written as event {vb}: it has been moved (events reordered)" in details


def test_an_altered_deal_is_caught_and_located(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "dealt", after=first_of(rows, "dealt") + 1)  # the second deal
    event = payload(rows[n][1])
    hands = event["d"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # one card each way between the two hands
    set_payload(rows[n][1], event)
    raw_edit = [(v, dict(f)) for v, f in rows]
    rewrite(r, finished, raw_edit)
    first = audit.audit_game(store, finished)["first_broken"]
    assert (first["version"], first["check"]) == (rows[n][0], "chain")

    # A forger who recomputes the chain is caught where the deal departs from its commitment.
    rewrite(r, finished, rows, rechain=True)
    report = audit.audit_game(store, finished)
    assert report["checks"]["chain"]["ok"] and not report["ok"]
    located = [(f["version"], f["check"]) for f in report["findings"]]
    assert report["first_broken"]["version"] == rows[n][0]
    assert (rows[n][0], "replay") in located and (rows[n][0], "commitment") in located
    assert any("are not the revealed deck dealt out" in f["detail"] for f in report["findings"])


def test_a_forged_reveal_does_not_match_its_commitment(r, store, finished):
    rows = entries(r, finished)
    n = first_of(rows, "deal_revealed")
    event = payload(rows[n][1])
    deck = event["d"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    set_payload(rows[n][1], event)
    rewrite(r, finished, rows, rechain=True)
    report = audit.audit_game(store, finished)
    commitment = [f for f in report["findings"] if f["check"] == "commitment"]
    assert commitment and commitment[0]["version"] == rows[n][0]
    assert "hash to" in commitment[0]["detail"] and "committed to" in commitment[0]["detail"]


def player_verifies(events: list[dict]) -> tuple[int, list[str]]:
    """A player's own check, from the public event log and hashlib only (as the README shows)."""
    committed, problems, checked = {}, [], 0
    for e in events:
        if e["type"] == "deal_committed":
            committed[e["data"]["deal"]] = e["data"]["commitment"]
        elif e["type"] == "deal_revealed":
            d = e["data"]
            digest = hashlib.sha256(f"{d['salt']}:{','.join(d['deck'])}".encode()).hexdigest()
            checked += 1
            if digest != committed.get(d["deal"]):
                problems.append(f"deal {d['deal']} does not match its commitment")
    return checked, problems


def test_a_player_checks_every_deal_from_public_events_only(app, redis_url):
    client = app.test_client()
    # Seeded (by the operator) only so that the match is the same every run; the players see no seed.
    # Two humans played from here: only the system's steps (deal, score) run as jobs.
    game_id = client.post(
        "/v1/games",
        headers=auth(OPERATOR),
        json={
            "game": "sixty-six",
            "seed": 1,
            "options": {"match_target": 7},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        },
    ).json["game_id"]
    tokens = [client.post(f"/v1/games/{game_id}/players", json={"name": name}).json["token"] for name in ("Ana", "Ben")]
    token = tokens[HUMAN]
    hands_seen: dict[int, list[str]] = {}
    for _ in range(2000):
        views = [client.get(f"/v1/games/{game_id}", headers=auth(t)).json for t in tokens]
        view = views[HUMAN]
        if view["status"] == "finished":
            break
        movers = [(t, v) for t, v in zip(tokens, views) if v["legal_actions"]]
        if not movers:
            run_jobs(redis_url)
            continue
        t, v = movers[0]
        assert (
            client.post(f"/v1/games/{game_id}/actions", headers=auth(t), json=v["legal_actions"][0]).status_code == 201
        )
    assert view["status"] == "finished"
    public = client.get(f"/v1/games/{game_id}/events?limit=500", headers=auth(token)).json["events"]
    assert not any("seed" in e["data"] for e in public)
    deals = 0
    for n, e in enumerate(public):
        if e["type"] == "dealt":
            deals += 1
            hands_seen[deals] = e["data"]["hands"][HUMAN]
            assert e["data"]["hands"][BOT] is None
            committed = public[n - 1]
            assert committed["type"] == "deal_committed" and set(committed["data"]) == {"deal", "commitment"}
        if e["type"] == "deal_revealed":
            assert set(hands_seen[e["data"]["deal"]]) <= set(e["data"]["deck"])  # my cards were in that deck
    checked, problems = player_verifies(public)
    assert checked == deals >= 2 and problems == []
    # The README's own snippet, run as a player would run it, on this log.
    done = subprocess.run(
        ["bash", "-c", "python3 -c '" + readme_snippet() + "'"],
        input=json.dumps({"events": public}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.splitlines() == [f"deal {n} matches its commitment" for n in range(1, deals + 1)], done.stderr
    assert audit.verify_commitments(public) == []
    # The check can fail: a deck revealed in another order does not match.
    forged = json.loads(json.dumps(public))
    reveal = next(e for e in forged if e["type"] == "deal_revealed")
    reveal["data"]["deck"].reverse()
    assert player_verifies(forged)[1] == [f"deal {reveal['data']['deal']} does not match its commitment"]
    assert audit.verify_commitments(forged)


def readme_snippet() -> str:
    text = (REPO / "README.md").read_text()
    block = text[text.index("**Check a deal yourself.**") :]
    block = block[block.index("python3 -c '") + len("python3 -c '") :]
    return block[: block.index("'\n```")]


def test_the_commitment_is_published_before_the_first_card_and_the_deck_only_after(app, redis_url):
    client = app.test_client()
    game_id = client.post(
        "/v1/games", json={"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}
    ).json["game_id"]
    token = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"}).json["token"]
    public = client.get(f"/v1/games/{game_id}/events", headers=auth(token)).json["events"]
    kinds = [e["type"] for e in public]
    assert kinds[-2:] == ["deal_committed", "dealt"] and "deal_revealed" not in kinds
    spectator = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert spectator[-2]["data"] == public[-2]["data"] and len(spectator[-2]["data"]["commitment"]) == 64


def test_export_import_into_another_redis_then_audit(store, finished, tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(audit.export_lines(store, finished)) + "\n")
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["talon_export"] == 1 and header["game_id"] == finished
    assert len(lines) == 1 + store.version(finished) == 1 + header["head"]["version"]
    other = RedisProcess().start()
    try:
        env = {"REDIS_URL": other.url}
        assert run_cli(["import", str(path)], env)[0] == 0
        code, out = run_cli(["audit", finished], env)
        assert code == 0 and "OK: the log verifies" in out
        code, out = run_cli(["audit", finished, "--json"], env)
        assert json.loads(out)["ok"]
        there = EventStore(redis.Redis.from_url(other.url))
        assert there.raw_entries(finished) == store.raw_entries(finished)
        assert there.meta(finished) == store.meta(finished)
        assert there.lobby("finished", 0, 10)[0] == [finished]
        # Importing twice is refused; so is a file whose chain is broken.
        assert run_cli(["import", str(path)], env)[0] == 2
        there.delete(finished)
        broken = lines[:5] + lines[6:]
        (tmp_path / "broken.jsonl").write_text("\n".join(broken))
        assert run_cli(["import", str(tmp_path / "broken.jsonl")], env)[0] == 2
        assert not there.exists(finished)
        assert run_cli(["import", "--force", str(tmp_path / "broken.jsonl")], env)[0] == 0
        code, out = run_cli(["audit", finished], env)
        assert code == 1 and "FIRST BROKEN EVENT: 5 (chain): event 5 is missing" in out
        assert run_cli(["audit", "nosuchgame"], env)[0] == 2
    finally:
        other.stop()


def run_cli(argv: list[str], env: dict) -> tuple[int, str]:
    """Runs `talon ...` in this process with these environment variables."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        with redirect_stdout(out):
            code = cli.main(argv)
    return code, out.getvalue()


def test_the_talon_command_runs_as_a_program(store, finished, redis_url):
    """`talon export` as its own process (the console script runs service.cli:main)."""
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'talon = "service.cli:main"' in pyproject
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "export", finished],
        cwd=REPO,
        env={"REDIS_URL": redis_url, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [orjson.dumps(e.to_dict()).decode() for e in store.raw_entries(finished)]


def test_the_ops_route(app, finished):
    client = app.test_client()
    report = client.get(f"/v1/ops/games/{finished}/audit", headers=auth(OPERATOR))
    assert report.status_code == 200 and report.json["ok"] and report.json["game_id"] == finished
    assert client.get(f"/v1/ops/games/{finished}/audit").status_code == 401
    assert client.get(f"/v1/ops/games/{finished}/audit", headers=auth("nope")).status_code == 403
    assert client.get("/v1/ops/games/unknown/audit", headers=auth(OPERATOR)).status_code == 404


def test_an_abandoned_match_reveals_its_deal_and_verifies(app, store):
    client = app.test_client()
    game_id = client.post(
        "/v1/games", json={"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json["game_id"]
    for name in ("Ana", "Ben"):
        client.post(f"/v1/games/{game_id}/players", json={"name": name})
    talon = app.extensions["talon_application"].matches
    assert talon.sweep(now_ms=int(9e12), idle_expiry_s=1) == 1
    events = store.read(game_id)
    assert [e.type for e in events[-2:]] == ["match_abandoned", "deal_revealed"]
    report = audit.audit_game(store, game_id)
    assert report["ok"], report["first_broken"]
    assert report["checks"]["replay"]["match_result"] == "abandoned"
    assert report["checks"]["commitments"] == {"ok": True, "deals": 1, "revealed": 1, "pending": 0}
