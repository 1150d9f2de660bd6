//! `dakon-check FILE... [--json] [--help]`: see `dakon_check::run`.

fn main() {
    let args: Vec<String> = std::env::args_os().skip(1).map(|arg| arg.to_string_lossy().into_owned()).collect();
    // Stderr unlocked: the progress line is written from another thread while `run` checks.
    std::process::exit(dakon_check::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr()));
}
