"""The search keywords every function that searches takes (``solve``, ``best``,
``solve_many``, ``best_many``, ``certificates.write``), defined once: ``**search`` in their
signatures, typed by ``SearchOptions``.

``rules``: the rules to play by (``dakon``, ``kalah``, ``kalah-empty-capture``; default the
position's own, notation: Dakon). ``time_limit`` (seconds, 0 to 1e9) and ``node_limit`` (1
to 2**64 - 1) stop the search with proven bounds; the node limit is looked at every 4,096
nodes of each thread, so a search may pass it by that much. ``threads`` (1 to 1024, default
all cores), ``tt_mb`` (1 to 2**20 MiB of transposition table, default 256), ``tables_dir``
(endgame tables; default ``$DAKON_TABLES``, else ``./tables``) and ``use_tables`` (default
True). A number out of range raises ValueError naming the keyword and its range; an unknown
keyword or a wrong type, TypeError.
"""

from __future__ import annotations

import os
from typing import Optional, TypedDict, Union

__all__ = ["SearchOptions"]


class SearchOptions(TypedDict, total=False):
    """The search keywords (all optional)."""

    rules: Optional[str]
    time_limit: Optional[float]
    node_limit: Optional[int]
    threads: Optional[int]
    tables_dir: Optional[Union[str, "os.PathLike[str]"]]
    use_tables: bool
    tt_mb: Optional[int]
