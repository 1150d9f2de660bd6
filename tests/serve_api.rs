//! `dakon serve`'s JSON API over real HTTP, as a script meets it: the same values as
//! `dakon best --json`, moves as `dakon play --json`, every kind of bad input refused with its
//! message, time limits clamped, answers cached, and no input that breaks the server.

use crate::memo_minimax;
// Each test file uses part of the shared helpers.
use crate::server;

use memo_minimax::Minimax;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use server::{dakon_error, dakon_json, Server};

#[test]
fn every_move_is_valued_as_best_json_values_it_with_the_board_and_a_line_that_achieves_the_value() {
    let server = Server::start(&["--threads", "2"]);
    let mut positions: Vec<String> = server::game_positions(12, 7);
    positions.extend(["start".to_string(), "0,0,0/0,0,0 1/2 1".to_string(), "1,2,0,3,1/2,0,1,1,3 2/4 0".to_string()]);
    for position in &positions {
        let answer = server.analyse(position, &[]);
        assert_eq!(answer.status, 200, "{position}: {}", answer.json);
        let v = &answer.json;
        let best = dakon_json(&["best", position, "--json", "--threads", "1"]);
        assert_eq!(v["position"], best["position"]);
        assert_eq!(v["moves"], best["moves"], "{position}: the same moves, values and bounds in the same order");
        assert_eq!(v["tables"], false);
        assert!(v["seconds"].as_f64().is_some());
        // The board, as `show --json` draws it.
        let shown = dakon_json(&["show", position, "--json"]);
        for field in ["holes", "board", "rows", "stores", "to_move", "legal_moves", "game_over"] {
            assert_eq!(v[field], shown[field], "{position}: {field}");
        }
        // The position is worth its best move, and the principal variation plays to the end
        // of the game and gets exactly that.
        let value = v["value"].as_i64().expect("exact");
        assert_eq!((v["exact"].as_bool(), v["lower"].as_i64(), v["upper"].as_i64()), (Some(true), Some(value), Some(value)));
        if let Some(first) = v["moves"].as_array().unwrap().first() {
            assert_eq!(first["value"], value);
            assert_eq!(v["pv"][0], first["hole"]);
        }
        // Replayed on the independent rules reference of the tests.
        let start = memo_minimax::parse(v["position"].as_str().unwrap()).unwrap();
        let line: Vec<usize> = v["pv"].as_array().unwrap().iter().map(|h| h.as_u64().unwrap() as usize).collect();
        let end = memo_minimax::play(&start, &line);
        assert!(end.is_over() && v["pv_complete"] == true, "{position}: the line plays to the end");
        let for_player_0 = Minimax::default().value_for_player_0(&end) as i64;
        assert_eq!(if start.to_move == 0 { for_player_0 } else { -for_player_0 }, value, "{position}");
        let result = match value.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(v["result"], result);
        assert_eq!(
            (v["time_limit"].as_f64(), v["time_limit_clamped"].as_bool(), v["cached"].as_bool()),
            (Some(10.0), Some(false), Some(false))
        );
    }
}

#[test]
fn serve_rules_kalah_values_moves_and_plays_as_the_kalah_commands_do_and_refuses_dakon() {
    let server = Server::start(&["--threads", "1", "--rules", "kalah"]);
    for (position, holes, seeds) in [("start", "4", "3"), ("start", "3", "3"), ("start", "5", "2")] {
        let answer = server.analyse(position, &[("holes", holes), ("seeds", seeds)]);
        assert_eq!(answer.status, 200, "{position}: {}", answer.json);
        let best = dakon_json(&["best", position, "--holes", holes, "--seeds", seeds, "--rules", "kalah", "--json", "--threads", "1"]);
        assert_eq!(answer.json["position"], best["position"]);
        assert_eq!(answer.json["moves"], best["moves"], "{position}: Kalah values, not Dakon's");
        assert_eq!(answer.json["rules"], "kalah");
        let shown = dakon_json(&["show", position, "--holes", holes, "--seeds", seeds, "--rules", "kalah", "--json"]);
        assert_eq!(answer.json["legal_moves"], shown["legal_moves"]);
    }
    // Kalah(4,3) is a first-player win by 6 (exhaustive search; a hobby solver agrees).
    assert_eq!(server.analyse("start", &[("holes", "4"), ("seeds", "3")]).json["value"], 6);
    // A lap into the store: an extra move, reported as `play --rules kalah --json` reports it.
    let played = server.get("/api/play", &[("position", "start"), ("holes", "4"), ("seeds", "3"), ("hole", "5")]);
    assert_eq!(played.status, 200, "{}", played.json);
    let expected = dakon_json(&["play", "start", "5", "--holes", "4", "--seeds", "3", "--rules", "kalah", "--json"]);
    for (field, value) in expected.as_object().unwrap() {
        assert_eq!(&played.json[field], value, "{field}");
    }
    assert_eq!(played.json["extra_move"], true);
    let refused = server.analyse("start", &[("rules", "dakon")]);
    assert_eq!(refused.status, 400);
    let page = reqwest::blocking::get(&server.url).unwrap().text().unwrap();
    assert!(page.contains("<title>Kalah analysis board</title>") && !page.contains("Dakon"), "the page names the rules it plays");
}

