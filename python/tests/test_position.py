"""dakon.Position: notation, parts, moves, equality, and the command line's messages."""

import pickle
import random

import numpy
import pytest

import dakon
from conftest import cli_json_lines, random_positions


def test_notation_round_trips_and_parts_agree() -> None:
    rng = random.Random(1)
    for rules in dakon.RULES:
        for p in random_positions(rng, rules, 300, max_holes=9, max_seeds=6, max_total=255):
            assert dakon.Position.parse(str(p), rules=rules) == p
            board = p.board
            assert isinstance(board, numpy.ndarray) and board.dtype == numpy.int16
            assert len(board) == 2 * p.holes and int(board.sum()) == p.seeds_on_board
            assert dakon.Position(board, stores=p.stores, to_move=p.to_move, rules=rules) == p
            assert pickle.loads(pickle.dumps(p)) == p


def test_equality_and_hash_include_the_rules() -> None:
    a = dakon.Position.start(6, 4)
    b = dakon.Position.parse("4,4,4,4,4,4/4,4,4,4,4,4 0/0 0")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.with_rules("kalah")
    assert a.rules == "dakon" and a.with_rules("kalah").rules == "kalah"


def test_start_and_rules() -> None:
    p = dakon.Position.start(3, 2, rules="kalah-empty-capture")
    assert str(p) == "2,2,2/2,2,2 0/0 0" and p.holes == 3 and p.to_move == 0 and p.stores == (0, 0)
    assert str(dakon.Position.start()) == "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0"
    assert dakon.RULES == ["dakon", "kalah", "kalah-empty-capture"]


@pytest.mark.parametrize("rules", ["dakon", "kalah", "kalah-empty-capture"])
def test_moves_equal_the_command_lines(cli, rules: str) -> None:
    """Every legal move of random positions: the position after it and what happened, as
    `dakon play --json` reports them."""
    rng = random.Random(2)
    for p in random_positions(rng, rules, 40, max_holes=9, max_seeds=6, max_total=255):
        for hole in p.legal_moves():
            after, played = p.play(hole)
            [expected] = cli_json_lines(cli, "play", str(p), str(hole), "--rules", rules, "--json")
            assert str(after) == expected["position"]
            assert (played.hole, played.extra_move, played.game_over, played.captured, played.capture) == (
                expected["hole"], expected["extra_move"], expected["game_over"], expected["captured"], expected["capture"])
            assert (played.sown_into_store, played.last_hole) == (expected["sown_into_store"], expected["last_hole"])
            assert played.laps == expected.get("laps")
            assert after.to_move == expected["to_move"]
        if not p.legal_moves():
            assert p.is_over()


BAD_NOTATION = ["", "1,2/3 0/0 0", "1,2/3,4 0/0", "1,2/3,4 0/0 2", "a,2/3,4 0/0 0", "1,2/3,4 0/0 0 extra",
                "200,200/1,1 0/0 0", "1,2,3,4,5,6,7,8,9,10/1,2,3,4,5,6,7,8,9,10 0/0 0"]


@pytest.mark.parametrize("text", BAD_NOTATION)
def test_malformed_positions_raise_the_command_lines_message(cli, text: str) -> None:
    with pytest.raises(ValueError) as raised:
        dakon.Position.parse(text)
    out = cli("show", text)
    assert out.returncode == 2
    assert out.stderr.strip() == f"dakon: {raised.value}"
    with pytest.raises(ValueError):
        dakon.solve(text)


@pytest.mark.parametrize("position, hole", [("2,2,2/2,2,2 0/0 0", 1), ("2,2,2/2,2,2 0/0 0", 6),
                                            ("2,2,2/0,2,2 0/0 0", 3), ("1,1,1/0,0,0 2/3 0", 4)])
def test_illegal_moves_raise_the_command_lines_message(cli, position: str, hole: int) -> None:
    with pytest.raises(ValueError) as raised:
        dakon.Position.parse(position).play(hole)
    out = cli("play", position, str(hole))
    assert out.returncode == 2
    # The command line numbers the moves it was given: "move 1 (hole H) in position ...".
    assert out.stderr.strip() == "dakon: " + str(raised.value).replace(f"hole {hole} in", f"move 1 (hole {hole}) in", 1)


def test_other_bad_input() -> None:
    with pytest.raises(ValueError, match="unknown rules 'oware': expected one of dakon, kalah, kalah-empty-capture"):
        dakon.Position.start(6, 4, rules="oware")
    with pytest.raises(ValueError, match="holes: expected an integer from 1 to 9, found 10"):
        dakon.Position.start(10)
    with pytest.raises(ValueError, match="two rows of equal length"):
        dakon.Position([1, 2, 3])
    with pytest.raises(ValueError, match="to_move: expected an integer from 0 to 1, found 2"):
        dakon.Position([1, 2], to_move=2)
    with pytest.raises(ValueError, match="the game is not over"):
        dakon.Position.start(2).final_difference()
    with pytest.raises(TypeError):
        dakon.Position.parse(5)


def test_dakon_variants_by_name(cli) -> None:
    """`rules=` takes Dakon's variants as the command line does: any order, one canonical name,
    the same values; bad options are refused with the command line's message."""
    p = dakon.Position.start(3, 4, rules="dakon:skip-origin,no-mikul")
    assert p.rules == "dakon:no-mikul,skip-origin" and p != p.with_rules("dakon")
    for rules in ["dakon:nembak-lander", "dakon:no-mikul", "dakon:skip-origin", "dakon:traditional"]:
        [line] = cli_json_lines(cli, "batch", "--rules", rules, "-", stdin="4,4,4/4,4,4 0/0 0\n")
        solution = dakon.solve(dakon.Position.start(3, 4, rules=rules))
        assert solution.rules == rules and solution.value == line["value"], rules
    with pytest.raises(ValueError, match="unknown Dakon option 'no-relay'"):
        dakon.Position.start(3, 3, rules="dakon:no-relay")
    with pytest.raises(ValueError, match="'traditional' already sets nembak-lander, no-mikul and skip-origin"):
        dakon.Position.start(3, 3, rules="dakon:traditional,no-mikul")
