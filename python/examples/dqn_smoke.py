"""OpenSpiel's DQN (its JAX agent) learning Dakon on `python_dakon`: a smoke run, not a study.

Trains a DQN agent in player 0's seat against a random player 1 on 3 x 3 Dakon for a few
hundred episodes, then plays it (greedy) against the random player and against the perfect
player (`dakon.best`), and prints the results beside those of a random player 0. It shows that
the observation tensor, the mover-relative actions and their legal mask are what OpenSpiel's
deep learners need; a few hundred episodes teach little.

    pip install ./python open-spiel jax dm-haiku optax chex etils flax orbax-checkpoint
    python python/examples/dqn_smoke.py --episodes 300

The JAX stack is large (hundreds of MB), so it is not among the test dependencies; this script
says so and exits with status 2 when it is missing.
"""

import argparse
import importlib.util
import random
import sys
import time
from typing import Any, Callable, List, Tuple

import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent

import dakon
import dakon.openspiel  # noqa: F401  (registers the game `python_dakon`)


def play(env: Any, first: Any, second: Callable[[Any], int], evaluation: bool) -> Tuple[float, int]:
    """One game of `first` (an OpenSpiel agent, player 0) against `second` (a function from a
    time step to an action, player 1): player 0's reward (1 for a win, -1 for a loss) and the
    final store difference in player 0's favour."""
    step = env.reset()
    while not step.last():
        if step.observations["current_player"] == 0:
            action = first.step(step, is_evaluation=evaluation).action
        else:
            action = second(step)
        step = env.step([action])
    first.step(step, is_evaluation=evaluation)
    end: dakon.Position = env.get_state.position
    return float(step.rewards[0]), end.final_difference() * (1 if end.to_move == 0 else -1)


def mean(games: List[Tuple[float, int]], field: int) -> float:
    """The mean of one field of `play`'s results."""
    return sum(game[field] for game in games) / len(games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=300, help="training games (default 300)")
    parser.add_argument("--games", type=int, default=200, help="evaluation games against each opponent (default 200)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    missing = [m for m in ("jax", "flax", "optax", "chex", "etils", "orbax") if importlib.util.find_spec(m) is None]
    if missing:
        print(f"dqn_smoke: OpenSpiel's JAX DQN needs {', '.join(missing)}: pip install jax dm-haiku optax chex etils flax orbax-checkpoint", file=sys.stderr)
        return 2
    from open_spiel.python.jax import dqn  # after the check: it imports the JAX stack

    game = pyspiel.load_game("python_dakon(holes=3,seeds=3)")
    env = rl_environment.Environment(game, seed=args.seed)
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    agent = dqn.DQN(
        player_id=0,
        state_representation_size=size,
        num_actions=actions,
        hidden_layers_sizes=[32, 32],
        batch_size=32,
        replay_buffer_capacity=5000,
        min_buffer_size_to_learn=64,
        # At least 3: open-spiel 2.0.2's JAX agent makes its replay buffer at its second step
        # and fails if it learns before (at step 2 with learn_every=2).
        learn_every=4,
        update_target_network_every=100,
        epsilon_decay_duration=max(1, args.episodes * 8),
        learning_rate=0.01,
        seed=args.seed,
        allow_checkpointing=False,
    )
    rng = random.Random(args.seed)
    randomly: Callable[[Any], int] = lambda step: rng.choice(step.observations["legal_actions"][1])

    def perfectly(step: Any) -> int:
        position = env.get_state.position
        return dakon.action_of_hole(position, dakon.best(position)[0].hole)

    started = time.perf_counter()
    rewards: List[float] = [play(env, agent, randomly, False)[0] for _ in range(args.episodes)]
    trained_for = time.perf_counter() - started
    print(
        f"trained {args.episodes} episodes ({agent._iteration} agent steps) in {trained_for:.1f} s; "
        f"mean reward over the last 100: {sum(rewards[-100:]) / len(rewards[-100:]):+.2f}; last loss {agent.loss}"
    )
    untrained = random_agent.RandomAgent(player_id=0, num_actions=actions)
    start = game.new_initial_state().position
    print(f"the start {start}: player 0 wins by {dakon.solve(start).value} with perfect play")
    # The perfect player is deterministic, and so is the greedy agent: every such game is the same.
    for name, opponent in (("a random player", randomly), ("the perfect player", perfectly)):
        trained = [play(env, agent, opponent, True) for _ in range(args.games)]
        baseline = [play(env, untrained, opponent, True) for _ in range(args.games)]
        print(
            f"against {name}: DQN mean reward {mean(trained, 0):+.2f}, mean store difference {mean(trained, 1):+.1f} "
            f"(wins {sum(g[0] > 0 for g in trained)}/{len(trained)}); a random player 0: {mean(baseline, 0):+.2f}, {mean(baseline, 1):+.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
