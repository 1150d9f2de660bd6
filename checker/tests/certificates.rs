//! Certificates of tiny boards with strategies found by the tests' own minimax, for every rule
//! set: they hold, and every kind of tampering is refused with the right exit status and a
//! message that says what and where.

use crate::common;

use common::{checked, exact_certificate, frame, parse, rechecksummed, section, start, with_checksum, Draft, Solver};
use dakon_check::rules::{Position, Rules};
use dakon_check::{check, Shortfall};

/// The roots: every start of 1 to 3 holes with few seeds, and positions from games played a
/// little way from them.
fn roots(rules: Rules) -> Vec<Position> {
    let mut roots = Vec::new();
    for (holes_per_row, most_seeds) in [(1, 6), (2, 4), (3, 2)] {
        for seeds in 1..=most_seeds {
            let start = start(rules, holes_per_row, seeds);
            roots.push(start);
            // A few positions along a line of first legal moves and one of last legal moves.
            for pick_last in [false, true] {
                let mut position = start;
                for _ in 0..3 {
                    let moves = position.legal_moves();
                    let Some(&hole) = (if pick_last { moves.last() } else { moves.first() }) else { break };
                    position = position.play(hole).expect("legal");
                    roots.push(position);
                }
            }
        }
    }
    roots
}

