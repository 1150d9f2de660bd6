"""Endgame tables: every position with few seeds on the board, solved once (``dakon tables``).

>>> import dakon, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     tiers = dakon.tables.build(holes=2, max_seeds=4, tables_dir=d)
...     [t["seeds"] for t in tiers], dakon.tables.probe("1,0/0,2 0/0 0", tables_dir=d)
([0, 1, 2, 3, 4], -1)
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Union

from ._dakon import Position, TableError, build_tables, probe_table

__all__ = ["TableError", "build", "probe"]


def build(
    holes: int,
    max_seeds: int,
    rules: str = "dakon",
    tables_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> List[Dict[str, Any]]:
    """Builds the missing tiers ``0..=max_seeds`` (seeds on the board) of the board of ``holes``
    holes per row under ``rules`` into ``tables_dir`` (default ``$DAKON_TABLES``, else
    ``./tables``): one dict per tier, ``seeds``, ``path``, ``entries``, ``bytes``, ``built``
    (False: already there) and ``seconds``. Tiers present are kept, so a build stopped by
    Ctrl-C (dakon.Interrupted, whose ``partial`` lists the finished tiers) resumes.
    ``progress`` draws a bar per tier on stderr.

    Raises ValueError naming the argument for ``holes`` outside 1 to 9, ``max_seeds`` outside
    0 to 127 or ``threads`` outside 1 to 1024, dakon.TableError for a damaged tier or a
    failed write. An interrupted build says which tiers it kept.
    """
    return build_tables(holes, max_seeds, rules=rules, tables_dir=tables_dir, threads=threads, progress=progress)


def probe(position: Union[Position, str], rules: Optional[str] = None, tables_dir: Optional[Union[str, "os.PathLike[str]"]] = None) -> int:
    """The value of ``position`` (final store difference, player to move minus opponent) read
    from its tier's table; only its block of the file is decoded.

    Raises ValueError for a malformed position, dakon.TableError when the tier has no table in
    ``tables_dir`` or the file is damaged.
    """
    return probe_table(position, rules=rules, tables_dir=tables_dir)
