"""OpenSpiel's `mancala` against dakon's `kalah` rules, move by move in both directions, and
Dakon registered as the pyspiel game `python_dakon`."""

import functools
import random

import numpy
import pytest

import pyspiel

import dakon
import dakon.openspiel as dos

MANCALA = pyspiel.load_game("mancala")


def final_stores(state) -> tuple:
    """What OpenSpiel counts at the end for each player: their store and their side."""
    pits = [int(x) for x in state.observation_tensor(0)[:14]]
    return sum(pits[1:8]), pits[0] + sum(pits[8:14])


def mover_view(p: dakon.Position, value: int, player: int) -> int:
    """`value`, the final difference for `p`'s mover, for `player`."""
    return value if p.to_move == player else -value


def compare(state, child, action: int, stats: dict) -> None:
    """OpenSpiel's move `action` from `state` to `child` against dakon's."""
    p = dos.position_from_state(state)
    q, played = p.play(dos.hole_from_action(action))
    stats["moves"] += 1
    stats["long laps"] += int(p.board[dos.hole_from_action(action)] >= 13)
    stats["captures"] += int(played.capture is not None)
    if child.is_terminal():
        stats["ends"] += 1
        assert q.is_over() and played.game_over
        # dakon stores the seeds left; OpenSpiel counts them where they lie: the same score.
        assert q.stores == final_stores(child)
        s0, s1 = final_stores(child)
        assert child.returns()[0] == numpy.sign(s0 - s1)
        unswept = dos.position_from_state(child)
        assert mover_view(unswept, unswept.final_difference(), 0) == mover_view(q, q.final_difference(), 0) == s0 - s1
    else:
        assert dos.position_from_state(child) == q
        assert not q.is_over() and child.current_player() == q.to_move
        assert played.extra_move == (child.current_player() == state.current_player())


def test_openspiel_moves_equal_dakons() -> None:
    """Random OpenSpiel games: at every state, every legal action of OpenSpiel played by
    both (OpenSpiel's transitions checked by dakon)."""
    rng = random.Random(7)
    stats = dict(moves=0, ends=0, captures=0, states=0, **{"long laps": 0})
    for _ in range(150):
        state = MANCALA.new_initial_state()
        while not state.is_terminal():
            p = dos.position_from_state(state)
            stats["states"] += 1
            assert sorted(dos.hole_from_action(a) for a in state.legal_actions()) == p.legal_moves()
            for action in state.legal_actions():
                compare(state, state.child(action), action, stats)
            state.apply_action(rng.choice(state.legal_actions()))
        assert dos.position_from_state(state).is_over() and state.move_number() < MANCALA.max_game_length()
    assert stats["states"] >= 3000 and stats["ends"] >= 150 and stats["captures"] > 500, stats


def test_dakon_games_replayed_in_openspiel() -> None:
    """Random games chosen by dakon's legal moves, replayed in OpenSpiel through the action
    numbering (dakon's transitions checked by OpenSpiel)."""
    rng = random.Random(8)
    stats = dict(moves=0, ends=0, captures=0, **{"long laps": 0})
    for _ in range(150):
        p, state = dakon.Position.start(6, 4, rules="kalah"), MANCALA.new_initial_state()
        while not p.is_over():
            assert [dos.action_from_hole(h) for h in p.legal_moves()] == sorted(state.legal_actions(), key=dos.hole_from_action)
            hole = rng.choice(p.legal_moves())
            child = state.child(dos.action_from_hole(hole))
            compare(state, child, dos.action_from_hole(hole), stats)
            p, state = p.play(hole)[0], child
        assert state.is_terminal()
    assert stats["moves"] >= 3000, stats


