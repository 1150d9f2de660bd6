"""Results that travel: every result type pickles, compares and hashes by value, and turns
into a dict; `multiprocessing` and `copy` take them."""

import copy
import json
import multiprocessing
import pickle

import pytest

import dakon

POSITIONS = ["2,2,2/2,2,2 0/0 0", "1,0,3/2,0,1 4/2 1", "0,0/0,1 3/4 0"]


def results():
    """One of each result type, exact and cut short."""
    p = dakon.Position.parse(POSITIONS[0])
    cut = dakon.solve(dakon.Position.start(7, 4), node_limit=2000, threads=1)
    assert not cut.exact
    played = [played for hole in p.legal_moves() for _, played in [p.play(hole)]]
    captured = dakon.Position.parse("1,0,3/2,0,1 4/2 1").play(2)[1]
    return [p, dakon.solve(p, threads=1), cut, *dakon.best(p), *dakon.best(dakon.Position.start(7, 4), node_limit=500, threads=1), *played, captured]


@pytest.mark.parametrize("result", results(), ids=repr)
def test_pickle_copy_equality_hash_and_dict(result) -> None:
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(result, protocol=protocol))
        assert again == result and hash(again) == hash(result) and type(again) is type(result)
        assert repr(again) == repr(result)
    assert copy.deepcopy(result) == result and copy.copy(result) == result
    if not isinstance(result, dakon.Position):
        d = result.to_dict()
        assert json.loads(json.dumps(d)) == d
        for key, value in d.items():
            shown = getattr(result, key)
            assert (str(shown) if isinstance(shown, dakon.Position) else shown) == value, key


def test_equal_by_value_not_by_identity() -> None:
    p = dakon.Position.parse(POSITIONS[0])
    a, b = dakon.solve(p, threads=1), dakon.solve(POSITIONS[0], threads=1)
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != dakon.solve(p, threads=1, rules="kalah")
    assert dakon.best(p) == dakon.best(p)
    assert p.play(3) == p.play(3) and p.play(3) != p.play(4)
    assert dakon.MoveValue(5, 6, 6, proven_best=True) == dakon.best(p)[0]
    assert a == dakon.Solution(p, a.lower, a.upper, a.best_move, a.best_move_proven, a.pv)


def test_solution_position_is_a_position() -> None:
    s = dakon.solve(POSITIONS[1], rules="kalah")
    assert isinstance(s.position, dakon.Position) and s.position == dakon.Position.parse(POSITIONS[1], rules="kalah")
    assert s.rules == "kalah" and s.to_dict()["position"] == POSITIONS[1]


def test_constructors_refuse_inverted_bounds() -> None:
    with pytest.raises(ValueError, match="lower 3 exceeds upper 1"):
        dakon.MoveValue(0, 3, 1)
    with pytest.raises(ValueError, match="capture: expected None or one of"):
        dakon.Played(0, False, False, 0, "sweep", 0, None, None)


def test_multiprocessing_pool_maps_solve() -> None:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        solved = pool.map(dakon.solve, POSITIONS)
        ranked = pool.map(dakon.best, POSITIONS)
    assert [(s.value, s.position) for s in solved] == [(dakon.solve(p).value, dakon.Position.parse(p)) for p in POSITIONS]
    assert ranked == [dakon.best(p) for p in POSITIONS]
