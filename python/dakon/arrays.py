"""Results of many positions as numpy arrays: what ``solve_many`` and ``best_many`` give
with ``as_array``.

``as_array="columns"`` gives a dict of arrays (one entry per field, ready for
``pandas.DataFrame``), ``as_array="structured"`` one numpy structured array with the same
fields, and ``as_array=True`` (or ``"values"``) only the values (float64, NaN where a limit
left bounds).

``solve_many``'s fields: ``position`` (notation), ``value`` (float64, NaN if not exact),
``lower``, ``upper`` (int32), ``exact`` (bool), ``best_move`` (int16 hole, -1 when the game is
over), ``best_move_proven`` (bool), ``nodes`` (int64).

``best_many``'s fields, one row per position, the per-move fields of shape ``(holes,)``
indexed by the mover's action number (``dakon.learning``; the widest board's ``holes``
when boards differ): ``position``, ``value`` (float64: the position's value, NaN unless the
moves' bounds fix it), ``lower``, ``upper`` (float64 per move, NaN for an illegal action),
``exact`` and ``legal`` (bool per move), ``best_move`` (int16 hole of the first move as
``best`` ranks them, -1 when the game is over), ``best_action`` (its action number, -1),
``proven_best`` (bool: the first move is proven best).

>>> import dakon
>>> columns = dakon.best_many(["2,2,2/2,2,2 0/0 0"], as_array="columns", progress=False)
>>> columns["lower"].tolist(), columns["best_action"].tolist(), columns["value"].tolist()
([[2.0, 0.0, 6.0]], [2], [6.0])
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy
import numpy.typing

from ._dakon import MoveValue, Position, Solution
from .learning import action_of_hole

__all__ = ["AS_ARRAY", "best_columns", "solution_columns", "structured"]

#: The values ``as_array`` takes besides False.
AS_ARRAY = (True, "values", "columns", "structured")

Columns = Dict[str, "numpy.typing.NDArray[Any]"]


def _check(as_array: Union[bool, str]) -> None:
    if as_array not in AS_ARRAY:
        raise ValueError(f"as_array: expected False, True, 'values', 'columns' or 'structured', found {as_array!r}")


def solution_columns(solutions: Sequence[Solution]) -> Columns:
    """The fields of ``solutions`` as a dict of arrays."""
    return {
        "position": numpy.array([str(s.position) for s in solutions], dtype=str),
        "value": numpy.array([math.nan if s.value is None else s.value for s in solutions], dtype=numpy.float64),
        "lower": numpy.array([s.lower for s in solutions], dtype=numpy.int32),
        "upper": numpy.array([s.upper for s in solutions], dtype=numpy.int32),
        "exact": numpy.array([s.exact for s in solutions], dtype=bool),
        "best_move": numpy.array([-1 if s.best_move is None else s.best_move for s in solutions], dtype=numpy.int16),
        "best_move_proven": numpy.array([s.best_move_proven for s in solutions], dtype=bool),
        "nodes": numpy.array([s.nodes for s in solutions], dtype=numpy.int64),
    }


def best_columns(positions: Sequence[Position], ranked: Sequence[List[MoveValue]]) -> Columns:
    """The moves of each position (as ``best`` ranks them) as a dict of arrays."""
    count, holes = len(positions), max((p.holes for p in positions), default=1)
    lower = numpy.full((count, holes), math.nan)
    upper = numpy.full((count, holes), math.nan)
    exact = numpy.zeros((count, holes), dtype=bool)
    best_move = numpy.full(count, -1, dtype=numpy.int16)
    best_action = numpy.full(count, -1, dtype=numpy.int16)
    proven_best = numpy.zeros(count, dtype=bool)
    value = numpy.full(count, math.nan)
    for i, (p, moves) in enumerate(zip(positions, ranked)):
        for m in moves:
            a = action_of_hole(p, m.hole)
            lower[i, a], upper[i, a], exact[i, a] = m.lower, m.upper, m.exact
        if moves:
            best_move[i], best_action[i], proven_best[i] = moves[0].hole, action_of_hole(p, moves[0].hole), moves[0].proven_best
            if moves[0].lower == max(m.upper for m in moves):
                value[i] = moves[0].lower
        elif p.is_over():
            value[i] = p.final_difference()
    return {
        "position": numpy.array([str(p) for p in positions], dtype=str),
        "value": value,
        "lower": lower,
        "upper": upper,
        "exact": exact,
        "legal": ~numpy.isnan(lower),
        "best_move": best_move,
        "best_action": best_action,
        "proven_best": proven_best,
    }


def structured(columns: Columns) -> "numpy.typing.NDArray[numpy.void]":
    """The columns as one numpy structured array (per-move fields as subarrays)."""
    count = len(columns["position"])
    dtype = numpy.dtype([(name, a.dtype, a.shape[1:]) for name, a in columns.items()])
    out = numpy.zeros(count, dtype=dtype)
    for name, a in columns.items():
        out[name] = a
    return out


def convert(columns: Columns, as_array: Union[bool, str]) -> Union[Columns, "numpy.typing.NDArray[Any]"]:
    """What ``as_array`` asks for, from the columns."""
    _check(as_array)
    if as_array == "columns":
        return columns
    if as_array == "structured":
        return structured(columns)
    return columns["value"]


def check(as_array: Optional[Union[bool, str]]) -> None:
    """Raises ValueError for an ``as_array`` that is none of False, True, ``values``,
    ``columns``, ``structured``, before any search."""
    if as_array is not False and as_array is not None:
        _check(as_array)
