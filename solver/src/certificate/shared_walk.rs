//! One half's walk on several threads: the top of its tree on the calling thread until there
//! are enough subtrees to share, then the subtrees taken one at a time by workers, each with a
//! chooser of its own over the half's one map of choices.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::choose::Chooser;
use super::walk::walk;
use super::ExtractError;
use crate::dakon::Position;
use crate::solvable::Solvable;

/// How many subtrees per thread the top of the tree is cut into: enough that a worker that
/// finishes its share early finds more to take.
const SUBTREES_PER_THREAD: usize = 64;

/// Walks the check of `chooser`'s half from `root`, where the owner needs a future gain of
/// `need`, on `threads` threads, choosing the owner's moves; leaves in `chooser` every move
/// chosen and the work of every thread.
///
/// The workers share the half's choices: a worker that meets a board another has chosen for
/// with at least its need goes no further (the other walks the subtree below), and where two
/// choose for the same board the choice proven for the higher need stays, whose worker walks
/// the subtree below it with that need. Every choice is made before the walk below it, and
/// every walk ends before this returns, so every board the final pass reaches has a move
/// proven for the need it is reached with, as on one thread.
///
/// # Errors
/// The first error of the top or of a worker (a limit stopped a test, or no move meets a need).
pub(super) fn walk_shared<R>(chooser: &mut Chooser<R>, root: &Position, need: i32, threads: usize) -> Result<(), ExtractError>
where
    R: Solvable<Position = Position>,
{
    let (rules, half) = (chooser.solver().rules(), chooser.half());
    if threads <= 1 {
        return walk(rules, half, root, need, |position, need| chooser.at_owner(position, need));
    }
    let subtrees = top(chooser, root, need, threads * SUBTREES_PER_THREAD)?;
    let next = AtomicUsize::new(0);
    let workers: Vec<Result<Chooser<R>, ExtractError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let mut worker = chooser.fork();
                let (subtrees, next) = (&subtrees, &next);
                scope.spawn(move || {
                    while let Some(&(position, need)) = subtrees.get(next.fetch_add(1, Ordering::Relaxed)) {
                        walk(rules, half, &position, need, |position, need| worker.at_owner(position, need))?;
                    }
                    Ok(worker)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    for worker in workers {
        chooser.add_work(worker?);
    }
    Ok(())
}

/// The top of the tree, walked breadth first on the calling thread as a check walks it, until
/// at least `wanted` positions are left to walk or none: those positions with their needs.
///
/// # Errors
/// As [`Chooser::at_owner`].
fn top<R>(chooser: &mut Chooser<R>, root: &Position, need: i32, wanted: usize) -> Result<Vec<(Position, i32)>, ExtractError>
where
    R: Solvable<Position = Position>,
{
    let (rules, half) = (chooser.solver().rules(), chooser.half());
    let mut waiting = VecDeque::from([(*root, need)]);
    while waiting.len() < wanted {
        let Some((position, need)) = waiting.pop_front() else { break };
        if half.stops_at(rules, &position, need) {
            continue;
        }
        if position.mover() == half.owner {
            if let Some(mv) = chooser.at_owner(&position, need)? {
                let step = rules.play(&position, mv);
                waiting.push_back((step.next, need - step.gain));
            }
        } else {
            for &mv in rules.legal_moves(&position).as_slice() {
                // The other side's gain is the owner's loss.
                let step = rules.play(&position, mv);
                waiting.push_back((step.next, need + step.gain));
            }
        }
    }
    Ok(waiting.into())
}
