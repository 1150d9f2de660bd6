//! Jobs handed out by rank 0 to whichever rank is free: the positions of `dakon batch` and
//! the boards of `dakon verify`. Rank 0 also works on them with its own threads; the answers
//! travel back to it as opaque bytes, and it writes them.

use std::sync::mpsc;

use mpi::point_to_point::{Destination, Source};
use mpi::topology::Communicator;

use crate::cluster::{Cluster, IDLE_POLL};

/// The first word of a message to rank 0: a job number (an answer to it follows), or one of
/// these.
const FIRST_REQUEST: u64 = u64::MAX;
const WORKER_DONE: u64 = u64::MAX - 1;
/// Rank 0's reply when no job is left.
const NO_JOB: u64 = u64::MAX;

/// Rank 0's side: until every other rank has finished, answers each request with the next job
/// `next` gives (`None`: no job left, or the run is stopping) and passes each job's answer to
/// `deliver(job, bytes)`. Call it on the thread that joined the job, while rank 0's own
/// workers take jobs from the same `next`.
pub fn serve_jobs(cluster: &Cluster, next: impl Fn() -> Option<u64>, mut deliver: impl FnMut(u64, Vec<u8>)) {
    let world = cluster.world();
    let mut finished = 0;
    while finished < cluster.size() - 1 {
        let Some(status) = world.any_process().immediate_probe() else {
            std::thread::sleep(IDLE_POLL);
            continue;
        };
        let worker = world.process_at_rank(status.source_rank());
        let (message, _) = worker.receive_vec::<u8>();
        let (head, answer) = message.split_at(8);
        match u64::from_le_bytes(head.try_into().expect("8 bytes")) {
            WORKER_DONE => {
                finished += 1;
                continue;
            }
            FIRST_REQUEST => {}
            job => deliver(job, answer.to_vec()),
        }
        worker.send(&next().unwrap_or(NO_JOB));
    }
}

/// A worker rank's side: `slots` threads each solve one job at a time (`solve(job)` gives the
/// answer's bytes) until rank 0 has none left. This thread (the one that joined the job)
/// does all the messaging.
pub fn work_jobs(cluster: &Cluster, slots: usize, solve: impl Fn(u64) -> Vec<u8> + Sync) {
    let root = cluster.world().process_at_rank(0);
    let ask = |head: u64, answer: &[u8]| -> Option<u64> {
        let mut message = head.to_le_bytes().to_vec();
        message.extend_from_slice(answer);
        root.send(&message[..]);
        let (job, _) = root.receive::<u64>();
        (job != NO_JOB).then_some(job)
    };
    let (answers_tx, answers) = mpsc::channel::<(usize, u64, Vec<u8>)>();
    std::thread::scope(|scope| {
        let mut jobs: Vec<Option<mpsc::Sender<u64>>> = Vec::new();
        for slot in 0..slots.max(1) {
            let (job_tx, job_rx) = mpsc::channel::<u64>();
            let answers_tx = answers_tx.clone();
            let solve = &solve;
            scope.spawn(move || {
                for job in job_rx {
                    if answers_tx.send((slot, job, solve(job))).is_err() {
                        return;
                    }
                }
            });
            jobs.push(ask(FIRST_REQUEST, &[]).map(|job| {
                job_tx.send(job).expect("the slot's thread waits for it");
                job_tx
            }));
        }
        drop(answers_tx);
        while jobs.iter().any(Option::is_some) {
            let (slot, job, answer) = answers.recv().expect("an open slot's thread answers");
            match ask(job, &answer) {
                Some(next) => jobs[slot].as_ref().expect("the slot is open").send(next).expect("the slot's thread waits for it"),
                None => jobs[slot] = None, // its thread ends when its sender is dropped
            }
        }
    });
    root.send(&WORKER_DONE.to_le_bytes()[..]);
}

/// `bytes` of rank 0, on every rank (the argument is ignored elsewhere).
pub fn broadcast_bytes(cluster: &Cluster, bytes: Vec<u8>) -> Vec<u8> {
    use mpi::collective::Root;
    let root = cluster.world().process_at_rank(0);
    let mut len = bytes.len() as u64;
    root.broadcast_into(&mut len);
    let mut buffer = if cluster.is_root() { bytes } else { vec![0u8; len as usize] };
    // MPI counts are 32-bit: large inputs go in pieces.
    for piece in buffer.chunks_mut(1 << 30) {
        root.broadcast_into(piece);
    }
    buffer
}
