//! The results database of `dakon serve` and `dakon db`, through real processes: a second look
//! at a position is never worse than the first, a restarted server answers what it solved from
//! the file, a server killed with SIGKILL in the middle of its writes leaves a sound file
//! holding every answer it gave, and `dakon db` shows and exports it.

// Each test file uses part of the shared helpers.
use crate::server;

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;
use server::Server;

/// `[lower, upper]` of the position and of each move (by hole) of an answer.
fn bounds(answer: &Value) -> Vec<(i64, i64, i64)> {
    let mut all = vec![(-1, answer["lower"].as_i64().unwrap(), answer["upper"].as_i64().unwrap())];
    for m in answer["moves"].as_array().unwrap() {
        all.push((m["hole"].as_i64().unwrap(), m["lower"].as_i64().unwrap(), m["upper"].as_i64().unwrap()));
    }
    all.sort();
    all
}

fn dakon_db(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dakon")).arg("db").args(args).env_remove("DAKON_DB").output().expect("dakon db runs")
}

#[test]
fn a_second_look_is_never_worse_and_a_restarted_server_answers_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.db");
    let db = db.to_str().unwrap();
    let server = Server::start(&["--threads", "2", "--db", db, "--cache", "0"]);
    // Early 7 x 7 middle games: not exact in a fraction of a second.
    let hard = ["8,8,8,0,0,8,8/8,8,8,8,1,8,8 0/9 1", "12,1,3,5,0,13,4/3,0,12,12,5,12,2 5/9 0"];
    for position in hard {
        let mut previous = bounds(&server.analyse(position, &[("time_limit", "0.3")]).json);
        for _ in 0..2 {
            let again = server.analyse(position, &[("time_limit", "0.3")]);
            assert_eq!(again.status, 200);
            let now = bounds(&again.json);
            for (before, after) in previous.iter().zip(&now) {
                assert_eq!(before.0, after.0);
                assert!(before.1 <= after.1 && after.2 <= before.2, "{position}: hole {}: {before:?} then {after:?}", before.0);
            }
            previous = now;
        }
    }
    let easy = server::game_positions(8, 21);
    let first: Vec<Value> = easy.iter().map(|p| server.analyse(p, &[]).json).collect();
    assert!(first.iter().all(|a| a["exact"] == true), "{first:?}");
    let output = server.interrupt();
    assert!(output.status.success());

    let restarted = Server::start(&["--threads", "2", "--db", db]);
    for (position, before) in easy.iter().zip(&first) {
        let answer = restarted.analyse(position, &[]).json;
        assert_eq!(answer["from_database"], true, "{position}: {answer}");
        for field in ["moves", "value", "lower", "upper", "pv", "pv_complete", "result", "board"] {
            assert_eq!(answer[field], before[field], "{position}: {field}");
        }
    }
    let status = restarted.status();
    assert_eq!(status["counts"]["searches"], 0, "nothing was searched again: {status}");
    assert_eq!(status["counts"]["from_database"], easy.len() as u64);
    // The hard ones start from what the first server proved.
    for position in hard {
        let answer = restarted.analyse(position, &[("time_limit", "0")]).json;
        assert!(answer["lower"].as_i64() > Some(-80) || answer["exact"] == true, "{position}: {answer}");
    }
}

/// Flips one bit near the end of the table file `name` in `dir` (its checksum then fails).
fn damage(dir: &std::path::Path, name: &str) {
    let path = dir.join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 6;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    // The build wrote the tier's memory image too, which a load reads instead of the file:
    // without it, the damaged file is decoded.
    std::fs::remove_file(path.with_extension("dkm")).unwrap();
}

#[test]
fn a_database_answer_reads_no_table_and_the_page_board_is_prepared_at_start_up() {
    // A server whose endgame tables are damaged answers from the database what an earlier
    // server solved, since such an answer reads no table (loading the 7 x 7 tables takes
    // seconds), and says at start-up, before any request for it, that the page's board cannot
    // be prepared.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.db");
    let db = db.to_str().unwrap();
    let tables_dir = dir.path().join("tables");
    let tables = tables_dir.to_str().unwrap();
    for (holes, seeds) in [("2", "8"), ("7", "2")] {
        server::dakon_json(&["tables", "build", "--holes", holes, "--max-seeds", seeds, "--tables-dir", tables, "--json"]);
    }
    let position = "1,0/0,1 0/0 0";
    let first = Server::start(&["--db", db]);
    let solved = first.analyse(position, &[]).json;
    assert_eq!(solved["exact"], true, "{solved}");
    assert!(first.interrupt().status.success());

    damage(&tables_dir, "dakon-2-k8.dkt");
    damage(&tables_dir, "dakon-7-k2.dkt");
    let second = Server::start(&["--db", db, "--tables-dir", tables]);
    let answer = second.analyse(position, &[]);
    assert_eq!((answer.status, &answer.json["from_database"], &answer.json["tables"]), (200, &Value::Bool(true), &Value::Bool(false)));
    assert_eq!(answer.json["moves"], solved["moves"]);
    let searched = second.analyse("2,0/0,1 0/0 0", &[]);
    assert_eq!(searched.status, 500, "a search of the board reads its damaged tables: {}", searched.json);
    // The page board's tables load in the background, at a low priority: wait for their
    // failure, which a busy machine may report after the requests above.
    second.wait_for("the page board's tables to fail", std::time::Duration::from_secs(60), |s| s["tables"]["state"] == "failed");
    let stderr = String::from_utf8_lossy(&second.interrupt().stderr).to_string();
    assert!(stderr.contains("the 7-hole board's endgame tables could not be prepared") && stderr.contains("dakon-7-k2.dkt"), "{stderr}");
}

