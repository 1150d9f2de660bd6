//! Long calls: the work runs on a thread of its own while the calling thread releases the
//! GIL, wakes every [`TICK`] to look for Ctrl-C (Python's signal handlers run only on the
//! main thread, between bytecodes) and to report progress.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use pyo3::prelude::*;

/// How often the waiting thread looks for Ctrl-C and reports progress.
pub const TICK: Duration = Duration::from_millis(100);

/// What [`run`] came back with.
pub enum Finished<T> {
    /// The work ended by itself.
    Done(T),
    /// Ctrl-C (or another signal handler's exception) stopped it: the work ended early, after
    /// `stop` was raised, with this result; the exception is to be raised.
    Interrupted(T, PyErr),
}

/// Runs `work` on a new thread with the GIL released, calling `tick` with the GIL every
/// [`TICK`] until it ends. When a signal handler raises (Ctrl-C: `KeyboardInterrupt`), raises
/// `stop`, which the work must poll, and waits for the work to end.
///
/// # Errors
/// None of its own: an exception of a signal handler or of `tick` comes back in
/// [`Finished::Interrupted`], after the work ended (it is stopped first).
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<Finished<T>> {
    // The work's result, and the signal that it is there.
    let slot: (Mutex<Option<T>>, Condvar) = (Mutex::new(None), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let value = work();
            *slot.0.lock().expect("the slot is never poisoned") = Some(value);
            slot.1.notify_all();
        });
        let mut pending: Option<PyErr> = None;
        loop {
            let ready = py.detach(|| {
                let guard = slot.0.lock().expect("the slot is never poisoned");
                let (mut guard, _) = slot.1.wait_timeout_while(guard, TICK, |v| v.is_none()).expect("the slot is never poisoned");
                guard.take()
            });
            if let Some(value) = ready {
                return Ok(match pending {
                    None => Finished::Done(value),
                    Some(e) => Finished::Interrupted(value, e),
                });
            }
            // Finished without a result (the next turn of the loop takes one that came late).
            if worker.is_finished() && slot.0.lock().expect("the slot is never poisoned").is_none() {
                panic!("the worker thread of a search panicked");
            }
            if pending.is_some() {
                continue;
            }
            let event = py.check_signals().and_then(|()| tick(py));
            if let Err(e) = event {
                stop.store(true, Ordering::Relaxed);
                pending = Some(e);
            }
        }
    })
}
