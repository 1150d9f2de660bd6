//! The page's board's endgame tables in `dakon serve`: built once by default into the user's
//! data directory and used from then on, and never waited for: a request answers within its
//! time limit while they load or build, and `/api/status` says how far they are.

// Each test file uses part of the shared helpers.
use crate::server;

use std::time::{Duration, Instant};

use serde_json::Value;
use server::{dakon_json, Server};

/// A new 7 x 7 middle-game position: no table or database answers it, the search must.
const NEW_POSITION: &str = "6,7,8,7,7,7,7/8,7,6,7,7,7,7 0/0 1";
/// A 7-hole endgame of 3 seeds: its moves lead into tiers 0..=3.
const SMALL_ENDGAME: &str = "1,0,0,1,0,0,0/0,0,0,0,0,0,1 40/55 0";

/// How long the tests make the server wait before it loads: a request that waited for the
/// load would take longer than this.
const LOAD_DELAY_SECONDS: u64 = 8;

/// Asks for `NEW_POSITION` with a short time limit and checks that the answer comes with
/// proven bounds well before the load could have ended. The target is measured by
/// `scripts/bench-review` on a real load instead: the machines that run the tests are shared,
/// and a search's time limit overshoots when its threads wait for a core.
fn answers_within_its_time_limit(server: &Server) -> Value {
    let asked = Instant::now();
    let answer = server.analyse(NEW_POSITION, &[("time_limit", "0.5")]);
    let took = asked.elapsed();
    assert_eq!(answer.status, 200, "{}", answer.json);
    assert!(took < Duration::from_secs(LOAD_DELAY_SECONDS / 2), "answered after {took:?} for a time limit of 0.5 s: {}", answer.json);
    assert!(answer.json["lower"].as_i64() <= answer.json["upper"].as_i64());
    answer.json
}

#[test]
fn a_new_position_answers_within_its_time_limit_while_the_tables_load_and_the_status_reports_the_load() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    dakon_json(&["tables", "build", "--holes", "7", "--max-seeds", "4", "--tables-dir", tables, "--json"]);
    // Loading 7 x 7 tiers 0..=4 takes milliseconds: the delay stands for a large load.
    let delay = LOAD_DELAY_SECONDS.to_string();
    let server = Server::start(&["--tables-dir", tables, "--threads", "2", "--tables-load-delay", &delay]);
    let loading = server.status()["tables"].clone();
    assert_eq!(
        (&loading["state"], &loading["tiers_ready"], &loading["holes"]),
        (&Value::from("loading"), &Value::from(0), &Value::from(7)),
        "{loading}"
    );
    let answer = answers_within_its_time_limit(&server);
    assert_eq!(answer["tables"], false, "no tier was ready: {answer}");
    let still = server.status()["tables"].clone();
    assert_eq!(still["state"], "loading", "the status reports the load until it is done: {still}");
    let ready = server.wait_for("the tables to load", Duration::from_secs(30), |s| s["tables"]["state"] == "ready");
    assert_eq!((&ready["tables"]["tiers_ready"], &ready["tables"]["tiers"]), (&Value::from(5), &Value::from(5)), "{ready}");
    let endgame = server.analyse(SMALL_ENDGAME, &[]).json;
    assert_eq!((&endgame["tables"], &endgame["exact"]), (&Value::Bool(true), &Value::Bool(true)), "{endgame}");
    assert_eq!(endgame["moves"], dakon_json(&["best", SMALL_ENDGAME, "--json", "--no-tables"])["moves"]);
}

#[test]
fn with_no_flag_the_page_boards_tables_are_built_into_the_users_data_directory_and_used_from_then_on() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    let work = home.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let own = data.join("dakon").join("tables");
    let env = [("HOME", home.path()), ("XDG_DATA_HOME", data.as_path())];
    let tier = |seeds: u32| own.join(format!("dakon-7-k{seeds}.dkt"));

    // First start, no flag: tiers 0..=16 of 7 x 7 are built into the user's directory (the
    // test stops it after a few tiers), while a request answers within its time limit.
    let first = Server::start_as_user(&work, &env, &["--threads", "2"]);
    let building = first.status()["tables"].clone();
    assert_eq!((&building["state"], &building["tiers"]), (&Value::from("building"), &Value::from(17)), "{building}");
    assert_eq!(building["dir"], own.display().to_string());
    answers_within_its_time_limit(&first);
    let waited = Instant::now();
    while !tier(3).is_file() {
        assert!(waited.elapsed() < Duration::from_secs(60), "tier 3 was not built within a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
    let progress = first.status()["tables"]["tiers_ready"].as_u64().unwrap();
    assert!((4..17).contains(&progress), "tiers built so far: {progress}");
    let stderr = String::from_utf8_lossy(&first.interrupt().stderr).to_string();
    assert!(stderr.contains("interrupted while building tier"), "{stderr}");
    assert!(!work.join("tables").exists(), "nothing is written into the working directory");

    // Later starts use them: with `--build-tables 3` every tier it asks for is on disk, so they
    // are loaded, not built.
    let second = Server::start_as_user(&work, &env, &["--threads", "2", "--build-tables", "3"]);
    let ready = second.wait_for("the tables to load", Duration::from_secs(30), |s| s["tables"]["state"] == "ready");
    assert_eq!(ready["tables"]["dir"], own.display().to_string());
    let endgame = second.analyse(SMALL_ENDGAME, &[]).json;
    assert_eq!((&endgame["tables"], &endgame["exact"]), (&Value::Bool(true), &Value::Bool(true)), "{endgame}");
    let stderr = String::from_utf8_lossy(&second.interrupt().stderr).to_string();
    assert!(!stderr.contains("built in"), "no tier was built again: {stderr}");
}
