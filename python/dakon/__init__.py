"""dakon: Dakon and Kalah solved exactly, from Python.

Perfect-play values (the final store difference, player to move minus opponent), best moves,
every move's value, many positions at once, endgame tables and proof certificates, by the
Rust solver of the ``dakon`` command line, with its rule names and its messages.

>>> import dakon
>>> p = dakon.Position.start(3, 2)
>>> dakon.solve(p).value
6
>>> [(m.hole, m.value) for m in dakon.best(p)]
[(5, 6), (3, 2), (4, 0)]
>>> dakon.solve_many(["2,2,2/2,2,2 0/0 0", "1,0/0,2 0/0 0"], progress=False, as_array=True)
array([ 6., -1.])

Submodules: ``dakon.tables`` (build, probe), ``dakon.certificates`` (write, check),
``dakon.openspiel`` (OpenSpiel's ``mancala`` states as positions, and Dakon as a pyspiel game)
and ``dakon.pettingzoo`` (Dakon as a PettingZoo AEC environment). ``dakon.learning`` and
its functions, re-exported here, number the moves from the mover and describe a position as
a learner sees it.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Literal, Optional, Tuple, TypeVar, Union, overload

import numpy
import numpy.typing

from ._dakon import (
    RULES,
    CertificateError,
    DakonError,
    Interrupted,
    MoveValue,
    Played,
    Position,
    Solution,
    TableError,
    __version__,
    best,
    solve,
)
from ._dakon import best_many as _best_many
from ._dakon import solve_many as _solve_many
from . import arrays, certificates, tables
from .learning import action_mask, action_of_hole, hole_of_action, observation, observation_size, observation_string
from .search_options import SearchOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "RULES",
    "CertificateError",
    "DakonError",
    "Interrupted",
    "MoveValue",
    "Played",
    "Position",
    "SearchOptions",
    "Solution",
    "TableError",
    "__version__",
    "action_mask",
    "action_of_hole",
    "best",
    "best_many",
    "certificates",
    "hole_of_action",
    "observation",
    "observation_size",
    "observation_string",
    "solve",
    "solve_many",
    "tables",
]

PositionLike = Union[Position, str]
Progress = Union[bool, Callable[[int, int], Any], None]
Columns = Dict[str, "numpy.typing.NDArray[Any]"]
_Result = TypeVar("_Result")


@overload
def solve_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal[False] = False, **search: Unpack[SearchOptions]
) -> List[Solution]: ...
@overload
def solve_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal[True, "values"], **search: Unpack[SearchOptions]
) -> "numpy.typing.NDArray[numpy.float64]": ...
@overload
def solve_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal["columns"], **search: Unpack[SearchOptions]
) -> Columns: ...
@overload
def solve_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal["structured"], **search: Unpack[SearchOptions]
) -> "numpy.typing.NDArray[numpy.void]": ...
def solve_many(
    positions: Iterable[PositionLike],
    *,
    progress: Progress = None,
    as_array: Union[bool, str] = False,
    **search: Unpack[SearchOptions],
) -> Any:
    """Solves many positions, ``threads`` at a time (default all cores), one position per
    thread, as ``dakon batch`` does: the ``Solution`` of each, in input order, or with
    ``as_array`` numpy arrays (``dakon.arrays``: True the values, ``"columns"`` a dict of
    arrays, ``"structured"`` a structured array, with bounds, exactness and best move).

    ``progress``: True draws a tqdm bar (without tqdm it warns and draws none), None draws one
    for more than 100 positions when tqdm is installed, False none; or a callable
    ``progress(done, total)``. The search keywords (``SearchOptions``) are those of
    ``solve``; ``time_limit`` and ``node_limit`` apply to each position.

    Positions of one board size share one transposition table: under a limit, a run with
    more than one thread may prove other bounds from one run to the next (never
    contradicting ones); ``threads=1`` is reproducible.

    Raises ValueError naming the index of the first malformed position, dakon.TableError for a
    damaged table, dakon.Interrupted (a KeyboardInterrupt) on Ctrl-C, whose ``partial`` holds
    the solutions so far (None for positions not started).

    >>> import dakon
    >>> [s.value for s in dakon.solve_many(["2,2,2/2,2,2 0/0 0"], rules="kalah", progress=False)]
    [4]
    """
    arrays.check(as_array)
    solutions = _with_progress(_solve_many, "solve_many", list(positions), progress, search)
    if as_array is False:
        return solutions
    return arrays.convert(arrays.solution_columns(solutions), as_array)


@overload
def best_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal[False] = False, **search: Unpack[SearchOptions]
) -> List[List[MoveValue]]: ...
@overload
def best_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal[True, "values"], **search: Unpack[SearchOptions]
) -> "numpy.typing.NDArray[numpy.float64]": ...
@overload
def best_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal["columns"], **search: Unpack[SearchOptions]
) -> Columns: ...
@overload
def best_many(
    positions: Iterable[PositionLike], *, progress: Progress = None, as_array: Literal["structured"], **search: Unpack[SearchOptions]
) -> "numpy.typing.NDArray[numpy.void]": ...
def best_many(
    positions: Iterable[PositionLike],
    *,
    progress: Progress = None,
    as_array: Union[bool, str] = False,
    **search: Unpack[SearchOptions],
) -> Any:
    """Every legal move's value or bounds for many positions (policy labels in bulk): for
    each position the list ``best`` gives, ranked as ``best`` ranks them, ``threads``
    positions at a time (default all cores), each on one thread, the GIL released; or with
    ``as_array`` numpy arrays (``dakon.arrays``: per-move bounds, exactness and the legal
    mask by the mover's action number, the best move and whether it is proven).

    Takes the arguments of ``solve_many``, which says what sharing a table means under limits.

    >>> import dakon
    >>> [[(m.hole, m.value) for m in moves] for moves in dakon.best_many(["2,2/2,2 0/0 0"], progress=False)]
    [[(2, 8), (3, -6)]]
    """
    arrays.check(as_array)
    positions = list(positions)
    ranked = _with_progress(_best_many, "best_many", positions, progress, search)
    if as_array is False:
        return ranked
    # Only the board's size and the mover matter here, which the rules do not change.
    resolved = [p if isinstance(p, Position) else Position.parse(p) for p in positions]
    return arrays.convert(arrays.best_columns(resolved, ranked), as_array)


def _with_progress(native: Callable[..., _Result], name: str, positions: List[PositionLike], progress: Progress, search: SearchOptions) -> _Result:
    """``native(positions, progress=..., **search)`` with the progress ``progress`` asks for."""
    callback, close = _progress(progress, len(positions), name)
    try:
        return native(positions, progress=callback, **search)
    finally:
        close()


def _progress(progress: Progress, total: int, name: str) -> Tuple[Optional[Callable[[int, int], Any]], Callable[[], None]]:
    """The progress callback passed on, and what closes it."""
    if callable(progress):
        return progress, lambda: None
    if progress is False or (progress is None and total <= 100):
        return None, lambda: None
    try:
        tqdm = importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        if progress is True:
            warnings.warn(f"{name}(progress=True) draws its bar with tqdm, which is not installed (pip install tqdm): no progress shown", stacklevel=3)
        return None, lambda: None
    bar = tqdm(total=total, unit="position", desc=name)

    def update(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    return update, bar.close
