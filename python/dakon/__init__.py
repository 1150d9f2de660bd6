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

Submodules: ``dakon.tables`` (build, probe), ``dakon.certificates`` (write, check) and
``dakon.openspiel`` (OpenSpiel's ``mancala`` states as positions, and Dakon as a pyspiel game).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, List, Optional, Union

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
    best,
    solve,
)
from ._dakon import solve_many as _solve_many
from . import certificates, tables

__all__ = [
    "RULES",
    "CertificateError",
    "DakonError",
    "Interrupted",
    "MoveValue",
    "Played",
    "Position",
    "Solution",
    "TableError",
    "best",
    "certificates",
    "solve",
    "solve_many",
    "tables",
]


def solve_many(
    positions: Iterable[Union[Position, str]],
    rules: Optional[str] = None,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    threads: Optional[int] = None,
    tables_dir: Optional[str] = None,
    use_tables: bool = True,
    tt_mb: Optional[int] = None,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
    as_array: bool = False,
) -> Any:
    """Solves many positions on all cores (``threads``), one position per thread, as ``dakon
    batch`` does: the ``Solution`` of each, in input order, or with ``as_array`` a numpy array
    of their values (float64, NaN where a limit left only bounds).

    ``progress``: True draws a tqdm bar (when tqdm is installed), None draws one for more
    than 100 positions, False none; or a callable ``progress(done, total)``. The other
    arguments are those of ``solve``; ``time_limit`` and ``node_limit`` apply to each position.

    Raises ValueError naming the index of the first malformed position, dakon.TableError for a
    damaged table, dakon.Interrupted (a KeyboardInterrupt) on Ctrl-C, whose ``partial`` holds
    the solutions so far (None for positions not started).

    >>> import dakon
    >>> [s.value for s in dakon.solve_many(["2,2,2/2,2,2 0/0 0"], rules="kalah", progress=False)]
    [4]
    """
    positions = list(positions)
    callback, close = _progress(progress, len(positions))
    try:
        solutions = _solve_many(
            positions,
            rules=rules,
            time_limit=time_limit,
            node_limit=node_limit,
            threads=threads,
            tables_dir=tables_dir,
            use_tables=use_tables,
            tt_mb=tt_mb,
            progress=callback,
        )
    finally:
        close()
    if not as_array:
        return solutions
    import numpy

    return numpy.array([float("nan") if s.value is None else float(s.value) for s in solutions], dtype=numpy.float64)


def _progress(
    progress: Union[bool, Callable[[int, int], Any], None], total: int
) -> "tuple[Optional[Callable[[int, int], Any]], Callable[[], None]]":
    """The progress callback ``solve_many`` passes on, and what closes it."""
    if callable(progress):
        return progress, lambda: None
    if progress is False or (progress is None and total <= 100):
        return None, lambda: None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, unit="position", desc="solve_many")

    def update(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    return update, bar.close


