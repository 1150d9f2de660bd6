"""OpenSpiel and dakon: OpenSpiel's Kalah (its game ``mancala``) as dakon positions, and Dakon
(any board, any of dakon's rule sets) as an OpenSpiel game.

Importing this module needs ``open-spiel`` (``pip install open-spiel``, module ``pyspiel``)
and registers the game ``python_dakon`` with pyspiel::

    import pyspiel, dakon.openspiel
    game = pyspiel.load_game("python_dakon(holes=5,seeds=5,rules=dakon)")

``python_dakon`` is made for learning: its actions are the mover's holes numbered from the
mover (``0..holes-1``, ``dakon.hole_of_action``; the same action is the same move for either
player, none is always illegal), and it has an observer: ``state.observation_tensor(player)``
and ``state.observation_string(player)`` describe the position from ``player``'s view as
``dakon.observation`` does (``2 * holes + 3`` numbers), so OpenSpiel's ``rl_environment``
and its learners (tabular Q-learning, and DQN where PyTorch or JAX is installed) run on it.

OpenSpiel's ``mancala`` is standard Kalah on 6 holes of 4 seeds: dakon's ``--rules kalah``
(checked move by move on random games in ``python/tests/test_openspiel.py``). Its pits are
numbered 0 (player 1's store), 1..6 (player 0's holes), 7 (player 0's store), 8..13 (player
1's holes), counter-clockwise; dakon numbers player 1's row 0..5 from the left (OpenSpiel's
13..8) and player 0's 6..11 (OpenSpiel's 1..6). Two differences, neither in the rules of
play: OpenSpiel leaves the seeds on the board when a side is empty and counts them in
``returns()`` (dakon moves them into the stores: the same final score), and OpenSpiel calls
a game that passes its 1000th move a draw (dakon has no move limit).

>>> import pyspiel, dakon, dakon.openspiel as dos
>>> state = pyspiel.load_game("mancala").new_initial_state()
>>> str(dos.position_from_state(state))
'4,4,4,4,4,4/4,4,4,4,4,4 0/0 0'
>>> state.apply_action(3)                   # OpenSpiel's pit 3 is dakon's hole 8
>>> str(dos.position_from_state(state))
'4,4,4,4,4,4/4,4,0,5,5,5 0/1 0'
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy
import pyspiel

from ._dakon import RULES, Position
from .learning import hole_of_action, observation, observation_size, observation_string

__all__ = [
    "GAME_NAME",
    "MANCALA_HOLES",
    "DakonGame",
    "DakonObserver",
    "DakonState",
    "action_from_hole",
    "hole_from_action",
    "position_from_state",
    "state_from_position",
]

#: The short name of the game this module registers.
GAME_NAME = "python_dakon"
#: Holes per row of OpenSpiel's ``mancala`` (it has no parameters).
MANCALA_HOLES = 6
_MANCALA_PITS = 2 * MANCALA_HOLES + 2


def hole_from_action(action: int) -> int:
    """dakon's hole for an action (pit) of OpenSpiel's ``mancala``.

    >>> [hole_from_action(a) for a in (1, 6, 8, 13)]
    [6, 11, 5, 0]
    """
    if 1 <= action <= MANCALA_HOLES:
        return action + MANCALA_HOLES - 1
    if MANCALA_HOLES + 2 <= action <= 2 * MANCALA_HOLES + 1:
        return 2 * MANCALA_HOLES + 1 - action
    raise ValueError(f"action {action}: mancala's holes are pits 1 to 6 and 8 to 13")


def action_from_hole(hole: int) -> int:
    """The action (pit) of OpenSpiel's ``mancala`` for dakon's hole (0 to 11).

    >>> [action_from_hole(h) for h in (6, 11, 5, 0)]
    [1, 6, 8, 13]
    """
    if MANCALA_HOLES <= hole < 2 * MANCALA_HOLES:
        return hole - MANCALA_HOLES + 1
    if 0 <= hole < MANCALA_HOLES:
        return 2 * MANCALA_HOLES + 1 - hole
    raise ValueError(f"hole {hole} does not exist: holes are numbered 0 to 11 on mancala's board")


def position_from_state(state: Any) -> Position:
    """The dakon position of a state: of OpenSpiel's ``mancala`` (under ``kalah`` rules, the
    player to move from the state; a finished game keeps its seeds on the board, as OpenSpiel
    does, which dakon scores the same), or of ``python_dakon``.

    Raises ValueError for a state of another game.
    """
    name = state.get_game().get_type().short_name
    if name == GAME_NAME:
        position: Position = state.position
        return position
    if name != "mancala":
        raise ValueError(f"a state of '{name}': expected OpenSpiel's 'mancala' or '{GAME_NAME}'")
    # The observation: the 14 pits, the player to move (kept after the end), the move number.
    observation = [int(x) for x in state.observation_tensor(0)]
    pits, to_move = observation[:_MANCALA_PITS], observation[_MANCALA_PITS]
    top = [pits[2 * MANCALA_HOLES + 1 - h] for h in range(MANCALA_HOLES)]
    bottom = pits[1 : MANCALA_HOLES + 1]
    return Position(top + bottom, stores=(pits[MANCALA_HOLES + 1], pits[0]), to_move=to_move, rules="kalah")


def state_from_position(position: Position) -> "DakonState":
    """A state of ``python_dakon`` (with the position's board size and rules) at ``position``:
    OpenSpiel's algorithms can go on from any position, also one of OpenSpiel's ``mancala``
    (``position_from_state``), whose own Python API cannot set a board. Its actions are the
    mover's holes numbered from the mover (``dakon.action_of_hole``; ``action_from_hole``
    maps mancala's actions to dakon's holes).
    """
    seeds = max(1, (position.seeds_on_board + sum(position.stores)) // (2 * position.holes))
    game = pyspiel.load_game(GAME_NAME, {"holes": position.holes, "seeds": seeds, "rules": position.rules})
    return DakonState(game, position)


def _game_type() -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Dakon (and Kalah) by the dakon solver's rules",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"holes": 7, "seeds": 0, "rules": "dakon"},
    )


class DakonGame(pyspiel.Game):  # type: ignore[misc]
    """Dakon as an OpenSpiel game: parameters ``holes`` (1 to 9, default 7), ``seeds`` per hole
    (default 0: as many as ``holes``, as ``dakon.Position.start``) and ``rules`` (``dakon``,
    ``kalah`` or ``kalah-empty-capture``). Its ``holes`` actions are the mover's holes
    numbered from the mover (``dakon.hole_of_action``); returns are +1, 0 or -1 from the
    final stores.

    Raises ValueError naming ``holes`` or ``seeds`` for a number out of range.
    """

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        holes, seeds, rules = int(params.get("holes", 7)), int(params.get("seeds", 0)), str(params.get("rules", "dakon"))
        if rules not in RULES:
            raise ValueError(f"unknown rules '{rules}': expected one of {', '.join(RULES)}")
        if seeds < 0:
            raise ValueError(f"seeds: expected 1 or more seeds per hole (0: as many as holes), found {seeds}")
        self.start = Position.start(holes, seeds or None, rules=rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=holes,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # No bound on the length of a game is proven; OpenSpiel uses this for sizes only.
            max_game_length=1000,
        )
        super().__init__(_game_type(), info, {"holes": holes, "seeds": seeds, "rules": rules})

    def new_initial_state(self) -> "DakonState":
        """The opening position."""
        return DakonState(self, self.start)

    def make_py_observer(self, iig_obs_type: Any = None, params: Optional[Dict[str, Any]] = None) -> "DakonObserver":
        """The observer of every state (a perfect-information game: one kind)."""
        return DakonObserver(self.start.holes, params)


class DakonObserver:
    """OpenSpiel's observer of ``python_dakon``: ``tensor`` (float32, ``dakon.observation``)
    and its named views in ``dict``: ``my_holes``, ``their_holes``, ``stores`` (mine,
    theirs) and ``to_move``."""

    def __init__(self, holes: int, params: Optional[Dict[str, Any]] = None) -> None:
        if params:
            raise ValueError(f"python_dakon's observer takes no parameters, found {params}")
        self.tensor = numpy.zeros(observation_size(holes), numpy.float32)
        self.dict = {
            "my_holes": self.tensor[:holes],
            "their_holes": self.tensor[holes : 2 * holes],
            "stores": self.tensor[2 * holes : 2 * holes + 2],
            "to_move": self.tensor[2 * holes + 2 :],
        }

    def set_from(self, state: "DakonState", player: int) -> None:
        """The tensor of ``state`` from ``player``'s view."""
        self.tensor[:] = observation(state.position, player)

    def string_from(self, state: "DakonState", player: int) -> str:
        """The observation of ``state`` as text, from ``player``'s view."""
        return observation_string(state.position, player)