#[test]
fn a_dakon_server_plays_every_variant_the_api_names_and_its_status_lists_them() {
    let server = Server::start(&["--threads", "1"]);
    let status = server.status();
    assert_eq!(status["rules"], "dakon");
    assert_eq!(status["variants"].as_array().unwrap().len(), 10, "{status}");
    for rules in ["dakon:skip-origin", "dakon:no-mikul", "dakon:nembak-lander", "dakon:traditional"] {
        let answer = server.analyse("start", &[("holes", "3"), ("seeds", "4"), ("rules", rules)]);
        assert_eq!(answer.status, 200, "{rules}: {}", answer.json);
        assert_eq!(answer.json["rules"], rules);
        let best = dakon_json(&["best", "start", "--holes", "3", "--seeds", "4", "--rules", rules, "--json", "--threads", "1"]);
        assert_eq!(answer.json["moves"], best["moves"], "{rules}: the variant's values");
    }
    // Options in another order name the same variant.
    let answer = server.analyse("start", &[("holes", "3"), ("seeds", "4"), ("rules", "dakon:skip-origin,no-mikul")]);
    assert_eq!(answer.json["rules"], "dakon:no-mikul,skip-origin");
    let played = server.get("/api/play", &[("position", "0,0/6,0 0/0 0"), ("hole", "2"), ("rules", "dakon:skip-origin")]);
    assert_eq!(played.json["position"], "1,1/0,2 0/2 0", "{}", played.json);
    for (rules, message) in [("dakon:no-relay", "unknown Dakon option 'no-relay'"), ("kalah", "this server plays dakon")] {
        let refused = server.analyse("start", &[("rules", rules)]);
        assert_eq!(refused.status, 400, "{rules}");
        assert!(refused.json["error"].as_str().unwrap().contains(message), "{}", refused.json);
    }
}

