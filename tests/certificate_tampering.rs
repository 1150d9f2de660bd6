//! Tampered certificates are refused: the real writer's output, changed the ways a broken
//! writer or a forger would change it, and given to the independent checker. A strategy that
//! no longer proves the claim is refused with exit status 1; a damaged or mismatched file with
//! exit status 2.

use dakon_check::check;
use dakon_solver::certificate::{extract, Board, Certificate, Claim};
use dakon_solver::dakon::{Dakon, Position};
use dakon_solver::search::{Config, Limits, Solver};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use xxhash_rust::xxh3::xxh3_64;

use crate::run_dakon::checker_status;

fn solver(holes: usize) -> Solver<Dakon> {
    Solver::new(Dakon::new(holes).unwrap(), Config { threads: 1, tt_bytes: 16 << 20 }, None)
}

/// The mover's store minus the opponent's.
fn stored(position: &Position) -> i32 {
    position.store(position.mover()) as i32 - position.store(position.mover().other()) as i32
}

/// The certificate of the exact value of `position` (`L` = 8, so that boards with a few
/// seeds have entries too), and that value.
fn exact_certificate(solver: &Solver<Dakon>, position: &Position) -> (Certificate, i32) {
    let solution = solver.solve(position, &Limits::default());
    let v = stored(position) + solution.lower;
    let certificate = extract(solver, position, Claim { lower: v, upper: v }, 8, &Limits::default()).unwrap().certificate;
    assert!(check(&certificate.to_bytes()).unwrap().holds(), "{position}: the untouched certificate holds");
    (certificate, v)
}

/// Asserts that the checker refuses `certificate` as not proving its claim (exit status 1),
/// with `why` in its message.
fn assert_fails(certificate: &Certificate, why: &str) {
    let (status, message) = checker_status(&certificate.to_bytes());
    assert_eq!(status, 1, "{message}");
    assert!(message.contains("FAILS") && message.contains(why), "expected '{why}' in:\n{message}");
}

/// Asserts that the checker refuses `bytes` as malformed (exit status 2).
fn assert_malformed(bytes: &[u8], context: &str) {
    let error = check(bytes).err().unwrap_or_else(|| panic!("{context}: accepted"));
    let (status, message) = checker_status(bytes);
    assert_eq!(status, 2, "{context}: {message}");
    assert!(message.contains(&error.to_string()), "{context}: {message}");
}

/// `bytes` with its file checksum made right again, so that only the change itself is judged.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 8;
    let checksum = xxh3_64(&bytes[..body]);
    bytes[body..].copy_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Random positions from random games on 4 to 6 holes, with the player to move needing an
