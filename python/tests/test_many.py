"""best_many and the arrays of many results; best's ranking under limits; the smaller points
(reproducibility, progress without tqdm, the board's dtype, the node limit's granularity,
`Position.parse("start")`, `__version__`, an interrupted table build's message)."""

import importlib.metadata
import math
import random
import subprocess
import sys
import warnings

import numpy
import pytest

import dakon
from conftest import random_positions


@pytest.mark.parametrize("rules", dakon.RULES)
def test_best_many_equals_best(rules: str) -> None:
    rng = random.Random(31)
    positions = random_positions(rng, rules, 60)
    many = dakon.best_many(positions, threads=2, progress=False)
    assert many == [dakon.best(p, threads=1) for p in positions]
    columns = dakon.best_many([str(p) for p in positions], rules=rules, threads=2, progress=False, as_array="columns")
    structured = dakon.best_many(positions, threads=2, progress=False, as_array="structured")
    values = dakon.best_many(positions, threads=2, progress=False, as_array=True)
    solved = dakon.solve_many(positions, threads=2, progress=False)
    holes = max(p.holes for p in positions)
    assert columns["lower"].shape == (len(positions), holes) and structured["lower"].shape == (len(positions), holes)
    for i, (p, moves, s) in enumerate(zip(positions, many, solved)):
        assert columns["position"][i] == str(p) == structured["position"][i]
        assert columns["value"][i] == values[i] == s.value == structured["value"][i]
        assert list(columns["legal"][i][: p.holes]) == [bool(x) for x in dakon.action_mask(p)] and not columns["legal"][i][p.holes :].any()
        for m in moves:
            a = dakon.action_of_hole(p, m.hole)
            assert columns["lower"][i, a] == m.lower == m.value and columns["exact"][i, a]
        if moves:
            assert columns["best_move"][i] == moves[0].hole and dakon.hole_of_action(p, columns["best_action"][i]) == moves[0].hole
            assert columns["proven_best"][i] and moves[0].value == s.value
        else:
            assert columns["best_move"][i] == -1 == columns["best_action"][i]


def test_solve_many_arrays() -> None:
    positions = ["2,2,2/2,2,2 0/0 0", "1,0/0,2 0/0 0", dakon.Position.start(7, 4)]
    columns = dakon.solve_many(positions, node_limit=3000, threads=1, progress=False, as_array="columns")
    structured = dakon.solve_many(positions, node_limit=3000, threads=1, progress=False, as_array="structured")
    assert columns["value"][:2].tolist() == [6.0, -1.0] and math.isnan(columns["value"][2])
    assert columns["exact"].tolist() == [True, True, False] and columns["lower"][2] < columns["upper"][2]
    assert structured.dtype.names == tuple(columns) and structured["best_move"].tolist() == columns["best_move"].tolist()


def test_best_ranks_by_what_is_proven_and_says_whether_the_first_is_best() -> None:
    """The issue's position: under a limit, an exact +6 ranks first while another move's
    bounds reach +24; the first is then not proven best."""
    moves = dakon.best("1,1,0,7,0,2,0/0,0,2,7,2,1,1 37/37 0", node_limit=20000, threads=1)
    first = moves[0]
    assert [m.lower for m in moves] == sorted((m.lower for m in moves), reverse=True)
    assert not first.proven_best and any(m.upper > first.lower for m in moves[1:])
    exact = dakon.best("1,1,0,7,0,2,0/0,0,2,7,2,1,1 37/37 0", threads=2)
    assert exact[0].proven_best and exact[0].value == max(m.value for m in exact)
    assert all(m.exact for m in exact) and exact[0].hole in [m.hole for m in moves if m.upper >= first.lower]
    # Each move proven best is exactly one whose lower bound reaches every other's upper.
    rng = random.Random(32)
    for p in random_positions(rng, "dakon", 40, max_holes=7, max_seeds=7, max_total=98):
        cut = dakon.best(p, node_limit=3000, threads=1)
        for m in cut:
            assert m.proven_best == all(m.lower >= o.upper for o in cut if o is not m)


def test_under_a_limit_one_thread_is_reproducible() -> None:
    rng = random.Random(33)
    positions = random_positions(rng, "dakon", 40, max_holes=7, max_seeds=7, max_total=98)
    runs = [[(s.lower, s.upper) for s in dakon.solve_many(positions, node_limit=5000, threads=1, progress=False)] for _ in range(2)]
    assert runs[0] == runs[1]
    first, second = (dakon.best_many(positions, node_limit=5000, threads=1, progress=False) for _ in range(2))
    assert first == second


def test_the_node_limit_is_looked_at_every_4096_nodes_of_a_thread() -> None:
    s = dakon.solve(dakon.Position.start(7, 7), node_limit=100, threads=1, use_tables=False)
    assert 100 <= s.nodes <= 100 + 4096 and not s.exact


def test_progress_true_without_tqdm_warns_and_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.warns(UserWarning, match="tqdm, which is not installed"):
        assert dakon.solve_many(["2,2/2,2 0/0 0"], progress=True)[0].value == 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        dakon.best_many(["2,2/2,2 0/0 0"] * 101)


def test_board_differences_do_not_wrap() -> None:
    p = dakon.Position.parse("0,9/1,0 0/0 0")
    assert p.board.dtype == numpy.int16 and (p.board[:2] - p.board[2:]).tolist() == [-1, 9]


def test_parse_start_and_version() -> None:
    assert dakon.Position.parse("start") == dakon.Position.start() == dakon.Position.start(7, 7)
    assert dakon.Position.parse("start", rules="kalah", holes=6, seeds=4) == dakon.Position.start(6, 4, rules="kalah")
    assert dakon.__version__ == importlib.metadata.version("dakon")


BUILD = """
import os, signal, sys, threading
import dakon
signal.signal(signal.SIGINT, signal.default_int_handler)
threading.Timer(float(sys.argv[2]), os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    dakon.tables.build(holes=6, max_seeds=40, tables_dir=sys.argv[1], threads=1)
    print("not interrupted")
except dakon.Interrupted as e:
    print(e)
    print(len(e.partial))
"""


def test_an_interrupted_build_names_the_tiers_it_kept(tmp_path) -> None:
    out = subprocess.run([sys.executable, "-c", BUILD, str(tmp_path), "1.5"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    message, count = out.stdout.strip().splitlines()
    kept = int(count)
    on_disk = sorted(int(f.stem.rsplit("k", 1)[1]) for f in tmp_path.glob("*.dkt"))
    assert on_disk == list(range(kept)) and kept >= 2, (message, on_disk)
    assert f"interrupted while building tier {kept}; tiers 0 to {kept - 1} are kept in {tmp_path}" in message
