"""Every numeric argument of every function: -1 and 2**70 raise a ValueError naming the
argument and its range, a wrong type a TypeError naming it."""

import re

import pytest

import dakon
import dakon.openspiel as dos
import dakon.pettingzoo

P = "2,2/2,2 0/0 0"
START = dakon.Position.start(2, 2)


def search_calls(keyword):
    """`keyword=v` passed to every function that takes the search keywords."""
    return {
        f"solve({keyword})": lambda v: dakon.solve(P, **{keyword: v}),
        f"best({keyword})": lambda v: dakon.best(P, **{keyword: v}),
        f"solve_many({keyword})": lambda v: dakon.solve_many([P], progress=False, **{keyword: v}),
        f"best_many({keyword})": lambda v: dakon.best_many([P], progress=False, **{keyword: v}),
        f"certificates.write({keyword})": lambda v: dakon.certificates.write(P, "/nonexistent/x.dkc", **{keyword: v}),
    }


# (argument name as the message gives it, the call with the number v)
CALLS = {
    "Position(board)": ("board[1]", lambda v: dakon.Position([2, v, 2, 2])),
    "Position(stores[0])": ("stores[0]", lambda v: dakon.Position([1, 1], stores=(v, 0))),
    "Position(stores[1])": ("stores[1]", lambda v: dakon.Position([1, 1], stores=(0, v))),
    "Position(to_move)": ("to_move", lambda v: dakon.Position([1, 1], to_move=v)),
    "Position.start(holes)": ("holes", lambda v: dakon.Position.start(v)),
    "Position.start(seeds)": ("seeds", lambda v: dakon.Position.start(3, v)),
    "Position.parse(holes)": ("holes", lambda v: dakon.Position.parse("start", holes=v)),
    "Position.parse(seeds)": ("seeds", lambda v: dakon.Position.parse("start", seeds=v)),
    "Position.play(hole)": ("hole", lambda v: START.play(v)),
    **{name: (keyword, call) for keyword in ("node_limit", "threads", "tt_mb", "time_limit") for name, call in search_calls(keyword).items()},
    "certificates.write(small_seeds)": ("small_seeds", lambda v: dakon.certificates.write(P, "/nonexistent/x.dkc", small_seeds=v)),
    "tables.build(holes)": ("holes", lambda v: dakon.tables.build(v, 3, tables_dir="/nonexistent")),
    "tables.build(max_seeds)": ("max_seeds", lambda v: dakon.tables.build(3, v, tables_dir="/nonexistent")),
    "tables.build(threads)": ("threads", lambda v: dakon.tables.build(3, 3, tables_dir="/nonexistent", threads=v)),
    "hole_of_action(action)": ("action", lambda v: dakon.hole_of_action(START, v)),
    "observation(player)": ("player", lambda v: dakon.observation(START, player=v)),
    "observation_string(player)": ("player", lambda v: dakon.observation_string(START, player=v)),
    "python_dakon(holes)": ("holes", lambda v: dos.DakonGame({"holes": v})),
    "python_dakon(seeds)": ("seeds", lambda v: dos.DakonGame({"seeds": v})),
    "pettingzoo.env(holes)": ("holes", lambda v: dakon.pettingzoo.env(holes=v)),
    "pettingzoo.env(seeds)": ("seeds", lambda v: dakon.pettingzoo.env(seeds=v)),
}


@pytest.mark.parametrize("value", [-1, 2**70], ids=["-1", "2**70"])
@pytest.mark.parametrize("call", CALLS, ids=str)
def test_numbers_out_of_range_raise_value_error_naming_the_argument_and_range(call: str, value: int) -> None:
    name, function = CALLS[call]
    with pytest.raises(ValueError) as raised:
        function(value)
    message = str(raised.value)
    assert message.startswith(name) or f": {name}" in message, message
    assert re.search(r"expected (an integer from )?-?\d+(\.\d+)? to \d+|expected 1 or more", message), message
    assert str(value) in message, message


@pytest.mark.parametrize("call", [c for c in CALLS if not c.startswith(("python_dakon", "observation"))], ids=str)
def test_wrong_types_raise_type_error_naming_the_argument(call: str) -> None:
    name, function = CALLS[call]
    with pytest.raises(TypeError, match=re.escape(name.split("[")[0])):
        function("3")


def test_unknown_keywords_and_wrong_types_of_the_other_keywords() -> None:
    with pytest.raises(TypeError, match="solve\\(\\) got an unexpected keyword argument 'nodes'"):
        dakon.solve(P, nodes=5)
    with pytest.raises(TypeError, match="use_tables: expected a bool, found int"):
        dakon.best(P, use_tables=1)
    with pytest.raises(TypeError, match="rules: expected a str"):
        dakon.solve_many([P], rules=3, progress=False)
    with pytest.raises(TypeError, match="tables_dir: expected a path"):
        dakon.solve(P, tables_dir=3)
    with pytest.raises(ValueError, match="as_array: expected False, True"):
        dakon.solve_many([P], as_array="table")


def test_numpy_integers_are_integers() -> None:
    import numpy

    p = dakon.Position(numpy.array([1, 2, 3, 4], dtype=numpy.int64), stores=(numpy.uint8(3), 0), to_move=numpy.int32(1))
    assert str(p) == "1,2/3,4 0/3 1" and p.play(numpy.int64(1))[0].stores == (3, 1)
    assert dakon.solve(p, threads=numpy.int64(1), node_limit=numpy.uint64(10**6)).exact
