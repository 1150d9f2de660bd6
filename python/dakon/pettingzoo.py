"""Dakon (and Kalah) as a PettingZoo AEC environment, for multi-agent learning libraries.

Importing this module needs ``pettingzoo`` and ``gymnasium`` (``pip install pettingzoo``).

>>> import dakon.pettingzoo
>>> env = dakon.pettingzoo.env(holes=3, seeds=2)
>>> env.reset(seed=0)
>>> env.agent_selection, env.observe("player_0")["action_mask"].tolist()
('player_0', [1, 1, 1])
>>> env.step(1)                          # action 1: player 0's hole 4, last seed in the store
>>> env.agent_selection                  # an extra move: the same agent moves again
'player_0'

Agents ``player_0`` (the bottom row, moves first) and ``player_1``. The action space is
``Discrete(holes)``: the mover's holes numbered from the mover (``dakon.hole_of_action``).
An observation is a dict: ``observation``, the position from the agent's view
(``dakon.observation``, float32, ``2 * holes + 3`` numbers) and ``action_mask`` (int8,
1 for each legal action; all 0 for the agent not to move). A move that earns an extra move
leaves the same agent selected. Rewards come at the end: +1 to the player with more seeds,
-1 to the other, 0 each for a draw. An illegal action raises ValueError.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy
import numpy.typing
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._dakon import Position
from .learning import action_mask, hole_of_action, observation, observation_size, observation_string

__all__ = ["DakonEnv", "env", "raw_env"]

AGENTS = ["player_0", "player_1"]


def env(holes: int = 7, seeds: Optional[int] = None, rules: str = "dakon", render_mode: Optional[str] = None) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (order enforcing): ``holes`` holes per
    row (1 to 9), ``seeds`` per hole (default ``holes``), ``rules`` (``dakon``, ``kalah``,
    ``kalah-empty-capture``), ``render_mode`` None, ``"ansi"`` (``render`` returns text) or
    ``"human"`` (prints it).

    Raises ValueError naming ``holes`` or ``seeds`` for a number out of range.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(holes, seeds, rules, render_mode))


def raw_env(holes: int = 7, seeds: Optional[int] = None, rules: str = "dakon", render_mode: Optional[str] = None) -> "DakonEnv":
    """The environment without wrappers."""
    return DakonEnv(holes, seeds, rules, render_mode)


class DakonEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment of ``env``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "dakon_v0", "is_parallelizable": False}

    def __init__(self, holes: int = 7, seeds: Optional[int] = None, rules: str = "dakon", render_mode: Optional[str] = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode: expected None, 'human' or 'ansi', found {render_mode!r}")
        self.start = Position.start(holes, seeds, rules=rules)
        self.position = self.start
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        size = observation_size(self.start.holes)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 255.0, (size,), numpy.float32),
                    "action_mask": spaces.Box(0, 1, (self.start.holes,), numpy.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.start.holes) for agent in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Back to the opening (the game has no chance: ``seed`` only seeds the spaces)."""
        if seed is not None:
            for i, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + i)
        self.position = self.start
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.position.to_move]

    def observe(self, agent: str) -> Dict[str, "numpy.typing.NDArray[Any]"]:
        """The position from ``agent``'s view and its legal actions (none unless it moves)."""
        player = AGENTS.index(agent)
        mask = action_mask(self.position)
        if player != self.position.to_move:
            mask = numpy.zeros_like(mask)
        return {"observation": observation(self.position, player), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for the selected agent (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= action < self.position.holes or not action_mask(self.position)[action]:
            legal = [a for a, ok in enumerate(action_mask(self.position)) if ok]
            raise ValueError(f"action {action} is not legal for {agent}: legal actions {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.position, _ = self.position.play(hole_of_action(self.position, int(action)))
        self.rewards = {a: 0.0 for a in AGENTS}
        if self.position.is_over():
            difference = self.position.final_difference()
            if self.position.to_move == 1:
                difference = -difference
            sign = float(numpy.sign(difference))
            self.rewards = {"player_0": sign, "player_1": -sign}
            self.terminations = {a: True for a in AGENTS}
        else:
            self.agent_selection = AGENTS[self.position.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The position (notation and player 0's view) as text, printed for ``"human"``."""
        text = f"{self.position}\n{observation_string(self.position, 0)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to free."""

    def legal_actions(self) -> List[int]:
        """The selected agent's legal actions."""
        return [a for a, ok in enumerate(action_mask(self.position)) if ok]