/// entry at the root (more than `L` = 8 seeds, game not over).
fn middle_games(count: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(21);
    let mut positions = Vec::new();
    while positions.len() < count {
        let holes = rng.gen_range(4..=6);
        let mut position = Position::start(holes, rng.gen_range(2..=5)).unwrap();
        let left = rng.gen_range(12..=24);
        while position.seeds_on_board() > left && !position.is_over() {
            let moves = position.moves();
            position = position.play(moves.as_slice()[rng.gen_range(0..moves.len())] as usize).0;
        }
        if !position.is_over() && position.seeds_on_board() > 8 {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn a_strategy_move_changed_to_a_worse_legal_move_is_refused() {
    let mut changed = 0;
    for position in middle_games(40) {
        let solver = solver(position.holes());
        let (mut certificate, v) = exact_certificate(&solver, &position);
        // The lower half is the mover's strategy: its entry for the root is the first move.
        let root = Board::of(&position);
        assert!(certificate.lower_half.moves.contains_key(&root), "{position}: the root needs an entry");
        let worse = solver.analyse_moves(&position, &Limits::default()).into_iter().find(|m| stored(&position) + m.upper < v);
        let Some(worse) = worse else { continue };
        let hole = position.absolute_hole(position.mover(), worse.mv as usize) as u8;
        certificate.lower_half.moves.insert(root, hole);
        assert_fails(&certificate, "player");
        changed += 1;
    }
    assert!(changed >= 20, "only {changed} positions had a worse move");
}

#[test]
fn a_reachable_position_removed_from_either_half_is_refused() {
    let mut rng = StdRng::seed_from_u64(22);
    // Every entry the writer keeps is used by the check, and only its strategy's move can meet
    // the need there: without it the stores alone are what the owner is sure of.
    for (holes, seeds) in [(5, 5), (4, 3), (6, 3)] {
        let solver = solver(holes);
        let (certificate, _) = exact_certificate(&solver, &Position::start(holes, seeds).unwrap());
        for upper in [false, true] {
            let half = if upper { &certificate.upper_half } else { &certificate.lower_half };
            let boards: Vec<Board> = half.moves.keys().copied().collect();
            for board in boards.choose_multiple(&mut rng, 8) {
                let mut tampered = certificate.clone();
                let half = if upper { &mut tampered.upper_half } else { &mut tampered.lower_half };
                half.moves.remove(board);
                assert_fails(&tampered, "no entry");
            }
        }
    }
}

#[test]
fn an_illegal_move_is_refused() {
    for position in middle_games(10) {
        let solver = solver(position.holes());
        let (certificate, _) = exact_certificate(&solver, &position);
        let root = Board::of(&position);
        let n = position.holes();
        let empty = (0..2 * n).find(|&h| position.owner(h).0 == position.mover() && position.hole(h) == 0);
        let other_side = (0..2 * n).find(|&h| position.owner(h).0 != position.mover()).unwrap();
        for hole in [Some(other_side), empty, Some(2 * n), Some(255)].into_iter().flatten() {
            let mut tampered = certificate.clone();
            tampered.lower_half.moves.insert(root, hole as u8);
            assert_fails(&tampered, &format!("lifts hole {hole}, which is not a legal move"));
        }
    }
}

#[test]
fn a_claim_moved_by_one_is_refused() {
    for (holes, seeds) in [(5, 5), (6, 3), (4, 4)] {
        let solver = solver(holes);
        let (certificate, v) = exact_certificate(&solver, &Position::start(holes, seeds).unwrap());
        let mut raised = certificate.clone();
        raised.claim = Claim { lower: v + 1, upper: v + 1 };
        assert_fails(&raised, "lower     FAILS");
        let mut lowered = certificate.clone();
        lowered.claim = Claim { lower: v - 1, upper: v - 1 };
        assert_fails(&lowered, "upper     FAILS");
    }
}

#[test]
fn every_flipped_byte_and_every_truncation_is_refused() {
    let solver = solver(4);
    let (certificate, _) = exact_certificate(&solver, &Position::start(4, 3).unwrap());
    let bytes = certificate.to_bytes();
    for i in 0..bytes.len() {
        for flip in [0x01, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[i] ^= flip;
            assert_malformed(&damaged, &format!("byte {i} ^ {flip:#x}"));
        }
    }
    for length in 0..bytes.len() {
        assert_malformed(&bytes[..length], &format!("the first {length} bytes"));
    }
    assert_malformed(&[bytes.as_slice(), &[0]].concat(), "one byte more");
}

#[test]
fn another_boards_header_is_refused() {
    /// Header length: magic, version, rules name, holes, root, stores, player, bounds, L.
    fn header_len(certificate: &Certificate) -> usize {
        26 + certificate.rules.len() + 2 * certificate.root.holes()
    }
    let five = exact_certificate(&solver(5), &Position::start(5, 5).unwrap()).0;
    for (holes, seeds) in [(6, 6), (5, 4), (4, 5)] {
        let other = exact_certificate(&solver(holes), &Position::start(holes, seeds).unwrap()).0;
        let (a, b) = (other.to_bytes(), five.to_bytes());
        let spliced = [&a[..header_len(&other)], &b[header_len(&five)..]].concat();
        let context = format!("the {holes}x{seeds} header on the 5x5 strategies");
        assert_malformed(&spliced, &context);
        // With the checksum made right, entries that do not fit the board size are malformed,
        // and strategies that do not serve the root are refused by the check.
        let resealed = resealed(spliced);
        if holes == 5 {
            let (status, message) = checker_status(&resealed);
            assert_eq!(status, 1, "{context}: {message}");
        } else {
            assert_malformed(&resealed, &context);
        }
    }
}

/// On a Kalah tree of tens of thousands of checked positions, as on the small Dakon ones:
/// every single strategy move changed to another legal move either still proves the claim or
/// is refused naming the position (and the line to it) where the proof falls short, and
/// changes that break the proof are found among them.
#[test]
fn a_kalah_strategy_move_changed_is_refused_naming_the_position() {
    use dakon_solver::kalah::{CaptureRule, Kalah};
    let (holes, seeds) = (5, 3);
    let solver = Solver::new(Kalah::new(holes, CaptureRule::FacingSeeds).unwrap(), Config { threads: 1, tt_bytes: 64 << 20 }, None);
    let start = Position::start(holes, seeds).unwrap();
    let v = solver.solve(&start, &Limits::default()).lower;
    let certificate = extract(&solver, &start, Claim { lower: v, upper: v }, 8, &Limits::default()).unwrap().certificate;
    assert!(check(&certificate.to_bytes()).unwrap().holds());
    let mut rng = StdRng::seed_from_u64(46);
    for upper in [false, true] {
        let half = if upper { &certificate.upper_half } else { &certificate.lower_half };
        // The owner's holes: player 0 (the mover at the start) owns the bottom row.
        let own = if upper { 0..holes } else { holes..2 * holes };
        let entries: Vec<(Board, u8)> = half.moves.iter().map(|(b, &m)| (*b, m)).collect();
        let (mut refused, mut tried) = (0, 0);
        // Each check reads the whole certificate: three refusals a half make the point.
        'half: for (board, hole) in entries.choose_multiple(&mut rng, 12) {
            for other in own.clone().filter(|&h| h as u8 != *hole && board.holes(holes)[h] > 0) {
                let mut tampered = certificate.clone();
                let half = if upper { &mut tampered.upper_half } else { &mut tampered.lower_half };
                half.moves.insert(*board, other as u8);
                tried += 1;
                let (status, message) = checker_status(&tampered.to_bytes());
                if status == 0 {
                    continue;
                }
                assert_eq!(status, 1, "{message}");
                assert!(message.contains("FAILS") && message.contains(" at ") && message.contains("(after "), "{message}");
                refused += 1;
                if refused == 3 {
                    break 'half;
                }
            }
        }
        let half = if upper { "upper" } else { "lower" };
        assert_eq!(refused, 3, "{half} half: only {refused} of {tried} changed moves were refused");
    }
}
