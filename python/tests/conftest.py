"""Shared helpers of the package's tests: the `dakon` command line to compare with, and
random positions of random games."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import pytest

import dakon

REPO = Path(__file__).resolve().parents[2]


def dakon_binary() -> Path:
    """The command line: `$DAKON_BIN`, else the workspace's ci or release build."""
    if "DAKON_BIN" in os.environ:
        return Path(os.environ["DAKON_BIN"])
    for profile in ("ci", "release"):
        candidate = REPO / "target" / profile / "dakon"
        if candidate.exists():
            return candidate
    raise RuntimeError("no dakon binary: set DAKON_BIN or run `cargo build --release` first")


@pytest.fixture(scope="session")
def cli(tmp_path_factory: pytest.TempPathFactory):
    """Runs `dakon ARGS` with an empty tables directory: the process's result."""
    binary = dakon_binary()
    no_tables = tmp_path_factory.mktemp("no-tables")

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
        env = dict(os.environ, DAKON_TABLES=str(no_tables))
        return subprocess.run([str(binary), *args], input=stdin, capture_output=True, text=True, env=env)

    return run


@pytest.fixture(autouse=True)
def no_default_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's default tables directory is an empty one, so tables a user built never
    change what a test sees."""
    empty = tmp_path / "no-tables"
    empty.mkdir()
    monkeypatch.setenv("DAKON_TABLES", str(empty))


def cli_json_lines(run, *args: str, stdin: str = "") -> List[Dict[str, Any]]:
    out = run(*args, stdin=stdin)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def random_positions(
    rng: random.Random, rules: str, count: int, max_holes: int = 6, max_seeds: int = 4, max_total: int = 24
) -> List[dakon.Position]:
    """`count` positions met in random games of random starts under `rules` (at most
    `max_total` seeds in all, so that each solves in milliseconds), finished games included."""
    found = []
    while len(found) < count:
        holes, seeds = rng.randint(1, max_holes), rng.randint(1, max_seeds)
        if 2 * holes * seeds > max_total:
            continue
        position = dakon.Position.start(holes, seeds, rules=rules)
        for _ in range(rng.randint(0, 40)):
            moves = position.legal_moves()
            if not moves:
                break
            position, _ = position.play(rng.choice(moves))
        found.append(position)
    return found