#[test]
fn the_first_turn_option_is_played_and_valued_through_the_opening_as_best_values_it() {
    const FIRST_TURN: &str = "dakon:no-first-turn-capture";
    let server = Server::start(&["--threads", "1"]);
    let variants = server.status()["variants"].clone();
    for rules in [FIRST_TURN, "dakon:no-first-turn-capture,traditional"] {
        assert!(variants.as_array().unwrap().iter().any(|v| v == rules), "{variants}");
        // The start has both first turns pending; every move is valued by the opening search.
        let answer = server.analyse("start", &[("holes", "4"), ("seeds", "4"), ("rules", rules)]);
        assert_eq!(answer.status, 200, "{rules}: {}", answer.json);
        let best = dakon_json(&["best", "start", "--holes", "4", "--rules", rules, "--json", "--threads", "1"]);
        assert_eq!((&answer.json["position"], &answer.json["rules"]), (&best["position"], &best["rules"]));
        assert_eq!(answer.json["position"], "4,4,4,4/4,4,4,4 0/0 0 first:0,1");
        assert_eq!(answer.json["moves"], best["moves"], "{rules}: the opening's values");
        let value = answer.json["value"].as_i64().expect("exact");
        assert_eq!(answer.json["moves"][0]["value"], value);
        assert_eq!(answer.json["pv"], json!([answer.json["moves"][0]["hole"]]));
        let solved = dakon_json(&["solve", "start", "--holes", "4", "--rules", rules, "--json", "--threads", "1"]);
        assert_eq!(solved["value"], value, "{rules}");
        assert_eq!(server.analyse("start", &[("holes", "4"), ("seeds", "4"), ("rules", rules)]).json["cached"], true);
    }
    // 7 x 7, hole 13 relays through hole 1 and stops in the empty hole 6: a nembak under the
    // default rules, nothing in a first turn; player 0's first turn is then over.
    let played = |rules: &str| server.get("/api/play", &[("position", "start"), ("hole", "13"), ("rules", rules)]).json;
    assert_eq!(played("dakon")["capture"], "nembak");
    let first = played(FIRST_TURN);
    assert_eq!((first["capture"].clone(), first["rules"].clone()), (Value::Null, json!(FIRST_TURN)), "{first}");
    assert_eq!(first["from"], "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0 first:0,1");
    let after = first["position"].as_str().unwrap();
    assert!(after.ends_with(" 1 first:1"), "{after}");
    assert_eq!(first["board"]["position"], after);
    let expected = dakon_json(&["play", "start", "13", "--json"]);
    assert_ne!(first["board"]["board"], dakon_json(&["show", expected["position"].as_str().unwrap(), "--json"])["board"]);
    // The state is shown back with its field; other rules refuse the field, naming the option.
    let shown = server.get("/api/show", &[("position", after), ("rules", FIRST_TURN)]);
    assert_eq!((shown.status, shown.json["position"].as_str()), (200, Some(after)));
    let refused = server.get("/api/show", &[("position", after)]);
    assert_eq!(refused.status, 400);
    assert!(refused.json["error"].as_str().unwrap().contains("needs --rules dakon:no-first-turn-capture"), "{}", refused.json);
    // Past the opening the option changes nothing: the default rules' values, under its name.
    let past = "1,2,0,3,1/2,0,1,1,3 2/4 0";
    let answer = server.analyse(past, &[("rules", FIRST_TURN)]);
    assert_eq!((answer.json["rules"].as_str(), answer.json["position"].as_str()), (Some(FIRST_TURN), Some(past)));
    assert_eq!(answer.json["moves"], dakon_json(&["best", past, "--json", "--threads", "1"])["moves"]);
    // A game record cannot carry first turns yet.
    let record = server.get("/api/record", &[("record", "rules dakon:no-first-turn-capture\nholes 3")]);
    assert_eq!(record.status, 400);
    assert!(record.json["error"].as_str().unwrap().contains("do not carry the first turns"), "{}", record.json);
    // A server of the option plays it by default.
    let own = Server::start(&["--threads", "1", "--rules", FIRST_TURN]);
    assert_eq!(own.status()["rules"], FIRST_TURN);
    let shown = own.get("/api/show", &[("position", "start"), ("holes", "2"), ("seeds", "1")]);
    assert_eq!(shown.json["position"], "1,1/1,1 0/0 0 first:0,1");
}

#[test]
fn the_seven_by_seven_start_is_a_sweep_and_a_repeated_request_comes_from_the_cache() {
    let server = Server::start(&[]);
    let first = server.analyse("start", &[]);
    assert_eq!(first.status, 200);
    assert_eq!(first.json["moves"].as_array().unwrap().len(), 7);
    assert_eq!((first.json["value"].as_i64(), first.json["result"].as_str()), (Some(98), Some("win")));
    assert_eq!(first.json["cached"], false);
    let again = server.analyse("7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0", &[("time_limit", "1")]);
    assert_eq!(again.json["cached"], true, "the same position, written out");
    assert_eq!(again.json["moves"], first.json["moves"]);
    assert_eq!(again.json["time_limit"], 1.0);
    assert_eq!(server.status()["counts"]["cached"], 1);
}

