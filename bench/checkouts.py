"""An earlier commit's code beside this checkout's, for the benches that compare the two."""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import tests.support.processes as processes


@contextlib.contextmanager
def checkout_of(revision: str) -> Iterator[Path]:
    """A temporary git worktree of `revision` (detached HEAD), removed when the block ends."""
    repo = processes.REPO
    with tempfile.TemporaryDirectory(prefix="talon-base-") as tmp:
        worktree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(worktree), revision], cwd=repo, check=True)
        try:
            yield worktree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=repo, check=False)
