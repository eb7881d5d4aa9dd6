"""The `talon` command for operators (REDIS_URL and TALON_KEY_PREFIX from the environment):

talon audit GAME_ID [--json]          exit 0: the log verifies; 1: it does not; 2: no such game
talon export GAME_ID > game.jsonl     the game's full log as JSON Lines (a header, then one entry a line)
talon import game.jsonl [--force]     into this Redis (refuses an existing id, or a broken chain
                                      unless --force); `-` reads standard input
talon rebuild                         recompute ratings, histories and leaderboards from the event
                                      logs alone (app/projections.py); readers keep the old ones
                                      until the new ones have caught up
talon abandon GAME_ID                 end a waiting or running match now (match_abandoned, by
                                      "operator"); exit 1: it is finished already; 2: no such game
"""

from __future__ import annotations

import argparse
import sys
import time

import orjson
import redis

from app import audit, bootstrap
from app.matches import UnknownGame
from app.settings import Settings
from events.store import EventStore, GameExists
from games.errors import NotActive


def _store() -> EventStore:
    """The event store: EVENTS_REDIS_URL's (a Redis Cluster, say) when it is set, else REDIS_URL's."""
    return bootstrap.build(Settings.from_env()).store


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="talon", description="Talon operations: audit, export, import, rebuild, abandon"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    audit_cmd = commands.add_parser("audit", help="verify one game's log (chain, commitments, replay, cards)")
    audit_cmd.add_argument("game_id")
    audit_cmd.add_argument("--json", action="store_true", help="print the whole report as JSON")
    export_cmd = commands.add_parser("export", help="print one game's full log as JSON Lines")
    export_cmd.add_argument("game_id")
    import_cmd = commands.add_parser("import", help="load an exported game into this Redis")
    import_cmd.add_argument("file", help="the .jsonl file, or - for standard input")
    import_cmd.add_argument("--force", action="store_true", help="import even if its chain is broken")
    commands.add_parser("rebuild", help="recompute ratings, histories and leaderboards from the event logs")
    abandon_cmd = commands.add_parser("abandon", help="end a waiting or running match now")
    abandon_cmd.add_argument("game_id")
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except (audit.NotFound, UnknownGame) as exc:
        print(f"talon: no game {exc.args[0]!r} in this Redis", file=sys.stderr)
        return 2
    except (audit.BadExport, GameExists, ValueError) as exc:
        print(f"talon: {exc}", file=sys.stderr)
        return 2
    except redis.RedisError as exc:
        print(f"talon: Redis is unreachable: {exc}", file=sys.stderr)
        return 3


def _audit(args) -> int:
    report = audit.audit_game(_store(), args.game_id)
    if args.json:
        print(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
    else:
        print(summary(report))
    return 0 if report["ok"] else 1


def summary(report: dict) -> str:
    checks = report["checks"]
    lines = [
        f"game {report['game_id']}: {report['events']} events, head {report['head']['version']} "
        f"{(report['head']['hash'] or '')[:12]}  ({report['elapsed_ms']} ms)",
        f"  chain         {'ok' if checks['chain']['ok'] else 'BROKEN'}",
        f"  replay        {'ok' if checks['replay']['ok'] else 'BROKEN'}: "
        f"{checks['replay']['events_reproduced']} events reproduced, {checks['replay']['rounds_scored']} rounds "
        f"scored, match result {checks['replay']['match_result']}",
        f"  commitments   {'ok' if checks['commitments']['ok'] else 'BROKEN'}: "
        f"{checks['commitments']['deals']} deals, {checks['commitments']['revealed']} revealed, "
        f"{checks['commitments']['pending']} in play",
        f"  conservation  {'ok' if checks['conservation']['ok'] else 'BROKEN'}: {checks['conservation']['deals']} deals",
    ]
    if report["first_broken"]:
        first = report["first_broken"]
        lines.append(f"FIRST BROKEN EVENT: {first['version']} ({first['check']}): {first['detail']}")
        lines += [f"  also: {f['version']} ({f['check']}): {f['detail']}" for f in report["findings"][1:10]]
    else:
        lines.append("OK: the log verifies")
    return "\n".join(lines)


def _export(args) -> int:
    out = sys.stdout
    for line in audit.export_lines(_store(), args.game_id):
        out.write(line + "\n")
    out.flush()
    return 0


def _import(args) -> int:
    if args.file == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(args.file, encoding="utf-8") as f:
            lines = f.read().splitlines()
    game_id, count = audit.import_lines(_store(), lines, force=args.force)
    print(f"imported game {game_id}: {count} events")
    return 0


def _rebuild(args) -> int:
    app = bootstrap.build(Settings.from_env())
    recorded = app.projections.rebuild()
    print(f"rebuilt the projections: {recorded} matches recorded")
    # The rebuild folds the global feed, which keeps about its last 1,000,000 events: a match that ended
    # before the feed's start is missing (the incremental projection recorded it when it ended).
    _, finished = app.store.lobby("finished", 0, 1)
    if finished > recorded:
        print(
            f"talon: warning: {finished} finished matches in the lobby but {recorded} match ends in the "
            f"global feed: the feed was trimmed past the oldest ones, which the rebuild could not read",
            file=sys.stderr,
        )
    return 0


def _abandon(args) -> int:
    matches = bootstrap.build(Settings.from_env()).matches
    try:
        table = matches.abandon(args.game_id, int(time.time() * 1000))
    except NotActive as exc:
        print(f"talon: game {args.game_id}: {exc.detail}", file=sys.stderr)
        return 1
    print(f"abandoned game {table.game_id} at version {table.version}")
    return 0


COMMANDS = {"audit": _audit, "export": _export, "import": _import, "abandon": _abandon, "rebuild": _rebuild}


if __name__ == "__main__":
    sys.exit(main())
