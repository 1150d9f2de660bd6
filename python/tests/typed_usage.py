"""Correct use of the package's API, typed: `mypy --strict` must accept it as it is (the CI
runs it), and `test_typed_usage.py` runs it, so the stubs and the code cannot drift apart."""

from __future__ import annotations

import os
import tempfile
from typing import Dict, List, Optional

import numpy
import numpy.typing

import dakon


def use_the_api() -> Dict[str, object]:
    p: dakon.Position = dakon.Position.start(3, 2)
    q = dakon.Position([1, 0, 2, 3], stores=(4, 5), to_move=1, rules="kalah")
    after, played = p.play(4)
    solution: dakon.Solution = dakon.solve(p, threads=1, node_limit=10**6, tt_mb=16, use_tables=False)
    value: Optional[int] = solution.value
    moves: List[dakon.MoveValue] = dakon.best(q, rules="kalah", time_limit=5.0)
    many: List[dakon.Solution] = dakon.solve_many([p, "2,2/2,2 0/0 0"], threads=2, progress=False)
    values: numpy.typing.NDArray[numpy.float64] = dakon.solve_many([p], as_array=True, progress=False)
    columns = dakon.best_many([p, q], as_array="columns", progress=lambda done, total: None)
    structured: numpy.typing.NDArray[numpy.void] = dakon.best_many([p], as_array="structured", progress=False)
    ranked: List[List[dakon.MoveValue]] = dakon.best_many([p], progress=False)
    board: numpy.typing.NDArray[numpy.int16] = p.board
    observed: numpy.typing.NDArray[numpy.float32] = dakon.observation(after, player=0)
    mask: numpy.typing.NDArray[numpy.int8] = dakon.action_mask(after)
    with tempfile.TemporaryDirectory() as d:
        tiers = dakon.tables.build(2, 3, tables_dir=d)
        probed: int = dakon.tables.probe("1,0/0,1 0/0 0", tables_dir=d)
        written = dakon.certificates.write(p, os.path.join(d, "p.dkc"), small_seeds=2, threads=1)
        report = dakon.certificates.check(os.path.join(d, "p.dkc"))
    return {
        "played": played.to_dict(),
        "value": value,
        "moves": [m.to_dict() for m in moves],
        "many": [s.to_dict() for s in many],
        "values": values.tolist(),
        "columns": sorted(columns),
        "structured": structured.dtype.names,
        "ranked": len(ranked[0]),
        "board": board.tolist(),
        "observed": observed.tolist(),
        "mask": mask.tolist(),
        "tiers": len(tiers),
        "probed": probed,
        "written": written["value"],
        "report": report["status"],
        "version": dakon.__version__,
        "hole": dakon.hole_of_action(after, 0),
    }