#[test]
fn a_time_limit_above_the_cap_is_clamped_and_a_cut_search_gives_bounds_around_the_values() {
    let server = Server::start(&["--time-limit", "0.5"]);
    let position = "1,2,0,3,1/2,0,1,1,3 2/4 0";
    // No time at all: every move keeps the bounds it starts with, which must hold the values.
    let exact = dakon_json(&["best", position, "--json"]);
    let cut = server.analyse(position, &[("time_limit", "0")]);
    assert_eq!(cut.status, 200);
    assert_eq!(
        (cut.json["exact"].as_bool(), &cut.json["value"], cut.json["pv"].as_array().map(Vec::len)),
        (Some(false), &Value::Null, Some(0))
    );
    let moves = cut.json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), exact["moves"].as_array().unwrap().len());
    for m in moves {
        let truth = exact["moves"].as_array().unwrap().iter().find(|e| e["hole"] == m["hole"]).unwrap()["value"].as_i64().unwrap();
        let (lower, upper) = (m["lower"].as_i64().unwrap(), m["upper"].as_i64().unwrap());
        assert!(lower <= truth && truth <= upper && lower < upper, "hole {}: {truth} in [{lower}, {upper}]", m["hole"]);
        assert_eq!((m["exact"].as_bool(), &m["value"]), (Some(false), &Value::Null));
    }
    assert_eq!(server.analyse(position, &[("time_limit", "0")]).json["cached"], false, "bounds are not kept");
    let clamped = server.analyse(position, &[("time_limit", "100")]);
    assert_eq!(clamped.status, 200);
    assert_eq!((clamped.json["time_limit"].as_f64(), clamped.json["time_limit_clamped"].as_bool()), (Some(0.5), Some(true)));
    let notice = clamped.json["notice"].as_str().unwrap();
    assert!(notice.contains("100") && notice.contains("0.5"), "{notice}");
    let unclamped = server.analyse("start", &[("holes", "4"), ("time_limit", "0.25")]);
    assert_eq!((unclamped.json["time_limit_clamped"].as_bool(), unclamped.json.get("notice")), (Some(false), None));
}

#[test]
fn endgame_tables_are_used_once_built_and_a_damaged_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().to_str().unwrap();
    for (holes, seeds) in [("3", "6"), ("2", "8")] {
        dakon_json(&["tables", "build", "--holes", holes, "--max-seeds", seeds, "--tables-dir", tables, "--json"]);
    }
    let damaged = dir.path().join("dakon-2-k8.dkt");
    let mut bytes = std::fs::read(&damaged).unwrap();
    let last = bytes.len() - 6;
    bytes[last] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    // The build wrote the tier's memory image too, which a load reads instead of the file:
    // without it, the damaged file is decoded.
    std::fs::remove_file(damaged.with_extension("dkm")).unwrap();

    let server = Server::start(&["--tables-dir", tables]);
    let position = "1,0,2/0,1,1 3/4 0";
    let answer = server.analyse(position, &[]);
    assert_eq!((answer.status, &answer.json["tables"]), (200, &Value::Bool(true)), "{}", answer.json);
    assert_eq!(answer.json["moves"], dakon_json(&["best", position, "--json", "--tables-dir", tables])["moves"]);
    let broken = server.analyse("1,0/0,1 0/0 0", &[]);
    assert_eq!(broken.status, 500);
    assert!(broken.json["error"].as_str().unwrap().contains("dakon-2-k8.dkt: corrupt table"), "{}", broken.json);
    assert_eq!(server.analyse(position, &[]).json["cached"], true, "the other board goes on");
}

#[test]
fn build_tables_builds_the_page_boards_tiers_as_the_server_starts() {
    let dir = tempfile::tempdir().unwrap();
    let tables_dir = dir.path().join("tables");
    let tables = tables_dir.to_str().unwrap();
    let server = Server::start(&["--tables-dir", tables, "--build-tables", "4"]);
    // No request waits for the build: the status says when the tables answer.
    server.wait_for("the tables to be built", std::time::Duration::from_secs(60), |s| s["tables"]["state"] == "ready");
    // A 7-hole endgame of 4 seeds: its children are in the tiers built at start-up.
    let position = "1,0,0,1,0,0,0/0,1,0,0,0,0,1 40/54 0";
    let answer = server.analyse(position, &[]);
    assert_eq!(
        (answer.status, &answer.json["tables"], &answer.json["exact"]),
        (200, &Value::Bool(true), &Value::Bool(true)),
        "{}",
        answer.json
    );
    assert_eq!(answer.json["moves"], dakon_json(&["best", position, "--json", "--no-tables"])["moves"]);
    for seeds in 0..=4 {
        assert!(tables_dir.join(format!("dakon-7-k{seeds}.dkt")).is_file(), "tier {seeds} is kept on disk");
    }
    let stderr = String::from_utf8_lossy(&server.interrupt().stderr).to_string();
    assert!(stderr.contains("7 holes, tiers 0..=4"), "{stderr}");
    assert!(dakon_error(&["serve", "--build-tables", "4", "--no-tables"]).contains("cannot be used with"));
}

