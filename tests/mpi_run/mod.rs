//! Running `dakon` under Open MPI's `mpirun` from the MPI tests.

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// `dakon args` as one process, with an empty default tables directory.
pub fn dakon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).env("DAKON_TABLES", no_tables()).output().expect("dakon runs")
}

fn no_tables() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-tables");
    std::fs::create_dir_all(&dir).expect("a directory for the tests");
    dir
}

/// `mpirun` for `ranks` ranks of `program`: oversubscribed (the CI machine has 2 cores),
/// allowed as root (the CI runs as root).
fn mpirun_command(ranks: usize, program: &str, args: &[&str]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "--bind-to", "none", "-np", &ranks.to_string(), program])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("DAKON_TABLES", no_tables());
    command
}

/// `mpirun -np ranks dakon args`, to its end.
pub fn mpirun(ranks: usize, args: &[&str]) -> Output {
    mpirun_command(ranks, env!("CARGO_BIN_EXE_dakon"), args).output().expect("mpirun runs (install openmpi-bin)")
}

/// `mpirun -np ranks program args`, to its end.
pub fn mpirun_program(ranks: usize, program: &str, args: &[&str]) -> Output {
    mpirun_command(ranks, program, args).output().expect("mpirun runs (install openmpi-bin)")
}

/// `mpirun -np ranks dakon args`, started, its output piped.
pub fn spawn_mpirun(ranks: usize, args: &[&str]) -> Child {
    mpirun_command(ranks, env!("CARGO_BIN_EXE_dakon"), args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun runs (install openmpi-bin)")
}

/// The process id of rank `rank` among the children of `mpirun` (its `OMPI_COMM_WORLD_RANK`).
pub fn rank_pid(mpirun: u32, rank: usize) -> Option<u32> {
    let wanted = format!("OMPI_COMM_WORLD_RANK={rank}");
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // The parent is the second field after the command name, which ends with ')'.
        let parent: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        let environ = std::fs::read(entry.path().join("environ")).ok()?;
        (parent == mpirun && environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes())).then_some(pid)
    })
}

/// An empty directory `test/name` of the tests' temporary directory.
pub fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a directory for the test");
    dir
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Kills rank `rank` of the job `child` with SIGKILL as soon as `ready()` holds, and waits
/// for the job's end. Panics if the job ends first (the test's work is too small) or does
/// not get ready within two minutes.
pub fn kill_rank_when(mut child: Child, rank: usize, ready: impl Fn() -> bool) -> Output {
    let started = std::time::Instant::now();
    loop {
        if ready() {
            if let Some(pid) = rank_pid(child.id(), rank) {
                assert!(Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap().success());
                break;
            }
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "the job did not get going");
        assert!(child.try_wait().unwrap().is_none(), "the job ended before rank {rank} could be killed: give it more work");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.wait_with_output().unwrap()
}