class DakonState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_dakon``: a dakon ``Position`` (``state.position``)."""

    def __init__(self, game: DakonGame, position: Position) -> None:
        super().__init__(game)
        self.position = position

    def current_player(self) -> int:
        """The player to move, or ``pyspiel.PlayerId.TERMINAL``."""
        return pyspiel.PlayerId.TERMINAL if self.position.is_over() else self.position.to_move

    def _legal_actions(self, player: int) -> List[int]:
        n = self.position.holes
        return sorted(h - n if player == 0 else n - 1 - h for h in self.position.legal_moves())

    def _apply_action(self, action: int) -> None:
        self.position, _ = self.position.play(hole_of_action(self.position, action))

    def _action_to_string(self, player: int, action: int) -> str:
        n = self.position.holes
        return f"action {action} (hole {n + action if player == 0 else n - 1 - action})"

    def is_terminal(self) -> bool:
        return self.position.is_over()

    def returns(self) -> List[float]:
        """+1 to the player with more seeds at the end, -1 to the other, 0 each for a draw or
        a game that goes on."""
        if not self.position.is_over():
            return [0.0, 0.0]
        difference = self.position.final_difference()
        mover = 1.0 if difference > 0 else -1.0 if difference < 0 else 0.0
        return [mover, -mover] if self.position.to_move == 0 else [-mover, mover]

    def __str__(self) -> str:
        return str(self.position)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_game_type(), DakonGame)
