//! Running `dakon` under Open MPI's `mpirun` from the MPI tests.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

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
/// allowed as root (the CI runs as root), and started without probing hardware a loopback
/// job never uses: hwloc's PCI discovery (slow config-space reads in a virtual machine), the
/// high-speed network layers (the `ob1` layer over shared memory is what runs here anyway)
/// and the TCP transport, whose set-up and tear-down take most of a short job's time.
pub fn mpirun_command(ranks: usize, program: &str, args: &[&str]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--oversubscribe", "--bind-to", "none", "-np", &ranks.to_string(), program])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("HWLOC_COMPONENTS", "-linuxio,-pci")
        .env("OMPI_MCA_pml", "ob1")
        .env("OMPI_MCA_btl", "self,vader")
        .env("DAKON_TABLES", no_tables());
    command
}

/// `mpirun -np ranks dakon args`, to its end.
pub fn mpirun(ranks: usize, args: &[&str]) -> Output {
    mpirun_program(ranks, env!("CARGO_BIN_EXE_dakon"), args)
}

/// `mpirun -np ranks program args`, to its end (see [`run_to_end`]).
pub fn mpirun_program(ranks: usize, program: &str, args: &[&str]) -> Output {
    run_to_end(|| mpirun_command(ranks, program, args))
}

/// The `mpirun` job that `command` makes, to its end: run again once, from a new command, if
/// `mpirun` got stuck in its teardown (see [`STUCK_AFTER`]), whose status is then lost; a
/// job's own hang still hangs.
pub fn run_to_end(command: impl Fn() -> Command) -> Output {
    let run = || wait_or_stuck(spawn_piped(command()));
    match run() {
        (_, true) => {
            eprintln!("the job is run again: its mpirun got stuck after its ranks ended");
            run().0
        }
        (output, false) => output,
    }
}

/// `mpirun -np ranks dakon args`, started, its output piped.
pub fn spawn_mpirun(ranks: usize, args: &[&str]) -> Child {
    spawn_piped(mpirun_command(ranks, env!("CARGO_BIN_EXE_dakon"), args))
}

/// The `mpirun` job `command`, started with no input and its output piped.
fn spawn_piped(mut command: Command) -> Child {
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("mpirun runs (install openmpi-bin)")
}

/// The ranks of the job of `mpirun` that are still running, as (rank, process id): its
/// children with an `OMPI_COMM_WORLD_RANK` (an ended one, a zombie, shows no environment).
fn running_ranks(mpirun: u32) -> impl Iterator<Item = (usize, u32)> {
    std::fs::read_dir("/proc").into_iter().flatten().flatten().filter_map(move |entry| {
        let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        // The parent is the second field after the command name, which ends with ')'.
        let parent: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
        if parent != mpirun {
            return None;
        }
        let environ = std::fs::read(entry.path().join("environ")).ok()?;
        let rank =
            environ.split(|&b| b == 0).find_map(|v| std::str::from_utf8(v.strip_prefix(b"OMPI_COMM_WORLD_RANK=")?).ok()?.parse().ok())?;
        Some((rank, pid))
    })
}

/// The process id of rank `rank` among the children of `mpirun` (its `OMPI_COMM_WORLD_RANK`).
pub fn rank_pid(mpirun: u32, rank: usize) -> Option<u32> {
    running_ranks(mpirun).find_map(|(r, pid)| (r == rank).then_some(pid))
}

