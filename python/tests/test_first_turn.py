"""`no-first-turn-capture` in the package: positions carry the players still in their first
turn, `solve` and `best` give the values of `dakon solve` and `dakon best` under the option,
and the functions that do not play it yet refuse it with a ValueError naming the argument."""

from __future__ import annotations

import json
import pickle

import pytest

import dakon

FIRST_TURN = "dakon:no-first-turn-capture"
RULES = [FIRST_TURN, "dakon:no-first-turn-capture,traditional"]


def test_positions_carry_the_first_turns_and_moves_capture_nothing_in_them() -> None:
    start = dakon.Position.start(7, rules=FIRST_TURN)
    assert (str(start), start.first_turns) == ("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0 first:0,1", [0, 1])
    # Hole 13 relays through hole 1 and stops in the empty hole 6: a nembak by default.
    assert dakon.Position.start(7).play(13)[1].capture == "nembak"
    after, played = start.play(13)
    assert (played.capture, played.captured, after.first_turns) == (None, 0, [1])
    assert str(after).endswith(" 1 first:1")
    assert dakon.Position.parse(str(after), rules=FIRST_TURN) == after
    assert pickle.loads(pickle.dumps(after)) == after
    # Without the field every first turn is over; other rules drop the field.
    assert dakon.Position.parse("1,0/0,1 0/0 1", rules=FIRST_TURN).first_turns == []
    assert after.with_rules("dakon").first_turns == []
    assert after.with_rules("dakon:no-first-turn-capture,traditional").first_turns == [1]
    with pytest.raises(ValueError, match="needs rules='dakon:no-first-turn-capture'"):
        dakon.Position.parse(str(after))
    with pytest.raises(ValueError, match="'first:0,1', 'first:0' or 'first:1'"):
        dakon.Position.parse("1,0/0,1 0/0 1 first:2", rules=FIRST_TURN)


@pytest.mark.parametrize("rules", RULES)
def test_solve_and_best_give_the_command_lines_values(rules: str, cli) -> None:
    for holes, seeds in [(3, 3), (4, 4), (2, 5)]:
        start = dakon.Position.start(holes, seeds, rules=rules)
        args = ["start", "--holes", str(holes), "--seeds", str(seeds), "--rules", rules, "--json", "--threads", "1"]
        solved = json.loads(cli("solve", *args).stdout)
        solution = dakon.solve(start, threads=1)
        assert (solution.value, solution.rules, solution.position) == (solved["value"], rules, start)
        assert solution.best_move is not None and solution.best_move_proven and solution.pv == [solution.best_move]
        moves = dakon.best(start, threads=1)
        listed = json.loads(cli("best", *args).stdout)["moves"]
        assert [(m.hole, m.value) for m in moves] == [(m["hole"], m["value"]) for m in listed]
        assert moves[0].value == solution.value and moves[0].proven_best
        # The position after the best move has the same final difference, for the same player.
        after, _ = start.play(solution.best_move)
        rest = dakon.solve(after, threads=1).value
        assert rest is not None and solution.value == (rest if after.to_move == start.to_move else -rest)
    # Notation with the field, under the rules keyword.
    assert dakon.solve("4,4,4,4/4,4,4,4 0/0 0 first:0,1", rules=rules, threads=1).value == dakon.solve(
        dakon.Position.start(4, rules=rules), threads=1
    ).value


def test_a_limit_leaves_bounds_around_the_value() -> None:
    start = dakon.Position.start(5, rules=FIRST_TURN)
    exact = dakon.solve(start, threads=1).value
    assert exact is not None
    cut = dakon.solve(start, threads=1, node_limit=1)
    assert cut.lower <= exact <= cut.upper
    for move in dakon.best(start, threads=1, node_limit=1):
        assert move.lower <= move.upper


def test_what_does_not_play_the_option_yet_refuses_it_naming_the_argument(tmp_path) -> None:
    start = dakon.Position.start(3, rules=FIRST_TURN)
    with pytest.raises(ValueError, match=r"solve_many: positions\[0\]: rules: the rules 'dakon:no-first-turn-capture'"):
        dakon.solve_many([start])
    with pytest.raises(ValueError, match="rules: the rules 'dakon:no-first-turn-capture' .* dakon.tables.build"):
        dakon.tables.build(3, 2, rules=FIRST_TURN, tables_dir=tmp_path)
    with pytest.raises(ValueError, match="rules: .* dakon.tables.probe"):
        dakon.tables.probe(start, tables_dir=tmp_path)
    with pytest.raises(ValueError, match="rules: .* dakon.certificates.write"):
        dakon.certificates.write(start, tmp_path / "c.dkc")