#[test]
fn ctrl_c_during_build_tables_keeps_the_tiers_finished_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tables_dir = dir.path().join("tables");
    // Tiers 0..=20 of 7 holes take minutes: Ctrl-C comes while they are built.
    let server = Server::start(&["--tables-dir", tables_dir.to_str().unwrap(), "--build-tables", "20"]);
    let tier = |seeds: u32| tables_dir.join(format!("dakon-7-k{seeds}.dkt"));
    let waited = std::time::Instant::now();
    while !tier(6).is_file() {
        assert!(waited.elapsed() < std::time::Duration::from_secs(60), "tier 6 was not built within a minute");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let stderr = String::from_utf8_lossy(&server.interrupt().stderr).to_string();
    let kept = (0..=20).take_while(|&s| tier(s).is_file()).count();
    assert!((7..=20).contains(&kept) && !tier(20).is_file(), "tiers kept: {kept}\n{stderr}");
    assert!(stderr.contains(&format!("interrupted while building tier {kept}; the tiers before it are kept in")), "{stderr}");
    assert!(stderr.trim_end().ends_with("dakon serve: stopped"), "{stderr}");
}

#[test]
fn play_tells_what_happened_as_play_json_does() {
    let server = Server::start(&[]);
    for (position, hole) in [("start", "7"), ("start", "13"), ("1,1,2,0,1/0,0,0,0,3 0/0 0", "9"), ("0,0,0/0,0,1 5/5 0", "5")] {
        let answer = server.get("/api/play", &[("position", position), ("hole", hole)]);
        assert_eq!(answer.status, 200, "{}", answer.json);
        let expected = dakon_json(&["play", position, hole, "--json"]);
        for (field, value) in expected.as_object().unwrap() {
            assert_eq!(&answer.json[field], value, "{position} {hole}: {field}");
        }
        assert_eq!(
            answer.json["board"],
            dakon_json(&["show", expected["position"].as_str().unwrap(), "--json"])
                .as_object()
                .map(|o| {
                    let mut o = o.clone();
                    o.insert("rules".into(), "dakon".into());
                    Value::Object(o)
                })
                .unwrap()
        );
        assert_eq!(answer.json["from"], dakon_json(&["show", position, "--json"])["position"]);
    }
    let extra = server.get("/api/play", &[("position", "start"), ("hole", "7")]).json;
    assert_eq!((extra["extra_move"].as_bool(), extra["to_move"].as_u64()), (Some(true), Some(0)));
    let mikul = server.get("/api/play", &[("position", "1,1,2,0,1/0,0,0,0,3 0/0 0"), ("hole", "9")]).json;
    assert_eq!(mikul["capture"], "mikul");
    let shown = server.get("/api/show", &[("position", "start"), ("holes", "3"), ("seeds", "2")]).json;
    assert_eq!(
        (shown["position"].as_str(), shown["rows"].clone()),
        (Some("2,2,2/2,2,2 0/0 0"), json!({"top": [2, 2, 2], "bottom": [2, 2, 2]}))
    );
}

