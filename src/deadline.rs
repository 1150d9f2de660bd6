//! A stop flag raised at a deadline or by Ctrl-C, for work that takes only a flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How often the watchdog looks at the clock and at Ctrl-C.
const TICK: Duration = Duration::from_millis(50);

/// Runs `work` with a flag that is raised at `deadline` or as soon as `interrupt` is.
pub fn until<T>(deadline: Instant, interrupt: &Arc<AtomicBool>, work: impl FnOnce(Arc<AtomicBool>) -> T) -> T {
    let flag = Arc::new(AtomicBool::new(false));
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let (watched, interrupt) = (flag.clone(), interrupt.clone());
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(TICK) {
                if Instant::now() >= deadline || interrupt.load(Ordering::SeqCst) {
                    watched.store(true, Ordering::SeqCst);
                    return;
                }
            }
        });
        let result = work(flag.clone());
        drop(done);
        result
    })
}
