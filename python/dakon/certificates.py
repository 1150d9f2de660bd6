"""Proof certificates: files that prove a value to an independent checker (``dakon solve
--certificate``, ``dakon check``).

>>> import dakon, os, tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     path = os.path.join(d, "3x2.dkc")
...     written = dakon.certificates.write("2,2,2/2,2,2 0/0 0", path)
...     report = dakon.certificates.check(path)
>>> written["value"], written["checked"], report["status"], report["checked_lower"]
(6, True, 'holds', 6)
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

from ._dakon import CertificateError, Position, check_certificate, write_certificate
from .search_options import SearchOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["CertificateError", "check", "write"]


def write(
    position: Union[Position, str],
    path: Union[str, "os.PathLike[str]"],
    small_seeds: Optional[int] = None,
    check: bool = True,
    **search: Unpack[SearchOptions],
) -> Dict[str, Any]:
    """Solves ``position`` and writes a certificate of what was proven (the exact value, or the
    bounds a limit left) to ``path``, then reads it back and checks it with the independent
    checker unless ``check`` is False. Returns the record of ``dakon solve --certificate
    --json``: ``file``, ``bytes``, ``lower``, ``upper``, ``value`` (None if not exact),
    ``small_seeds`` (L: positions with at most L seeds are left to the checker's minimax;
    default by board size), ``lower_entries``, ``upper_entries``, ``seconds``, ``checked``
    and ``check`` (the checker's report). The search keywords are those of ``solve``.

    Raises ValueError for a malformed position or ``small_seeds`` above what the format allows
    on the board (29 on 6 holes a row, 23 on 7, 64 on 1 to 3; the CLI's
    ``--certificate-small-seeds`` has the same bound),
    dakon.CertificateError if the claim could not be backed or the checker refused the file,
    OSError if it cannot be written, dakon.Interrupted on Ctrl-C (nothing written).
    """
    record: Dict[str, Any] = json.loads(write_certificate(position, os.fspath(path), small_seeds=small_seeds, check=check, **search))
    return record


def check(path: Union[str, "os.PathLike[str]"]) -> Dict[str, Any]:
    """Checks the certificate in ``path`` with the independent checker, which shares no code
    with the solver: the report of ``dakon check --json`` (``status`` ``holds`` or ``fails``,
    ``holds``, ``rules``, ``position``, ``claimed_lower``/``upper``, ``checked_lower``/``upper``,
    both halves, ``visited``, ``seconds``).

    Raises OSError if the file cannot be read, dakon.CertificateError if it is malformed.
    """
    report: Dict[str, Any] = json.loads(check_certificate(os.fspath(path)))
    return report