fn refusal(bytes: &[u8]) -> String {
    match check(bytes) {
        Ok(report) => panic!("refused as malformed, but it was read:\n{report}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn exact_certificates_of_tiny_boards_hold() {
    let mut checked_halves = 0;
    for rules in Rules::ALL {
        let mut solver = Solver::default();
        for root in roots(rules) {
            // 64: the whole game is left to the checker's tables.
            for small_seeds in [0, 2, 64] {
                let (value, draft) = exact_certificate(&mut solver, &root, small_seeds);
                let report = checked(&draft.bytes());
                assert!(report.holds(), "{} {root} = {value}, L = {small_seeds}:\n{report}", rules.name());
                assert_eq!((report.checked_lower(), report.checked_upper()), (value, value));
                assert_eq!(report.root, root);
                assert_eq!((report.lower.entries, report.upper.entries), (draft.halves[0].len(), draft.halves[1].len()));
                assert!(report.visited >= 1);
                checked_halves += usize::from(!draft.halves[0].is_empty()) + usize::from(!draft.halves[1].is_empty());
                // Looser claims hold with the same strategies.
                let loose = Draft { lower: value as i32 - 1, upper: value as i32 + 2, ..draft.clone() };
                assert!(checked(&loose.bytes()).holds());
            }
        }
    }
    assert!(checked_halves > 200, "most halves have entries: {checked_halves}");
}

#[test]
fn a_claim_raised_or_lowered_by_one_fails() {
    for rules in Rules::ALL {
        let mut solver = Solver::default();
        // 64: the checker's tables alone refuse it, at the root.
        for (root, small_seeds) in roots(rules).into_iter().flat_map(|root| [(root, 0), (root, 64)]) {
            let (value, draft) = exact_certificate(&mut solver, &root, small_seeds);
            let raised = Draft { lower: value as i32 + 1, upper: value as i32 + 1, ..draft.clone() };
            let report = checked(&raised.bytes());
            assert!(!report.lower.holds() && report.upper.holds(), "{root} raised:\n{report}");
            assert_eq!(report.checked_upper(), value + 1);
            // Needs pass down unchanged: the failure needs what the root needs.
            let failure = report.lower.failure.as_ref().expect("a failure");
            assert_eq!(failure.needed, value + 1);
            if small_seeds == 64 && !root.is_over() {
                assert_eq!((&failure.shortfall, failure.line.len()), (&Shortfall::SmallPosition(value), 0), "{root}");
            }
            let lowered = Draft { lower: value as i32 - 1, upper: value as i32 - 1, ..draft.clone() };
            let report = checked(&lowered.bytes());
            assert!(report.lower.holds() && !report.upper.holds(), "{root} lowered:\n{report}");
            let failure = report.upper.failure.as_ref().expect("a failure");
            assert_eq!((failure.owner, failure.needed), (1 - root.player(), 1 - value), "the opponent's need");
        }
    }
}

/// The positions of the principal variation where `owner` is to move and the need (the exact
/// value) is not met trivially: each of their entries is indispensable.
fn tight_positions(solver: &mut Solver, root: &Position, owner: usize) -> Vec<Position> {
    solver
        .principal_variation(root)
        .into_iter()
        .filter(|position| {
            let value = solver.value_for(position, owner);
            let stores = position.stores();
            let trivial = i64::from(stores[owner]) - i64::from(stores[1 - owner]) - i64::from(position.seeds_on_board());
            position.player() == owner && !position.is_over() && value > trivial
        })
        .collect()
}

fn with_move(draft: &Draft, half: usize, board: &[u8], hole: Option<u8>) -> Draft {
    let mut tampered = draft.clone();
    let entries = &mut tampered.halves[half];
    let index = entries.iter().position(|(entry, _)| entry == board).expect("an entry");
    match hole {
        Some(hole) => entries[index].1 = hole,
        None => drop(entries.remove(index)),
    }
    tampered
}

#[test]
fn tampered_strategies_fail_where_they_are_tampered() {
    let mut tampered_count = [0; 3];
    for rules in Rules::ALL {
        let mut solver = Solver::default();
        for root in roots(rules) {
            let (value, draft) = exact_certificate(&mut solver, &root, 0);
            for (half, owner) in [(0, root.player()), (1, 1 - root.player())] {
                for position in tight_positions(&mut solver, &root, owner) {
                    let need = solver.value_for(&root, owner);
                    let board = position.holes();
                    // Removed: the first failure is this board's missing entry.
                    let report = checked(&with_move(&draft, half, board, None).bytes());
                    let failure = [&report.lower, &report.upper][half].failure.as_ref().expect("a failure");
                    assert!(matches!(failure.shortfall, Shortfall::NoEntry(_)), "{failure}");
                    assert_eq!(failure.position.holes(), board);
                    tampered_count[0] += 1;
                    // A worse legal move: falls short somewhere after it.
                    for (hole, next) in position.successors() {
                        if solver.value_for(&next, owner) < need {
                            let report = checked(&with_move(&draft, half, board, Some(hole as u8)).bytes());
                            assert!(!report.holds(), "{root} = {value}: hole {hole} at {position}");
                            tampered_count[1] += 1;
                        }
                    }
                    // An illegal move: an empty own hole, a hole of the other player, no hole.
                    let own_empty = position
                        .holes()
                        .iter()
                        .enumerate()
                        .find(|&(hole, &seeds)| seeds == 0 && (hole < position.holes_per_row()) == (owner == 1));
                    let other = if owner == 0 { 0 } else { position.holes_per_row() };
                    for hole in own_empty.map(|(hole, _)| hole).into_iter().chain([other, 2 * position.holes_per_row(), 255]) {
                        let report = checked(&with_move(&draft, half, board, Some(hole as u8)).bytes());
                        let failure = [&report.lower, &report.upper][half].failure.as_ref().expect("a failure");
                        assert_eq!(failure.shortfall, Shortfall::IllegalMove(hole as u8));
                        assert_eq!(failure.position.holes(), board);
                        let message = failure.to_string();
                        assert!(message.contains(&format!("lifts hole {hole}, which is not a legal move")), "{message}");
                        tampered_count[2] += 1;
                    }
                }
            }
        }
    }
    assert!(tampered_count.iter().all(|&count| count > 50), "enough tampering of each kind: {tampered_count:?}");
}

#[test]
fn a_failure_names_the_position_the_line_and_the_shortfall() {
    // Raising the claim of this 2 x 2 position by one makes the lower half fail down the line.
    let root = parse(Rules::DAKON, "2,2/3,1 0/0 0");
    let mut solver = Solver::default();
    let (value, draft) = exact_certificate(&mut solver, &root, 0);
    let raised = Draft { lower: value as i32 + 1, upper: value as i32 + 1, ..draft };
    let report = checked(&raised.bytes());
    let failure = report.lower.failure.as_ref().expect("the lower half fails");
    let text = failure.to_string();
    assert!(text.starts_with(&format!("at {} (after ", failure.position)), "{text}");
    let needed = if value + 1 > 0 { format!("+{}", value + 1) } else { (value + 1).to_string() };
    assert!(text.contains(&format!("player 0 needs {needed}, but ")), "{text}");
    assert!(text.contains(" (short by "), "{text}");
    assert!(!failure.line.is_empty(), "not at the root: {text}");
    // Replaying the line from the root reaches the position named.
    let mut position = root;
    for &hole in &failure.line {
        position = position.play(hole).expect("the line is legal");
    }
    assert_eq!(position, failure.position);
    let shown = report.to_string();
    assert!(shown.contains("lower     FAILS") && shown.contains("upper     holds"), "{shown}");
}

#[test]
fn small_positions_are_solved_by_the_checker() {
    // With L at least the root's seeds, no entry is needed: the checker solves it all.
    let mut solver = Solver::default();
    for rules in Rules::ALL {
        let root = start(rules, 2, 3);
        let value = solver.value_for(&root, 0);
        let draft = Draft::new(&root, value as i32, value as i32, 12, [vec![], vec![]]);
        let report = checked(&draft.bytes());
        assert!(report.holds(), "{report}");
        let wrong = Draft { lower: value as i32 + 1, upper: value as i32 + 1, ..draft };
        let report = checked(&wrong.bytes());
        let failure = report.lower.failure.expect("too high");
        assert_eq!(failure.shortfall, Shortfall::SmallPosition(value));
        assert!(failure.line.is_empty(), "the root itself");
    }
}

#[test]
fn trivial_halves_hold_without_entries() {
    let root = parse(Rules::Kalah, "3,3,3/3,3,3 4/2 1");
    let (lower, upper) = (4 - 2 - 18, 4 - 2 + 18);
    let report = checked(&Draft::new(&root, lower, upper, 0, [vec![], vec![]]).bytes());
    assert!(report.holds(), "{report}");
    assert_eq!(report.visited, 2, "only the roots are looked at");
    let tighter = Draft::new(&root, lower + 1, upper, 0, [vec![], vec![]]);
    let report = checked(&tighter.bytes());
    let failure = report.lower.failure.as_ref().expect("needs an entry");
    assert_eq!(failure.shortfall, Shortfall::NoEntry(i64::from(lower)));
    assert!(failure.to_string().contains("no entry for this board (only -16 is sure)"), "{failure}");
    assert_eq!(report.checked_lower(), i64::from(lower), "the trivial bound when the half fails");
}

/// The bytes before the lower half: magic, version, rules, board, root, bounds, `L`.
fn header_length(draft: &Draft) -> usize {
    8 + 4 + 1 + draft.rules.len() + 1 + draft.holes.len() + 3 + 8 + 1
}

/// A small certificate with entries in both halves.
fn sample() -> (Position, Draft) {
    let root = start(Rules::DAKON, 2, 2);
    let (_, draft) = exact_certificate(&mut Solver::default(), &root, 0);
    assert!(draft.halves.iter().all(|half| half.len() >= 2), "{draft:?}");
    (root, draft)
}

#[test]
fn every_flipped_byte_is_refused() {
    let draft = sample().1;
    let bytes = draft.bytes();
    // The bytes that say where things are (magic, version, the rules name's length, the
    // holes per row, the sections' compressed lengths) may be refused for what they say; any
    // other flip is damage that only the file checksum sees.
    let lower_length = header_length(&draft) + 8;
    let lower_frame = u64::from_le_bytes(bytes[lower_length..lower_length + 8].try_into().expect("8 bytes"));
    let upper_length = lower_length + 16 + lower_frame as usize + 8;
    let structural = |at: usize| {
        at <= 12 || at == 18 || (lower_length..lower_length + 8).contains(&at) || (upper_length..upper_length + 8).contains(&at)
    };
    let stated = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    for at in 0..bytes.len() {
        for bit in [0x01, 0x80] {
            let mut flipped = bytes.clone();
            flipped[at] ^= bit;
            let message = refusal(&flipped);
            if !structural(at) {
                let stated = u64::from_le_bytes(flipped[bytes.len() - 8..].try_into().expect("8 bytes"));
                let expected = format!("file checksum {stated:016x} at byte {}, expected ", bytes.len() - 8);
                assert!(message.starts_with(&expected), "byte {at}: {message}");
            }
        }
    }
    assert_ne!(stated, 0);
}

#[test]
fn every_truncation_is_refused() {
    let bytes = sample().1.bytes();
    for length in 0..bytes.len() {
        let message = refusal(&bytes[..length]);
        let expected = if length < 8 { "not a certificate" } else { "truncated or damaged: " };
        assert!(message.starts_with(expected), "{length}: {message}");
    }
    assert_eq!(refusal(&bytes[..20]), "truncated or damaged: the root holes at byte 19 needs 4 bytes, but the file ends 1 bytes later");
}

#[test]
fn another_boards_header_is_refused() {
    // The header of a 3-hole certificate with the sections of a 2-hole one, checksum redone.
    let (_, two) = sample();
    let three_root = start(Rules::DAKON, 3, 1);
    let (_, three) = exact_certificate(&mut Solver::default(), &three_root, 0);
    let two_bytes = two.bytes();
    let three_bytes = three.bytes();
    let mut mixed = three_bytes[..header_length(&three)].to_vec();
    mixed.extend(&two_bytes[header_length(&two)..two_bytes.len() - 8]);
    let message = refusal(&with_checksum(mixed));
    assert!(message.starts_with("the lower half's zstd frame at byte "), "{message}");
    assert!(
        message.contains(&format!(
            "states a content size of {} bytes, expected {} ({} entries of 7 bytes)",
            two.halves[0].len() * 5,
            two.halves[0].len() * 7,
            two.halves[0].len()
        )),
        "{message}"
    );
}

#[test]
fn malformed_headers_are_refused_with_what_was_expected() {
    let (root, draft) = sample();
    let cases: Vec<(Draft, &str)> = vec![
        (Draft { version: 3, ..draft.clone() }, "format version 3, expected 1 or 2"),
        (
            Draft { rules: b"oware".to_vec(), ..draft.clone() },
            "unknown rules \"oware\" at byte 13, expected dakon, dakon:<options> (options nembak-lander, no-mikul, skip-origin, no-first-turn-capture, or traditional), kalah or kalah-empty-capture",
        ),
        (Draft { rules: b"dak\xffn".to_vec(), ..draft.clone() }, "unknown rules \"dak\\xffn\" at byte 13"),
        (Draft { rules: vec![], ..draft.clone() }, "rules name length 0 at byte 12, expected 1 to 32"),
        (Draft { rules: vec![b'a'; 33], ..draft.clone() }, "rules name length 33 at byte 12, expected 1 to 32"),
        (Draft { holes_per_row: 0, holes: vec![], ..draft.clone() }, "0 holes per row at byte 18, expected 1 to 9"),
        (Draft { holes_per_row: 10, holes: vec![1; 20], ..draft.clone() }, "10 holes per row at byte 18, expected 1 to 9"),
        (Draft { player: 2, ..draft.clone() }, "the root position at byte 19 has player 2 to move, expected 0 or 1"),
        (
            Draft { holes: vec![200, 0, 0, 0], stores: [50, 6], ..draft.clone() },
            "the root position at byte 19 has 256 seeds, expected at most 255",
        ),
        (Draft { lower: 3, upper: 2, ..draft.clone() }, "claimed lower bound 3 above the upper bound 2, expected lower <= upper"),
        (Draft { small_seeds: 65, ..draft.clone() }, "L = 65, expected at most 64 for 2 holes a row"),
        (Draft { holes_per_row: 6, holes: vec![1; 12], small_seeds: 30, ..draft.clone() }, "L = 30, expected at most 29 for 6 holes a row"),
    ];
    for (tampered, expected) in cases {
        let message = refusal(&tampered.bytes());
        assert!(message.starts_with(expected), "expected {expected:?}, found {message:?}");
    }
    let mut foreign = draft.bytes();
    foreign[..8].copy_from_slice(b"DKNTABLE");
    assert_eq!(
        refusal(&foreign),
        "not a certificate: the file starts with [44 4B 4E 54 41 42 4C 45], expected the magic [44 4B 4E 43 45 52 54 00] (\"DKNCERT\\0\")"
    );
    let mut longer = draft.bytes();
    longer.push(0);
    let length = longer.len();
    assert_eq!(
        refusal(&longer),
        format!("the file has {length} bytes, but its checksum ends at byte {}: expected nothing after it", length - 1)
    );
    assert_eq!(root.holes_per_row(), 2);
}

#[test]
fn malformed_entries_are_refused_naming_the_entry() {
    let (root, draft) = sample();
    let mut swapped = draft.clone();
    swapped.halves[0].swap(0, 1);
    let mut repeated = draft.clone();
    repeated.halves[1].insert(1, repeated.halves[1][0].clone());
    let mut small = draft.clone();
    small.halves[0].insert(0, (vec![0, 0, 0, 0], 3));
    let first_seeds: u8 = draft.halves[0][0].0.iter().sum();
    let mut small_for_l = draft.clone();
    small_for_l.small_seeds = first_seeds;
    let small_for_l_message =
        format!("the lower half: entry 0 holds {first_seeds} seeds, expected more than L = {first_seeds} and at most 255");
    let mut too_many_seeds = draft.clone();
    too_many_seeds.halves[0].push((vec![255, 1, 0, 0], 2));
    let too_many = format!("the lower half: entry {} holds 256 seeds, expected more than L = 0 and at most 255", draft.halves[0].len());
    let cases = [
        (swapped, "the lower half: entry 1 does not come after entry 0: expected boards strictly increasing"),
        (repeated, "the upper half: entry 1 does not come after entry 0: expected boards strictly increasing"),
        (small, "the lower half: entry 0 holds 0 seeds, expected more than L = 0 and at most 255"),
        (small_for_l, &small_for_l_message),
        (too_many_seeds, &too_many),
    ];
    for (tampered, expected) in cases {
        let message = refusal(&tampered.bytes());
        assert!(message.contains(expected), "expected {expected:?}, found {message:?}");
    }
    assert_eq!(root.seeds_on_board(), 8);
}

/// The bytes of `draft` with its upper half's section replaced by `section`.
fn with_upper_section(draft: &Draft, upper: Vec<u8>) -> Vec<u8> {
    let mut emptied = draft.clone();
    emptied.halves[1].clear();
    let bytes = emptied.bytes();
    let empty_upper = section(0, &[], &frame(&[])).len();
    let mut body = bytes[..bytes.len() - 8 - empty_upper].to_vec();
    body.extend(upper);
    with_checksum(body)
}

/// `frame` with a one-byte dictionary ID (7) written into its header.
fn with_dictionary_id(frame: &[u8]) -> Vec<u8> {
    let descriptor = frame[4];
    assert_eq!(descriptor & 0b11, 0, "no dictionary ID yet");
    let single_segment = descriptor & 0b10_0000 != 0;
    let at = 5 + usize::from(!single_segment);
    let mut with_id = frame.to_vec();
    with_id[4] = descriptor | 0b01;
    with_id.insert(at, 7);
    with_id
}

/// A skippable frame of `length` content bytes.
fn skippable(length: u32) -> Vec<u8> {
    let mut frame = 0x184D_2A53u32.to_le_bytes().to_vec();
    frame.extend(length.to_le_bytes());
    frame.extend(vec![0; length as usize]);
    frame
}

#[test]
fn malformed_sections_are_refused() {
    let (_, draft) = sample();
    let entries: Vec<u8> = draft.halves[1].iter().flat_map(|(board, hole)| board.iter().copied().chain([*hole])).collect();
    let whole = frame(&entries);
    let count = draft.halves[1].len() as u64;
    let mut with_junk = whole.clone();
    with_junk.extend([1, 2, 3]);
    let mut two_frames = whole.clone();
    two_frames.extend(frame(&[]));
    let mut after_skippable = skippable(4);
    after_skippable.extend(&whole);
    let mut wrong_checksum = section(count, &entries, &whole);
    wrong_checksum[16] ^= 1;
    let (bytes, fewer) = (5 * count, 5 * (count - 1));
    let cases = [
        (
            section(count + 1, &entries, &whole),
            format!("states a content size of {bytes} bytes, expected {} ({} entries of 5 bytes)", bytes + 5, count + 1),
        ),
        (
            section(count - 1, &entries, &whole),
            format!("states a content size of {bytes} bytes, expected {fewer} ({} entries of 5 bytes)", count - 1),
        ),
        (section(count, &entries, b"not zstd at all"), "starts with [6E, 6F, 74, 20], expected the zstd frame magic".into()),
        (section(count, &entries, &whole[..whole.len() - 2]), "does not decode".into()),
        (
            section(count, &entries, &with_junk),
            format!("ends after {} bytes, but the compressed length is {}: expected nothing after the frame", whole.len(), whole.len() + 3),
        ),
        (section(count, &entries, &two_frames), format!("ends after {} bytes", whole.len())),
        // C = 0: even a half with no entries has its frame.
        (section(count, &entries, &[]), "is empty (compressed length 0)".into()),
        (section(0, &[], &[]), "is empty (compressed length 0)".into()),
        (section(count, &entries, &after_skippable), "is a skippable frame".into()),
        (section(0, &[], &skippable(0)), "is a skippable frame".into()),
        (
            section(count, &entries, &zstd::encode_all(&entries[..], 3).expect("zstd")),
            format!("does not state its content size, expected it to state {bytes}"),
        ),
        (section(count, &entries, &with_dictionary_id(&whole)), "needs dictionary 7, expected no dictionary".into()),
        (wrong_checksum, "the upper half's entries checksum ".into()),
        (
            section(u64::MAX, &entries, &whole),
            "the upper half has 18446744073709551615 entries of 5 bytes, more than the checker accepts".into(),
        ),
        (section(1 << 40, &entries, &whole), "more than the checker accepts (4294967296 bytes)".into()),
    ];
    for (upper, expected) in cases {
        let message = refusal(&with_upper_section(&draft, upper));
        assert!(message.contains(&expected), "expected {expected:?}, found {message:?}");
    }
    assert!(checked(&with_upper_section(&draft, section(count, &entries, &whole))).holds(), "the untampered section");
    // An empty half's frame of no bytes (content size 0) is well formed.
    assert_eq!(checked(&with_upper_section(&draft, section(0, &[], &frame(&[])))).upper.entries, 0);
    // A zip bomb: a frame of zeros far longer than the entry count says is refused by its
    // header, before anything is allocated.
    let zeros = zstd::bulk::compress(&vec![0u8; 50 << 20][..], 1).expect("zstd");
    let message = refusal(&with_upper_section(&draft, section(count, &entries, &zeros)));
    assert!(message.contains(&format!("states a content size of {} bytes, expected {bytes}", 50 << 20)), "{message}");
    // The same file with a rewritten checksum is judged on its content.
    assert!(checked(&rechecksummed(&draft.bytes())).holds());
}

#[test]
fn positions_of_six_holes_left_to_the_tables_get_their_exact_values() {
    let mut solver = Solver::default();
    for rules in [Rules::Kalah, Rules::DAKON] {
        let mut position = start(rules, 6, 1);
        // A few moves in, with player 1 to move as often as player 0.
        for _ in 0..4 {
            let (value, draft) = exact_certificate(&mut solver, &position, 20);
            assert!(draft.halves.iter().all(Vec::is_empty), "at most 12 seeds: no entries");
            let report = checked(&draft.bytes());
            assert!(report.holds() && report.solved_small > 0, "{position}:\n{report}");
            let raised = Draft { lower: value as i32 + 2, upper: value as i32 + 2, ..draft };
            let failure = checked(&raised.bytes()).lower.failure.expect("a raised claim fails");
            assert_eq!(failure.shortfall, Shortfall::SmallPosition(value), "{position}");
            position = position.play(*position.legal_moves().last().expect("a move")).expect("legal");
        }
    }
}