#[test]
fn a_server_killed_while_it_writes_leaves_a_sound_database_with_every_answer_it_gave() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.db");
    let db = db.to_str().unwrap();
    let server = Arc::new(Server::start(&["--threads", "2", "--db", db, "--cache", "0"]));
    let positions = server::game_positions(400, 5);
    let answered: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|client| {
            let (server, answered, stop, positions) = (server.clone(), answered.clone(), stop.clone(), positions.clone());
            std::thread::spawn(move || {
                for position in positions.iter().skip(client).step_by(4) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let url =
                        reqwest::Url::parse_with_params(&format!("{}api/analyse", server.url), [("position", position.as_str())]).unwrap();
                    // Once the server is killed, requests fail: the answers before count.
                    let Ok(response) = reqwest::blocking::get(url) else { break };
                    let Ok(answer) = response.json::<Value>() else { break };
                    if answer["exact"] == true {
                        answered.lock().unwrap().push(position.clone());
                    }
                }
            })
        })
        .collect();
    // Kill it in the middle of the stream of writes.
    while answered.lock().unwrap().len() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SIGKILL, as `kill -9`: no handler runs, writes in progress are cut.
    assert!(Command::new("kill").args(["-KILL", &server.pid().to_string()]).status().unwrap().success());
    stop.store(true, Ordering::Relaxed);
    for client in clients {
        client.join().unwrap();
    }
    drop(server);
    let answered = answered.lock().unwrap().clone();
    assert!(answered.len() >= 60 && answered.len() < positions.len(), "killed mid-stream: {} answered", answered.len());

    let shown = dakon_db(&["--db", db, "--json"]);
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    let summary: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(summary["sound"], true, "{summary}");
    let restarted = Server::start(&["--threads", "2", "--db", db]);
    for position in &answered {
        assert_eq!(restarted.analyse(position, &[]).json["from_database"], true, "{position} was answered, so it was kept");
    }
    assert_eq!(restarted.status()["counts"]["searches"], 0);
}

#[test]
fn dakon_db_shows_and_exports_the_rows_and_refuses_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.db");
    let db = db.to_str().unwrap();
    let server = Server::start(&["--threads", "1", "--db", db]);
    let answer = server.analyse("start", &[("holes", "4"), ("seeds", "3")]).json;
    let solved = server::dakon_json(&["solve", "start", "--holes", "4", "--seeds", "3", "--json", "--no-tables"]);
    assert_eq!((&answer["value"], answer["exact"].as_bool()), (&solved["value"], Some(true)));
    drop(server.interrupt());

    let text = dakon_db(&["--db", db]);
    assert!(text.status.success());
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("exact") && text.contains("SQLite integrity check: ok"), "{text}");
    let export = dakon_db(&["--db", db, "--export", "-"]);
    let rows: Vec<Value> = String::from_utf8(export.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The start and its four moves' children.
    assert_eq!(rows.len(), 5, "{rows:?}");
    let start = rows.iter().find(|r| r["position"] == "3,3,3,3/3,3,3,3 0/0 0").expect("the start's row");
    assert_eq!((&start["future_gain"], start["exact"].as_bool(), start["rules"].as_str()), (&solved["value"], Some(true), Some("dakon")));
    assert!(!start["pv"].as_array().unwrap().is_empty() && start["proof"] == "search");
    let file = dir.path().join("rows.jsonl");
    assert!(dakon_db(&["--db", db, "--export", file.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 5);

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "these are notes, not a database; long enough for SQLite to read a header .........").unwrap();
    let refused = dakon_db(&["--db", notes.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("notes.txt is not a results database"));
    let missing = dakon_db(&["--db", dir.path().join("none.db").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no results database at"));
}