def test_hole_and_action_numbering_are_inverse() -> None:
    assert sorted(dos.hole_from_action(a) for a in list(range(1, 7)) + list(range(8, 14))) == list(range(12))
    assert all(dos.hole_from_action(dos.action_from_hole(h)) == h for h in range(12))
    for bad in (0, 7, 14):
        with pytest.raises(ValueError):
            dos.hole_from_action(bad)
    with pytest.raises(ValueError):
        dos.action_from_hole(12)
    with pytest.raises(ValueError, match="expected OpenSpiel's 'mancala'"):
        dos.position_from_state(pyspiel.load_game("tic_tac_toe").new_initial_state())


def openspiel_value(state) -> int:
    """The final store difference for the player to move by a plain minimax over OpenSpiel's
    own states: independent of dakon."""

    @functools.lru_cache(maxsize=None)
    def solve(key):
        s = states[key]
        if s.is_terminal():
            s0, s1 = final_stores(s)
            return s0 - s1
        values = []
        for a in s.legal_actions():
            c = s.child(a)
            k = tuple(c.observation_tensor(0)[:15])
            states[k] = c
            values.append(solve(k))
        return max(values) if s.current_player() == 0 else min(values)

    states = {tuple(state.observation_tensor(0)[:15]): state}
    value0 = solve(tuple(state.observation_tensor(0)[:15]))
    return value0 if dos.position_from_state(state).to_move == 0 else -value0


def test_values_of_openspiel_states_equal_a_minimax_over_openspiel() -> None:
    rng = random.Random(9)
    checked = 0
    while checked < 40:
        state = MANCALA.new_initial_state()
        while not state.is_terminal() and dos.position_from_state(state).seeds_on_board > 8:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        assert dakon.solve(dos.position_from_state(state), threads=1).value == openspiel_value(state)
        checked += 1


def test_state_from_position_goes_on_from_any_position() -> None:
    rng = random.Random(10)
    state = MANCALA.new_initial_state()
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    p = dos.position_from_state(state)
    twin = dos.state_from_position(p)
    assert twin.get_game().get_type().short_name == dos.GAME_NAME and dos.position_from_state(twin) == p
    assert [dakon.hole_of_action(p, a) for a in twin.legal_actions()] == sorted(p.legal_moves(), key=lambda h: dakon.action_of_hole(p, h))
    assert twin.current_player() == state.current_player()
    for _ in range(30):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        twin.apply_action(dakon.action_of_hole(twin.position, dos.hole_from_action(action)))
        if not state.is_terminal():
            assert dos.position_from_state(state) == dos.position_from_state(twin)


@pytest.mark.parametrize("rules", ["dakon", "kalah", "kalah-empty-capture"])
def test_python_dakon_plays_random_games_to_the_end(rules: str) -> None:
    rng = random.Random(11)
    for holes, seeds in [(1, 1), (3, 3), (5, 4), (7, 7), (9, 2)]:
        game = pyspiel.load_game(f"python_dakon(holes={holes},seeds={seeds},rules={rules})")
        assert game.num_distinct_actions() == holes and game.num_players() == 2
        for _ in range(10):
            state, p = game.new_initial_state(), dakon.Position.start(holes, seeds, rules=rules)
            assert str(state) == str(p)
            while not state.is_terminal():
                assert sorted(dakon.hole_of_action(p, a) for a in state.legal_actions()) == p.legal_moves()
                assert state.legal_actions() == [a for a, legal in enumerate(dakon.action_mask(p)) if legal]
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                p = p.play(dakon.hole_of_action(p, action))[0]
                assert state.position == p
            difference = mover_view(p, p.final_difference(), 0)
            assert state.returns() == [float(numpy.sign(difference)), -float(numpy.sign(difference))]
            assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_mcts_plays_python_dakon() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_dakon(holes=3,seeds=3,rules=dakon)")
    bot = mcts.MCTSBot(game, 2, 40, mcts.RandomRolloutEvaluator(1, numpy.random.RandomState(0)), random_state=numpy.random.RandomState(1))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns()[0] in (-1.0, 0.0, 1.0) and sum(state.returns()) == 0.0


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(Exception, match="unknown rules 'oware'"):
        pyspiel.load_game("python_dakon(rules=oware)")
