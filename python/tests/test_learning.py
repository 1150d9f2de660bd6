"""What a learner sees: observations, mover-relative actions and their mask; OpenSpiel's
learners on `python_dakon`; PettingZoo's own API test on `dakon.pettingzoo`."""

import random

import numpy
import pytest

import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent, tabular_qlearner
from pettingzoo.test import api_test

import dakon
import dakon.openspiel as dos
import dakon.pettingzoo
from conftest import random_positions


@pytest.mark.parametrize("rules", dakon.RULES)
def test_actions_observations_and_masks_agree_with_the_position(rules: str) -> None:
    rng = random.Random(21)
    for p in random_positions(rng, rules, 300, max_holes=9, max_seeds=6, max_total=255):
        n, mask = p.holes, dakon.action_mask(p)
        assert mask.dtype == numpy.int8 and mask.shape == (n,)
        assert sorted(dakon.hole_of_action(p, a) for a in range(n) if mask[a]) == p.legal_moves()
        assert all(dakon.action_of_hole(p, dakon.hole_of_action(p, a)) == a for a in range(n))
        mover, other = dakon.observation(p), dakon.observation(p, player=1 - p.to_move)
        assert mover.dtype == numpy.float32 and mover.shape == (dakon.observation_size(n),)
        # The two views hold the same seeds, each side's first; only the mover flag differs.
        assert list(mover[:n]) == list(other[n : 2 * n]) and list(mover[n : 2 * n]) == list(other[:n])
        assert list(mover[2 * n : 2 * n + 2]) == list(other[2 * n : 2 * n + 2])[::-1]
        assert other[-1] == 0.0 and mover[-1] == (0.0 if p.is_over() else 1.0)
        assert mover[: 2 * n].sum() == p.seeds_on_board and mover[2 * n] == p.stores[p.to_move]
        # The same action is the same move for either player: the mirrored position plays it alike.
        mirrored = dakon.Position(list(p.board[n:][::-1]) + list(p.board[:n][::-1]), stores=p.stores[::-1], to_move=1 - p.to_move, rules=rules)
        assert list(dakon.observation(mirrored)) == list(mover) and list(dakon.action_mask(mirrored)) == list(mask)
        for a in (a for a in range(n) if mask[a]):
            after, _ = p.play(dakon.hole_of_action(p, a))
            twin, _ = mirrored.play(dakon.hole_of_action(mirrored, a))
            assert list(dakon.observation(after, player=p.to_move)) == list(dakon.observation(twin, player=mirrored.to_move))


def test_python_dakon_observes_from_the_players_view() -> None:
    game = pyspiel.load_game("python_dakon(holes=4,seeds=3)")
    assert game.observation_tensor_shape() == [dakon.observation_size(4)] and game.num_distinct_actions() == 4
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    for player in (0, 1):
        assert state.observation_tensor(player) == list(dakon.observation(state.position, player))
        assert state.observation_string(player) == dakon.observation_string(state.position, player)
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    assert list(observer.dict["their_holes"]) == list(dakon.observation(state.position, 1)[4:8])


def test_python_dakon_seeds_default_to_the_holes() -> None:
    for holes in (1, 5, 9):
        game = pyspiel.load_game(f"python_dakon(holes={holes})")
        assert game.new_initial_state().position == dakon.Position.start(holes)


def test_rl_environment_steps_100_random_games() -> None:
    game = pyspiel.load_game("python_dakon(holes=4,seeds=3)")
    env = rl_environment.Environment(game, seed=3)
    agents = [random_agent.RandomAgent(player_id=i, num_actions=env.action_spec()["num_actions"]) for i in range(2)]
    finished = 0
    for _ in range(100):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == dakon.observation_size(4)
            step = env.step([agents[player].step(step).action])
        assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
        finished += 1
    assert finished == 100


def test_tabular_q_learner_trains_1000_episodes_on_3x3() -> None:
    """Q-learning from player 0's seat against a random player 1: trained, it wins more
    often than a random player 0 does."""
    numpy.random.seed(5)  # the learner's exploration and the random agents draw from numpy's generator
    game = pyspiel.load_game("python_dakon(holes=3,seeds=3)")
    env = rl_environment.Environment(game, seed=5)
    actions = env.action_spec()["num_actions"]
    learner = tabular_qlearner.QLearner(player_id=0, num_actions=actions)
    opponent = random_agent.RandomAgent(player_id=1, num_actions=actions)

    def play(first, is_evaluation: bool) -> float:
        step = env.reset()
        while not step.last():
            agent = first if step.observations["current_player"] == 0 else opponent
            step = env.step([agent.step(step, is_evaluation=is_evaluation).action])
        first.step(step, is_evaluation=is_evaluation)
        return step.rewards[0]

    for _ in range(1000):
        play(learner, False)
    trained = numpy.mean([play(learner, True) for _ in range(300)])
    untrained = numpy.mean([play(random_agent.RandomAgent(player_id=0, num_actions=actions), True) for _ in range(300)])
    assert len(learner._q_values) > 10 and trained > untrained, (trained, untrained)


@pytest.mark.parametrize("holes,seeds,rules", [(1, 1, "dakon"), (3, 3, "dakon"), (6, 4, "kalah"), (7, None, "kalah-empty-capture")])
def test_pettingzoo_api_test_passes(holes: int, seeds, rules: str) -> None:
    api_test(dakon.pettingzoo.env(holes=holes, seeds=seeds, rules=rules), num_cycles=300)


def test_pettingzoo_games_follow_the_rules() -> None:
    rng = random.Random(22)
    for _ in range(30):
        env = dakon.pettingzoo.env(holes=4, seeds=3)
        env.reset(seed=1)
        p = dakon.Position.start(4, 3)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                difference = p.final_difference() * (1 if p.to_move == int(agent[-1]) else -1)
                assert reward == numpy.sign(difference)
                env.step(None)
                continue
            assert agent == f"player_{p.to_move}" and list(observation["observation"]) == list(dakon.observation(p))
            action = rng.choice([a for a, legal in enumerate(observation["action_mask"]) if legal])
            env.step(action)
            p = p.play(dakon.hole_of_action(p, action))[0]
        assert p.is_over() and not env.agents
    env = dakon.pettingzoo.env(holes=3, seeds=2)
    env.reset()
    with pytest.raises(ValueError, match="action 5 is not legal for player_0: legal actions \\[0, 1, 2\\]"):
        env.step(5)