#[test]
fn every_kind_of_bad_input_is_refused_with_a_message_that_says_what_and_where() {
    let server = Server::start(&[]);
    // Positions: the notation parser's own message, as the command line prints it.
    for position in
        ["1,2/3 0/0 0", "7,7,7,7,7,7,7/7,7,7,7,7,7,x 0/0 0", "", "1,0/0,1 0/0 2", "1,0/0,1  0/0 0", "200,200/0,0 0/0 0", "01,1/1,1 0/0 0"]
    {
        let answer = server.analyse(position, &[]);
        assert_eq!(answer.status, 400, "{position:?}");
        assert_eq!(answer.json["error"].as_str().unwrap(), dakon_error(&["show", position]), "{position:?}");
        assert!(answer.json["error"].as_str().unwrap().contains("column"), "{position:?}: says where");
        assert_eq!(server.get("/api/play", &[("position", position), ("hole", "0")]).json, answer.json);
    }
    // Moves the rules do not allow: the rules' message, as `dakon play` gives it.
    for (position, hole, problem) in [
        ("start", "99", "hole 99 does not exist: holes are numbered 0 to 13 on a board of 7 holes per row"),
        ("start", "3", "hole 3 is not on the side of player 0, who is to move"),
        ("1,0/0,1 0/0 0", "2", "hole 2 is empty"),
        ("0,0,0/0,0,0 1/2 1", "0", "the game is over: the player to move has no seeds"),
    ] {
        let answer = server.get("/api/play", &[("position", position), ("hole", hole)]);
        assert_eq!(answer.status, 400);
        let message = answer.json["error"].as_str().unwrap();
        assert!(message.starts_with(&format!("hole {hole} in position '")) && message.ends_with(problem), "{message}");
        assert!(dakon_error(&["play", position, hole]).ends_with(problem));
    }
    let refused = [
        ("/api/analyse", vec![], "parameter 'position' is missing"),
        (
            "/api/analyse",
            vec![("position", "start"), ("holes", "12")],
            "cannot set up the start of holes=12, seeds=12: a row must have 1 to 9 holes, found 12",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("holes", "9"), ("seeds", "15")],
            "cannot set up the start of holes=9, seeds=15: at most 255 seeds are supported, found 270 (holes and stores together)",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("holes", "seven")],
            "parameter 'holes': expected a whole number of holes per row, found 'seven'",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("seeds", "-1")],
            "parameter 'seeds': expected a whole number of seeds per hole, found '-1'",
        ),
        ("/api/analyse", vec![("position", "1,0/0,1 0/0 0"), ("seeds", "3")], "parameter 'seeds' applies only to position=start"),
        (
            "/api/analyse",
            vec![("position", "start"), ("time_limit", "soon")],
            "parameter 'time_limit': expected a number of seconds, found 'soon'",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("time_limit", "-2")],
            "parameter 'time_limit': expected zero or more seconds (at most 1e19), found '-2'",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("time_limit", "NaN")],
            "parameter 'time_limit': expected zero or more seconds (at most 1e19), found 'NaN'",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("time_limit", "1e300")],
            "parameter 'time_limit': expected zero or more seconds (at most 1e19), found '1e300'",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("rules", "kalah")],
            "rules 'kalah': this server plays dakon (start one with `dakon serve --rules kalah`)",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("rules", "oware")],
            "unknown rules 'oware': expected one of dakon, kalah, kalah-empty-capture, or dakon:<options> with options nembak-lander, no-first-turn-capture, no-mikul, skip-origin or traditional (comma-separated)",
        ),
        (
            "/api/analyse",
            vec![("position", "start"), ("depth", "3")],
            "unknown parameter 'depth': expected position, time_limit, rules, holes, seeds",
        ),
        ("/api/analyse", vec![("position", "start"), ("position", "start")], "parameter 'position' is given more than once"),
        ("/api/play", vec![("position", "start")], "parameter 'hole' is missing"),
        ("/api/play", vec![("position", "start"), ("hole", "seven")], "parameter 'hole': expected a hole number, found 'seven'"),
        (
            "/api/play",
            vec![("position", "start"), ("hole", "7"), ("time_limit", "1")],
            "unknown parameter 'time_limit': expected position, hole, rules, holes, seeds",
        ),
        ("/api/show", vec![("position", "start"), ("hole", "7")], "unknown parameter 'hole': expected position, rules, holes, seeds"),
    ];
    for (path, params, message) in refused {
        let answer = server.get(path, &params);
        assert_eq!((answer.status, answer.json["error"].as_str()), (400, Some(message)), "{path} {params:?}");
    }
    for path in ["/nothing", "/api", "/api/analyse/start", "/app.js/x"] {
        let answer = server.get(path, &[]);
        assert_eq!(answer.status, 404, "{path}");
        assert!(answer.json["error"].as_str().unwrap().starts_with(&format!("no such path: {path}")));
    }
    let posted = reqwest::blocking::Client::new().post(format!("{}api/analyse?position=start", server.url)).send().unwrap();
    assert_eq!(posted.status().as_u16(), 405);
    assert_eq!(posted.json::<Value>().unwrap()["error"], "/api/analyse expects GET, not POST");
}

