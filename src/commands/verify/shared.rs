//! `dakon verify` under MPI: rank 0 hands the boards out to whichever rank is free (itself
//! included) and takes each result in board order, as the one-process loop would.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::board::{Board, Row};
use super::record;
use crate::cli_error::CliError;
use crate::cluster::{self, Cluster};
use crate::search_args::interrupt_flag;

/// Rank 0's side: gives the other ranks `todo`, decides the boards on all ranks with
/// `verify`, and calls `take(board, result)` for each in the order of `todo`, stopping at
/// the first error it returns (no new board is handed out after it, or after Ctrl-C).
///
/// # Errors
/// The first error of `take`.
pub fn decide_on_all_ranks(
    cluster: &Cluster,
    todo: &[Board],
    verify: impl Fn(Board) -> Result<Row, CliError> + Sync,
    take: impl FnMut(Board, Result<Row, CliError>) -> Result<(), CliError> + Send,
) -> Result<(), CliError> {
    cluster::broadcast_bytes(cluster, encode_boards(todo));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let hand_out = || {
        if interrupt_flag().load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return None;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        (index < todo.len()).then_some(index)
    };
    let (tx, rx) = mpsc::channel::<(usize, Result<Row, CliError>)>();
    std::thread::scope(|scope| {
        let (own, verify, hand_out) = (tx.clone(), &verify, &hand_out);
        scope.spawn(move || {
            while let Some(index) = hand_out() {
                if own.send((index, verify(todo[index]))).is_err() {
                    return;
                }
            }
        });
        let stop = &stop;
        let taker = scope.spawn(move || in_order(rx, todo, take).inspect_err(|_| stop.store(true, Ordering::Relaxed)));
        cluster::serve_jobs(
            cluster,
            || hand_out().map(|i| i as u64),
            |job, bytes| {
                let _ = tx.send((job as usize, decode_result(&bytes))); // the taker stopped: it says why
            },
        );
        drop(tx);
        taker.join().expect("the taker does not panic")
    })
}

/// A worker rank's side: decides the boards rank 0 hands out with `verify`, one at a time.
pub fn decide_for_rank_0(cluster: &Cluster, verify: impl Fn(Board) -> Result<Row, CliError> + Sync) {
    let todo = decode_boards(&cluster::broadcast_bytes(cluster, Vec::new()));
    cluster::work_jobs(cluster, 1, |job| encode_result(&verify(todo[job as usize])));
}

/// Calls `take` on the results in the order of `todo` as they arrive.
fn in_order(
    rx: mpsc::Receiver<(usize, Result<Row, CliError>)>,
    todo: &[Board],
    mut take: impl FnMut(Board, Result<Row, CliError>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut pending = BTreeMap::new();
    let mut taken = 0;
    for (index, result) in rx {
        pending.insert(index, result);
        while let Some(result) = pending.remove(&taken) {
            take(todo[taken], result)?;
            taken += 1;
        }
    }
    Ok(())
}

fn encode_boards(boards: &[Board]) -> Vec<u8> {
    boards.iter().flat_map(|b| [(b.holes as u64).to_le_bytes(), u64::from(b.seeds).to_le_bytes()].concat()).collect()
}

fn decode_boards(bytes: &[u8]) -> Vec<Board> {
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    bytes.chunks_exact(16).map(|b| Board { holes: word(&b[..8]) as usize, seeds: word(&b[8..]) as u32 }).collect()
}

/// A board's result as bytes: a tag (0: the record follows, 1: bad input, 2: a failure),
/// then the record (`record::json`) or the message.
fn encode_result(result: &Result<Row, CliError>) -> Vec<u8> {
    let (tag, text) = match result {
        Ok(row) => (0, record::json(row)),
        Err(CliError::Input(message)) => (1, message.clone()),
        Err(CliError::Failure(message) | CliError::FailedOutcome(message)) => (2, message.clone()),
    };
    [vec![tag], text.into_bytes()].concat()
}

fn decode_result(bytes: &[u8]) -> Result<Row, CliError> {
    let (&tag, text) = bytes.split_first().ok_or_else(|| CliError::Failure("a rank sent an empty result".into()))?;
    let text = String::from_utf8_lossy(text).into_owned();
    match tag {
        0 => record::parse(&text).map_err(|e| CliError::Failure(format!("a rank sent a damaged record: {e}"))),
        1 => Err(CliError::Input(text)),
        _ => Err(CliError::Failure(text)),
    }
}
