"""Label random states of OpenSpiel's Kalah (its game `mancala`) with their exact values.

Plays random OpenSpiel games, keeps one state per game at a random move, solves them all with
`dakon.solve_many` (all cores, a progress bar) and writes a CSV: OpenSpiel's observation
tensor (14 pits, the player to move, the move number), the dakon position, the value (final
store difference for the player to move, exact, or empty when the time limit left bounds),
the bounds, and the best action in OpenSpiel's numbering.

    pip install ./python open-spiel tqdm
    python python/examples/label_openspiel.py --states 1000 --out kalah-labels.csv

Early states of Kalah(6,4) are hard (the start takes minutes); `--min-move` and `--time-limit`
keep the run short; states a limit cut keep their proven bounds.
"""

import argparse
import csv
import random
from typing import Any, List

import pyspiel

import dakon
import dakon.openspiel as dos


def random_states(count: int, min_move: int, seed: int) -> List[Any]:
    """`count` states of random games of `mancala`, one per game, at move `min_move` or later."""
    rng = random.Random(seed)
    game = pyspiel.load_game("mancala")
    states: List[Any] = []
    while len(states) < count:
        state, line = game.new_initial_state(), []
        while not state.is_terminal():
            if state.move_number() >= min_move:
                line.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        if line:
            states.append(rng.choice(line))
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=1000, help="states to label (default 1000)")
    parser.add_argument("--min-move", type=int, default=20, help="the earliest move a state is taken at (default 20)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per state (default 5)")
    parser.add_argument("--threads", type=int, default=None, help="default: all cores")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="kalah-labels.csv")
    args = parser.parse_args()

    states = random_states(args.states, args.min_move, args.seed)
    positions = [dos.position_from_state(s) for s in states]
    solutions = dakon.solve_many(positions, time_limit=args.time_limit, threads=args.threads, progress=True)
    with open(args.out, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow([f"pit{i}" for i in range(14)] + ["to_move", "move_number", "position", "value", "lower", "upper", "best_action"])
        for state, solution in zip(states, solutions):
            best = None if solution.best_move is None else dos.action_from_hole(solution.best_move)
            observation = [int(x) for x in state.observation_tensor(0)]
            out.writerow(observation + [solution.position, solution.value, solution.lower, solution.upper, best])
    exact = sum(s.exact for s in solutions)
    print(f"{args.out}: {len(states)} states, {exact} exact, {len(states) - exact} with bounds only")


if __name__ == "__main__":
    main()
