"""What a learner sees: a position from one player's view, and moves numbered from the mover.

**Actions.** A move is numbered by its *action* ``a`` in ``0..holes-1``: the mover's holes
counted in the mover's sowing direction, ``a = 0`` farthest from the mover's store. For
player 0 (the bottom row, holes ``n..2n-1`` of the notation) action ``a`` is hole ``n + a``;
for player 1 (the top row) it is hole ``n - 1 - a``. The same action therefore means the
same move for either player, and none is always illegal. ``action_mask`` marks the legal ones.

**Observation tensor** (float32, ``observation_size(holes) = 2 * holes + 3`` numbers) from the
view of ``player`` (default the player to move): that player's holes by action number, the
opponent's holes by *their* action number, that player's store, the opponent's store, and
1.0 if that player is to move (0.0 when the opponent is, or the game is over). Seeds are
counts, not scaled.

>>> import dakon
>>> p = dakon.Position.parse("1,2,3/4,5,6 7/8 1")
>>> dakon.observation(p).tolist()
[3.0, 2.0, 1.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0]
>>> dakon.observation(p, player=0).tolist()
[4.0, 5.0, 6.0, 3.0, 2.0, 1.0, 8.0, 7.0, 0.0]
>>> dakon.action_mask(p).tolist(), dakon.hole_of_action(p, 0)
([1, 1, 1], 2)
>>> dakon.observation_string(p)
'player 1 to move: mine 3,2,1 store 7 | theirs 4,5,6 store 8'
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional

import numpy
import numpy.typing

from ._dakon import Position

__all__ = ["action_mask", "action_of_hole", "hole_of_action", "observation", "observation_size", "observation_string"]


def observation_size(holes: int) -> int:
    """The length of ``observation`` for a board of ``holes`` holes per row."""
    return 2 * holes + 3


def _row(position: Position, player: int) -> List[int]:
    """``player``'s holes by action number."""
    n, board = position.holes, [int(seeds) for seeds in position.board]
    return board[n:] if player == 0 else board[n - 1 :: -1]


def _integer(name: str, value: Any, highest: int) -> int:
    """``value`` as an int from 0 to ``highest``: TypeError or ValueError naming ``name``."""
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, found {type(value).__name__}") from None
    if not 0 <= number <= highest:
        raise ValueError(f"{name}: expected an integer from 0 to {highest}, found {number}")
    return number


def _viewer(position: Position, player: Optional[int]) -> int:
    return position.to_move if player is None else _integer("player", player, 1)


def observation(position: Position, player: Optional[int] = None) -> "numpy.typing.NDArray[numpy.float32]":
    """The observation tensor of ``position`` from ``player``'s view (default the mover)."""
    me = _viewer(position, player)
    stores = position.stores
    to_move = 1.0 if position.to_move == me and not position.is_over() else 0.0
    values = _row(position, me) + _row(position, 1 - me) + [stores[me], stores[1 - me], to_move]
    return numpy.array(values, dtype=numpy.float32)


def observation_string(position: Position, player: Optional[int] = None) -> str:
    """The observation as text, from ``player``'s view (default the mover)."""
    me = _viewer(position, player)
    stores = position.stores
    if position.is_over():
        state = "game over"
    else:
        state = f"player {position.to_move} to move"
    mine, theirs = _row(position, me), _row(position, 1 - me)
    return (
        f"{state}: mine {','.join(map(str, mine))} store {stores[me]}"
        f" | theirs {','.join(map(str, theirs))} store {stores[1 - me]}"
    )


def action_mask(position: Position) -> "numpy.typing.NDArray[numpy.int8]":
    """1 for each legal action of the mover, 0 for the others (all 0 once the game is over)."""
    mask = numpy.zeros(position.holes, dtype=numpy.int8)
    for hole in position.legal_moves():
        mask[action_of_hole(position, hole)] = 1
    return mask


def hole_of_action(position: Position, action: int) -> int:
    """The hole (as the notation numbers it) of the mover's action ``action``.

    Raises ValueError for an action outside ``0..holes-1``.
    """
    n = position.holes
    action = _integer("action", action, n - 1)
    return n + action if position.to_move == 0 else n - 1 - action


def action_of_hole(position: Position, hole: int) -> int:
    """The mover's action number of ``hole``.

    Raises ValueError for a hole that is not the mover's.
    """
    n = position.holes
    if position.to_move == 0 and n <= hole < 2 * n:
        return hole - n
    if position.to_move == 1 and 0 <= hole < n:
        return n - 1 - hole
    raise ValueError(f"hole {hole} is not a hole of player {position.to_move}, who is to move")
