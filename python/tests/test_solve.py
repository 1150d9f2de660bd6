"""solve, best and solve_many against the command line, limits, Ctrl-C and bad input."""

import json
import math
import random
import subprocess
import sys

import numpy
import pytest

import dakon
from conftest import cli_json_lines, random_positions


@pytest.mark.parametrize("rules", ["dakon", "kalah", "kalah-empty-capture"])
def test_values_equal_the_command_lines(cli, rules: str) -> None:
    """300 random positions of random games per rule set: `solve` and `solve_many` give the
    values of `dakon batch`, and the best move and line reach that value."""
    rng = random.Random(3)
    positions = random_positions(rng, rules, 300)
    records = cli_json_lines(cli, "batch", "-", "--rules", rules, "--threads", "2", stdin="\n".join(map(str, positions)))
    many = dakon.solve_many(positions, threads=2, progress=False)
    array = dakon.solve_many([str(p) for p in positions], rules=rules, threads=2, progress=False, as_array=True)
    for p, record, from_many, value in zip(positions, records, many, array):
        assert record["exact"] and record["position"] == str(p)
        one = dakon.solve(p, threads=1, tt_mb=16)
        assert (one.value, one.exact, one.lower, one.upper) == (record["value"], True, record["value"], record["value"])
        assert from_many.value == record["value"] and value == record["value"] and from_many.rules == rules
        assert one.result == ("win" if one.value > 0 else "draw" if one.value == 0 else "loss")
        # The principal variation is a legal line to the end whose final difference is the value.
        q = p
        for hole in one.pv:
            q, _ = q.play(hole)
        assert q.is_over()
        assert (q.final_difference() if q.to_move == p.to_move else -q.final_difference()) == one.value
        assert one.best_move == (one.pv[0] if one.pv else None)
        assert one.best_move_proven == (one.best_move is not None)


@pytest.mark.parametrize("rules", ["dakon", "kalah", "kalah-empty-capture"])
def test_every_moves_value_equals_the_command_lines(cli, rules: str) -> None:
    rng = random.Random(4)
    for p in random_positions(rng, rules, 25):
        moves = dakon.best(p, threads=2)
        [expected] = cli_json_lines(cli, "best", str(p), "--rules", rules, "--json")
        assert [(m.hole, m.value, m.exact) for m in moves] == [(m["hole"], m["value"], m["exact"]) for m in expected["moves"]]
        if moves:
            assert moves[0].value == dakon.solve(p).value


def test_limits_give_proven_bounds() -> None:
    start = dakon.Position.start(7, 4)
    cut = dakon.solve(start, node_limit=2000, threads=1)
    assert not cut.exact and cut.value is None and cut.result is None
    exact = dakon.solve(start, threads=2)
    assert exact.exact and cut.lower <= exact.value <= cut.upper
    # 50 nodes prove no move: the move given is a guess, and says so.
    guess = dakon.solve(dakon.Position.start(6, 6), node_limit=50, threads=1)
    assert guess.best_move is not None and not guess.best_move_proven
    cut_many = dakon.solve_many([start] * 3, node_limit=2000, threads=2, progress=False, as_array=True)
    assert all(math.isnan(v) for v in cut_many)
    moves = dakon.best(start, node_limit=500, threads=1)
    assert any(not m.exact for m in moves)
    assert all(m.lower <= m.upper for m in moves)


def test_progress_reaches_the_total() -> None:
    seen = []
    positions = [dakon.Position.start(h, s) for h in range(1, 6) for s in range(1, 5)]
    dakon.solve_many(positions, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (len(positions), len(positions))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_bad_arguments_raise_value_error() -> None:
    with pytest.raises(ValueError, match="threads: expected an integer from 1 to 1024, found 0"):
        dakon.solve("2,2/2,2 0/0 0", threads=0)
    with pytest.raises(ValueError, match="time_limit: expected 0 to 1000000000 seconds, found -1"):
        dakon.solve("2,2/2,2 0/0 0", time_limit=-1)
    with pytest.raises(ValueError, match="tt_mb"):
        dakon.solve("2,2/2,2 0/0 0", tt_mb=0)
    with pytest.raises(ValueError, match="unknown rules"):
        dakon.best("2,2/2,2 0/0 0", rules="oware")
    with pytest.raises(ValueError, match=r"positions\[1\]: invalid position '1,2/3 0/0 0'"):
        dakon.solve_many(["2,2/2,2 0/0 0", "1,2/3 0/0 0"], progress=False)


# Each Ctrl-C test runs in a fresh interpreter with Python's own SIGINT handler: a process
# started in the background (nohup, `cmd &` in a script) inherits SIGINT ignored, and Python
# then leaves it ignored.
CTRL_C = """
import json, os, signal, sys, threading
import dakon
signal.signal(signal.SIGINT, signal.default_int_handler)
kalah = dakon.Position.start(6, 4, rules="kalah")  # about 150 M nodes (+8): minutes of search
threading.Timer(float(sys.argv[2]), os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    if sys.argv[1] == "solve":
        dakon.solve(kalah, threads=1, use_tables=False)
    else:
        dakon.solve_many([dakon.Position.start(2, 2)] * 4 + [kalah] * 4, threads=1, progress=False)
    print(json.dumps("not interrupted"))
except dakon.Interrupted as e:
    assert isinstance(e, KeyboardInterrupt)
    partial = e.partial if isinstance(e.partial, list) else [e.partial]
    print(json.dumps([None if s is None else [s.value, s.exact, s.lower, s.upper] for s in partial]))
"""


def interrupted(kind: str, seconds: float):
    out = subprocess.run([sys.executable, "-c", CTRL_C, kind, str(seconds)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_ctrl_c_stops_a_solve_with_its_bounds() -> None:
    [(value, exact, lower, upper)] = interrupted("solve", 0.3)
    assert value is None and not exact and lower <= 8 <= upper


def test_ctrl_c_stops_solve_many_keeping_the_finished_positions() -> None:
    partial = interrupted("many", 0.5)
    assert len(partial) == 8
    assert [s[0] for s in partial[:4]] == [dakon.solve(dakon.Position.start(2, 2)).value] * 4
    assert partial[-1] is None


def test_solution_repr_and_types() -> None:
    s = dakon.solve("2,2,2/2,2,2 0/0 0")
    assert repr(s).startswith("Solution(position='2,2,2/2,2,2 0/0 0', rules='dakon', value=6, exact=True")
    assert isinstance(dakon.best(s.position)[0], dakon.MoveValue)
    assert s.position == dakon.Position.parse("2,2,2/2,2,2 0/0 0") and s.position.board.tolist() == [2] * 6
