"""An integrator's TypeScript client: openapi-typescript's types of the committed openapi.yaml (made anew on
every run) and openapi-fetch, compiled by `tsc --strict` without an error, play one Sixty-Six match to
its end under node against the real service (tests/contract/ts/play.ts). Every answer the client got is
checked against the spec here, from the log it writes. The pinned tools come from tools/openapi
(scripts/openapi-tools)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import running_service
from tests.support.contract import SPEC_PATH, check_response

pytestmark = pytest.mark.slow
ROOT = SPEC_PATH.parent
SOURCES = Path(__file__).resolve().parent / "ts"


def run(command: list[str], cwd: Path, timeout: int = 300) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def compiled():
    """play.ts with the types generated from openapi.yaml, compiled; inside tools/openapi, where node
    finds openapi-fetch."""
    tools = Path(run([str(ROOT / "scripts" / "openapi-tools")], ROOT).strip())
    work = ROOT / "tools" / "openapi" / ".generated" / f"ts-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        for source in SOURCES.iterdir():
            shutil.copy(source, work / source.name)
        (work / "package.json").write_text('{"type": "module"}\n')
        # Request bodies' defaults are filled in by the server: with openapi-typescript's default
        # (--default-non-nullable), a property with a default would be required in a request too.
        run(
            [
                str(tools / "openapi-typescript"),
                str(SPEC_PATH),
                "--default-non-nullable",
                "false",
                "-o",
                str(work / "schema.d.ts"),
            ],
            work,
        )
        run([str(tools / "tsc"), "-p", str(work / "tsconfig.json")], work)  # strict: tsconfig.json
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_the_generated_typescript_client_plays_a_sixty_six_match_to_its_end(compiled):
    with running_service() as service:
        out = run(["node", str(compiled / "out" / "play.js"), service.base_url, str(compiled)], compiled)
    played = json.loads(out.strip().splitlines()[-1])
    print(
        f"typescript client: {played['game']} {played['game_id']}: {played['actions']} actions, "
        f"{played['polls']} long-polls, winner {played['winner']}, standing {played['standing']}"
    )
    assert played["game"] == "sixty-six" and played["winner"] and played["actions"] > 0
    answers = [json.loads(line) for line in (compiled / "responses.jsonl").read_text().splitlines()]
    assert len(answers) >= played["actions"] + played["polls"]
    for answer in answers:
        body = None if answer["body"] is None else answer["body"].encode()
        check_response(answer["method"], answer["path"], answer["status"], answer["content_type"], body)
