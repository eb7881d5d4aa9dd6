"""bench.instructions counts what its driver runs: the driver must play the same moves every time (the
count of one run is compared with another's) and play them through the service, every answer a success.
Its valgrind side is not run here (valgrind is not among what `make test` installs)."""

from __future__ import annotations

import os
import subprocess
import sys

from bench.instructions import REPO, WARM_UP
from tests.support.redis_proc import RedisProcess


def test_the_driver_plays_the_same_seeded_moves_every_time():
    server = RedisProcess().start()
    try:
        runs = [
            subprocess.run(
                [sys.executable, "bench/instructions.py", "--drive", "30", "--redis", server.url],
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
                capture_output=True,
                text=True,
                check=True,
                timeout=120,
            ).stdout
            for _ in range(2)
        ]
    finally:
        server.stop()
    assert runs[0] == runs[1]
    assert runs[0].startswith(f"{WARM_UP + 30} moves in ")
