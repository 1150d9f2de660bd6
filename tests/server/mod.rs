//! The real `dakon serve` program on a free loopback port, and a plain HTTP client for it: what
//! the server tests share.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use dakon_solver::dakon::Position;
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A running `dakon serve`, stopped when dropped.
pub struct Server {
    child: Option<Child>,
    /// The results database's directory when the test named none (removed when dropped).
    _db_dir: Option<tempfile::TempDir>,
    /// Where it listens, e.g. `http://127.0.0.1:40123/`.
    pub url: String,
    client: reqwest::blocking::Client,
}

/// An answer: the status and the JSON body (`Value::Null` if the body is not JSON).
pub struct Answer {
    pub status: u16,
    pub json: Value,
}

impl Server {
    /// Starts `dakon serve` on a free port of 127.0.0.1 with `args` added (without endgame
    /// tables unless they give `--tables-dir`, with a results database in a temporary
    /// directory of its own unless they give `--db` or `--no-db`), and waits for it to print
    /// where it listens.
    pub fn start(args: &[&str]) -> Server {
        let tables = if args.contains(&"--tables-dir") { None } else { Some("--no-tables") };
        Server::start_command(Command::new(env!("CARGO_BIN_EXE_dakon")), tables, args)
    }

    /// Starts `dakon serve` as [`Server::start`] does, but in `dir`, with `$HOME` and
    /// `$XDG_DATA_HOME` as `env` gives them (unset when absent) and no table flag added: as a
    /// user first runs it.
    pub fn start_as_user(dir: &std::path::Path, env: &[(&str, &std::path::Path)], args: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_dakon"));
        command.current_dir(dir).env_remove("HOME").env_remove("XDG_DATA_HOME").envs(env.iter().map(|(k, v)| (k, v)));
        Server::start_command(command, None, args)
    }

    fn start_command(mut command: Command, tables: Option<&str>, args: &[&str]) -> Server {
        let db_dir = (!args.contains(&"--db") && !args.contains(&"--no-db")).then(|| tempfile::tempdir().unwrap());
        let db: Vec<String> = db_dir.iter().map(|dir| format!("--db={}", dir.path().join("results.db").display())).collect();
        let bind = if args.contains(&"--bind") { None } else { Some(["--bind", "127.0.0.1:0"]) };
        let mut child = command
            .args(["serve", "--json"])
            .args(bind.into_iter().flatten())
            .args(tables)
            .args(db)
            .args(args)
            .env_remove("DAKON_TABLES")
            .env_remove("DAKON_DB")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dakon serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped")).read_line(&mut line).expect("dakon serve prints its settings");
        let settings: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("a JSON line, not {line:?}: {e}"));
        let url = settings["url"].as_str().expect("the settings name the url").to_string();
        Server {
            child: Some(child),
            _db_dir: db_dir,
            url,
            client: reqwest::blocking::Client::builder().timeout(Duration::from_secs(120)).build().unwrap(),
        }
    }

    /// `GET path` with the query `params` (encoded here).
    pub fn get(&self, path: &str, params: &[(&str, &str)]) -> Answer {
        let url = reqwest::Url::parse_with_params(&format!("{}{}", self.url, path.trim_start_matches('/')), params).unwrap();
        self.get_url(url.as_str())
    }

    /// `GET` of a full URL, as given.
    pub fn get_url(&self, url: &str) -> Answer {
        let response = self.client.get(url).send().unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let status = response.status().as_u16();
        let json = response.json().unwrap_or(Value::Null);
        Answer { status, json }
    }

    /// `GET target` (a path with its query, sent as given) with `headers` added, written on a
    /// plain TCP connection: for requests larger than HTTP client libraries send.
    pub fn raw_get(&self, target: &str, headers: &[(&str, &str)]) -> Answer {
        use std::io::{Read, Write};
        let address = self.url.trim_start_matches("http://").trim_end_matches('/');
        let mut stream = std::net::TcpStream::connect(address).expect("the server accepts");
        let mut request = format!("GET {target} HTTP/1.1\r\nhost: {address}\r\nconnection: close\r\n");
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).expect("the request is sent");
        let mut response = Vec::new();
        stream.read_to_end(&mut response).expect("the response is read");
        let response = String::from_utf8_lossy(&response);
        let status = response.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
        let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        Answer { status, json: serde_json::from_str(body).unwrap_or(Value::Null) }
    }

    /// `GET /api/analyse` of `position` with more `params`.
    pub fn analyse(&self, position: &str, params: &[(&str, &str)]) -> Answer {
        let mut all = vec![("position", position)];
        all.extend_from_slice(params);
        self.get("/api/analyse", &all)
    }

    /// `/api/status`.
    pub fn status(&self) -> Value {
        self.get("/api/status", &[]).json
    }

    /// Polls `/api/status` until `done` holds of it, for at most `patience`.
    pub fn wait_for(&self, what: &str, patience: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let started = Instant::now();
        loop {
            let status = self.status();
            if done(&status) {
                return status;
            }
            assert!(started.elapsed() < patience, "waited {patience:?} for {what}; status: {status}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The process id of the program.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// Sends Ctrl-C (SIGINT) and waits for the program to end.
    pub fn interrupt(mut self) -> Output {
        let child = self.child.take().expect("running");
        let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
        assert!(sent.success());
        child.wait_with_output().expect("dakon serve ends")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs the `dakon` program with `args` and returns its single JSON line.
pub fn dakon_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("dakon runs");
    assert!(out.status.success(), "dakon {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The error message `dakon` prints for `args` (without the `dakon: ` prefix).
pub fn dakon_error(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_dakon")).args(args).output().expect("dakon runs");
    assert_eq!(out.status.code(), Some(2), "dakon {args:?} refuses its input");
    String::from_utf8_lossy(&out.stderr).trim().trim_start_matches("dakon: ").to_string()
}

/// `count` distinct positions from random games on the 5 x 5 and 6 x 6 boards (`seed` fixes
/// them), from the opening to the end of the game.
pub fn game_positions(count: usize, seed: u64) -> Vec<String> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut positions: Vec<String> = Vec::new();
    while positions.len() < count {
        let holes = 5 + positions.len() % 2;
        let mut p = Position::start(holes, holes as u32).unwrap();
        for _ in 0..rng.gen_range(0..40) {
            let legal = p.legal_holes();
            if legal.is_empty() {
                break;
            }
            p = p.play_hole(legal[rng.gen_range(0..legal.len())]).unwrap().0;
        }
        if !positions.contains(&p.to_string()) {
            positions.push(p.to_string());
        }
    }
    positions
}
