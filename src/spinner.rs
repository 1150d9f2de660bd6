//! A spinner on stderr for searches that take more than a second.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A spinner that stays hidden for the first second, then shows what is being done and for how
/// long. It disappears when dropped.
pub struct Spinner {
    bar: ProgressBar,
}

impl Spinner {
    /// Starts a spinner for a search, `message` (shown after one second).
    pub fn start(message: &str) -> Spinner {
        Spinner::with_ctrl_c(message, "stops with the bounds proven so far")
    }

    /// Starts a spinner for `message` that says what Ctrl-C does.
    pub fn with_ctrl_c(message: &str, ctrl_c: &str) -> Spinner {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(ProgressStyle::with_template(&format!("{{spinner}} {{msg}} {{elapsed}} (Ctrl-C {ctrl_c})")).expect("valid template"));
        bar.set_message(message.to_string());
        let shown = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !shown.is_finished() {
                shown.set_draw_target(ProgressDrawTarget::stderr());
                shown.enable_steady_tick(Duration::from_millis(120));
            }
        });
        Spinner { bar }
    }
}

impl Spinner {
    /// Replaces what the spinner says is being done (progress figures, for example).
    pub fn set_message(&self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    /// Prints `line` on stderr, above the spinner when it is shown.
    pub fn log(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