/// The processor time rank `rank` of the job of `mpirun` has used so far (user and system),
/// zero before it runs: a measure of its progress that a loaded machine does not stretch, as
/// it does the wall time.
pub fn rank_cpu(mpirun: u32, rank: usize) -> Duration {
    let ticks = rank_pid(mpirun, rank).and_then(|pid| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // utime and stime are the 12th and 13th fields after the command name.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    });
    // Linux counts them in USER_HZ, 100 a second.
    Duration::from_millis(ticks.unwrap_or(0) * 10)
}

/// Kills rank `rank` of the job `child` (from [`spawn_mpirun`]) once its standard error holds
/// `text` `times` times, then waits for the job: a point of progress the program itself says,
/// which neither a loaded machine nor a slow start of MPI moves.
pub fn kill_rank_when_said(mut child: Child, rank: usize, text: &str, times: usize) -> Output {
    let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut pipe = child.stderr.take().expect("stderr piped");
    let sink = said.clone();
    let reader = std::thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = pipe.read(&mut chunk) {
            sink.lock().unwrap().extend_from_slice(&chunk[..n]);
        }
    });
    let count = || String::from_utf8_lossy(&said.lock().unwrap()).matches(text).count();
    let mut out = kill_rank_when(child, rank, || count() >= times);
    reader.join().unwrap();
    out.stderr = std::mem::take(&mut *said.lock().unwrap());
    out
}

/// How long `mpirun` may outlive every rank of its job before it is taken to be stuck. Open MPI
/// 4.1.4's `mpirun` (Debian 12, PMIx 4.2.2) sometimes deadlocks in its own teardown after a rank
/// was killed, every rank gone: its main thread waits in `PMIx_server_finalize` for the PMIx
/// progress thread, which waits for a lock. Measured here: 2 of 60 killed-rank verify jobs hung
/// so, with PMIx's shared-memory store or without it (`PMIX_MCA_gds=hash`), and 3 of the 60
/// `mpirun`s died of SIGSEGV instead.
const STUCK_AFTER: Duration = Duration::from_secs(20);

/// How long a launcher whose ranks were never seen (they may have started and ended between
/// two looks) is given before it is taken to be stuck.
const STARTED_WITHIN: Duration = Duration::from_secs(300);

/// Waits for the end of the job `child` (its output piped) and returns its output. An
/// `mpirun` still there [`STUCK_AFTER`] its last rank ended is killed, and says so on the
/// test's stderr; its status is then a failure. A rank that does not end is waited for: a
/// hang of `dakon` is not excused.
pub fn wait_for_job(child: Child) -> Output {
    wait_or_stuck(child).0
}

/// [`wait_for_job`], and whether `mpirun` had to be killed as stuck.
fn wait_or_stuck(mut child: Child) -> (Output, bool) {
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("mpirun's output");
            bytes
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("stdout piped")));
    // None when the caller reads the standard error itself (see `kill_rank_when_said`).
    let stderr = child.stderr.take().map(|pipe| read_all(Box::new(pipe)));
    let (mut ranks_seen, mut ranks_gone_since) = (false, None);
    let (status, stuck) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status, false);
        }
        if running_ranks(child.id()).next().is_some() {
            (ranks_seen, ranks_gone_since) = (true, None);
        } else {
            // A loaded machine may take long to start the ranks: until they are seen, only a
            // launcher without ranks for much longer is taken as stuck.
            let patience = if ranks_seen { STUCK_AFTER } else { STARTED_WITHIN };
            if ranks_gone_since.get_or_insert_with(Instant::now).elapsed() > patience {
                eprintln!("mpirun (pid {}) outlived its ranks by {patience:?}, stuck in its teardown: killed", child.id());
                child.kill().unwrap();
                break (child.wait().unwrap(), true);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (Output { status, stdout: stdout.join().unwrap(), stderr: stderr.map_or_else(Vec::new, |s| s.join().unwrap()) }, stuck)
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
/// for the job's end ([`wait_for_job`]). Panics if the job ends first (the test's work is too
/// small) or does not get ready within five minutes (CI runs it beside other tests).
pub fn kill_rank_when(mut child: Child, rank: usize, ready: impl Fn() -> bool) -> Output {
    let started = std::time::Instant::now();
    loop {
        if ready() {
            if let Some(pid) = rank_pid(child.id(), rank) {
                assert!(Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap().success());
                break;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(300), "the job did not get going");
        assert!(child.try_wait().unwrap().is_none(), "the job ended before rank {rank} could be killed: give it more work");
        std::thread::sleep(Duration::from_millis(2));
    }
    wait_for_job(child)
}