#[test]
fn no_query_breaks_the_server() {
    let server = Server::start(&["--time-limit", "0.05"]);
    let mut nasty: Vec<String> = [
        "",
        "&",
        "&&&",
        "=",
        "position",
        "position=",
        "position=%",
        "position=%zz",
        "position=%ff%fe%00",
        "position=%00",
        "position=7,7,7,7,7,7,7/7,7,7,7,7,7,7%200/0%200&hole=",
        "position=start&holes=0",
        "position=start&holes=18446744073709551616",
        "position=start&seeds=4294967296",
        "position=start&holes=9&seeds=14",
        "position=start&holes=1&seeds=0",
        "position=%E2%80%83start",
        "position=start%0A",
        "position=+start+",
        "position=0/0 0/0 0",
        "position=,/, 0/0 0",
        "position=1,1/1,1 255/0 0",
        "position=1,1/1,1 256/0 0",
        "position=1/1 0/0 1&hole=0",
        "position=1/1 0/0 1&hole=-1",
        "position=start&hole=99999999999999999999999",
        "position=start&time_limit=0x10",
        "position=start&time_limit=1e-400",
        "position=start&time_limit=%E2%88%9E",
        "position=start&rules=",
        "position=start&rules=DAKON",
        "a=b=c",
        "=position",
        "position=start;hole=7",
        "position[]=start",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    nasty.push(format!("position={}", "7,".repeat(20_000)));
    nasty.push(format!("position={}/{}%200/0%200", "1,".repeat(8) + "1", "1,".repeat(8) + "1"));
    // And a few hundred random ones, built from pieces of the notation and of the parameters.
    let pieces = [
        "position",
        "hole",
        "holes",
        "seeds",
        "time_limit",
        "rules",
        "start",
        "=",
        "&",
        ",",
        "/",
        "%20",
        "+",
        "0",
        "1",
        "7",
        "9",
        "255",
        "-",
        ".",
        "%",
        "e",
        "dakon",
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(10);
    for _ in 0..300 {
        nasty.push((0..rng.gen_range(1..24)).map(|_| pieces[rng.gen_range(0..pieces.len())]).collect());
    }
    for query in &nasty {
        for path in ["api/analyse", "api/play", "api/show"] {
            let answer = server.get_url(&format!("{}{path}?{query}", server.url));
            match answer.status {
                200 => assert!(answer.json.is_object(), "{path}?{query}"),
                400 => assert!(!answer.json["error"].as_str().unwrap_or("").is_empty(), "{path}?{query}: a message"),
                other => panic!("{path}?{query}: status {other}"),
            }
        }
    }
    assert_eq!(server.analyse("start", &[("holes", "3")]).status, 200, "still answering");
}

#[test]
fn the_page_is_served_with_its_script_and_style_and_nothing_from_elsewhere() {
    let server = Server::start(&[]);
    let client = reqwest::blocking::Client::new();
    let mut weight = 0;
    for (path, kind) in
        [("", "text/html"), ("app.js", "text/javascript"), ("style.css", "text/css"), ("?position=1,0/0,1%200/0%200", "text/html")]
    {
        let response = client.get(format!("{}{path}", server.url)).send().unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let headers = response.headers().clone();
        assert!(headers["content-type"].to_str().unwrap().starts_with(kind), "{path}");
        assert!(headers["content-security-policy"].to_str().unwrap().starts_with("default-src 'self'"), "{path}");
        let body = response.text().unwrap();
        if !path.starts_with('?') {
            weight += body.len();
        }
    }
    assert!(weight < 100 * 1024, "page, script and style weigh {weight} bytes");
}

#[test]
fn ctrl_c_stops_the_server_and_its_searches_cleanly() {
    let server = Server::start(&["--threads", "1", "--time-limit", "60"]);
    let url = format!("{}api/analyse?position=start&holes=7&seeds=4", server.url);
    let slow = std::thread::spawn(move || reqwest::blocking::get(url).unwrap().json::<Value>().unwrap());
    server.wait_for("the search to start", std::time::Duration::from_secs(30), |s| s["running"] == 1);
    let out = server.interrupt();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("dakon serve: stopped"));
    let answer = slow.join().unwrap();
    assert_eq!(answer["exact"], false, "the running search ended with its bounds: {answer}");
    assert!(answer["lower"].as_i64().unwrap() <= 20 && 20 <= answer["upper"].as_i64().unwrap(), "the 7 x 4 start is worth +20");
}

#[test]
fn the_edges_of_the_api_answer_json_errors_with_short_echoes_and_refuse_stray_whitespace() {
    let missing = tempfile::tempdir().unwrap().path().join("no-such-tables");
    let server = Server::start(&["--tables-dir", missing.to_str().unwrap(), "--time-limit", "0.1"]);
    // A 70 KB position: longer than any request line hyper reads, answered as JSON all the same.
    let answer = server.raw_get(&format!("/api/analyse?position={}", "7,".repeat(35_000)), &[]);
    assert_eq!(answer.status, 414);
    assert!(answer.json["error"].as_str().unwrap().contains("64 KiB"), "{}", answer.json);
    // 2 MB of headers.
    let padding = "a".repeat(2 << 20);
    let answer = server.raw_get("/api/status", &[("x-padding", &padding)]);
    assert_eq!(answer.status, 431);
    assert!(answer.json["error"].as_str().unwrap().contains("KiB"), "{}", answer.json);
    // A 60 KB bad position is quoted by a short prefix only.
    let answer = server.raw_get(&format!("/api/analyse?position={}x", "1,".repeat(30_000)), &[]);
    assert_eq!(answer.status, 400);
    let message = answer.json["error"].as_str().unwrap();
    assert!(message.len() < 300 && message.contains("characters in all"), "{message}");
    // Stray whitespace, an em space or a plain one, is refused like any other malformed input.
    for (name, value) in [("position", "\u{2003}start"), ("position", "start "), ("holes", "  5"), ("time_limit", "1\t")] {
        let mut params = vec![("position", "start")];
        params.retain(|(n, _)| *n != name);
        params.push((name, value));
        let answer = server.get("/api/analyse", &params);
        assert_eq!(answer.status, 400, "{name}={value:?}");
        assert!(answer.json["error"].as_str().unwrap().contains("stray whitespace"), "{}", answer.json);
    }
    assert_eq!(server.analyse("start", &[("holes", "3")]).status, 200, "still answering");
    // The missing tables directory was said at start-up.
    let output = server.interrupt();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-tables does not exist"), "{stderr}");
}

#[test]
fn a_game_record_is_read_with_every_move_checked_and_a_malformed_one_refused_with_its_line_and_move() {
    let server = Server::start(&["--threads", "1"]);
    let read = server.get("/api/record", &[("record", "holes 7\n1. 7 10\n2. 0")]);
    assert_eq!(read.status, 200, "{}", read.json);
    assert_eq!(read.json["start"], "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0");
    let plies = read.json["plies"].as_array().unwrap();
    assert_eq!(
        plies.iter().map(|p| (p["turn"].as_u64().unwrap(), p["hole"].as_u64().unwrap())).collect::<Vec<_>>(),
        vec![(1, 7), (1, 10), (2, 0)]
    );
    // Each move's positions are what /api/play gives.
    for ply in plies {
        let played = server.get("/api/play", &[("position", ply["before"].as_str().unwrap()), ("hole", &ply["hole"].to_string())]);
        assert_eq!(played.json["position"], ply["after"]);
    }
    let refused = server.get("/api/record", &[("record", "holes 7\n1. 7 10\n2. 0 8")]);
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.json["error"],
        "game record: line 3, turn 2, move 2: the turn passed to player 0 after hole 0; start turn 3 on a new line"
    );
    let kalah = server.get("/api/record", &[("record", "rules kalah\nholes 6\nseeds 4\n1. 6")]);
    assert_eq!(kalah.status, 400);
    assert!(kalah.json["error"].as_str().unwrap().contains("this server plays dakon"), "{}", kalah.json);
}
