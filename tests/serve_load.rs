//! `dakon serve` under load, over real HTTP: a crowd of concurrent requests all answered
//! correctly or refused with 503 (none lost), a full pool refusing at once, a client that hangs
//! up stopping its search, and identical requests sharing one search.

// Each test file uses part of the shared helpers.
use crate::server;

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::Duration;

use serde_json::Value;
use server::{dakon_json, Server};

/// A search that takes seconds: the 7 x 4 start needs about 20 million nodes.
const SLOW: [(&str, &str); 3] = [("position", "start"), ("holes", "7"), ("seeds", "4")];

#[test]
fn two_hundred_concurrent_requests_are_all_answered_correctly_or_refused_and_the_server_goes_on() {
    let mut positions = vec!["7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0".to_string(), "5,5,5,5,5/5,5,5,5,5 0/0 0".to_string()];
    positions.extend(server::game_positions(23, 3));
    let expected: Vec<Value> = positions.iter().map(|p| dakon_json(&["best", p, "--json", "--threads", "1"])["moves"].clone()).collect();
    let server = Arc::new(Server::start(&["--threads", "2", "--queue", "6"]));
    let barrier = Arc::new(Barrier::new(200));
    let clients: Vec<_> = (0..200)
        .map(|i| {
            let which = i % positions.len();
            let (server, barrier, position) = (server.clone(), barrier.clone(), positions[which].clone());
            std::thread::spawn(move || {
                barrier.wait();
                (which, server.analyse(&position, &[]))
            })
        })
        .collect();
    let (mut answered, mut refused) = (0, 0);
    for client in clients {
        let (which, answer) = client.join().expect("every request gets an answer");
        match answer.status {
            200 => {
                assert_eq!(answer.json["moves"], expected[which], "{}", positions[which]);
                answered += 1;
            }
            503 => {
                assert!(answer.json["error"].as_str().unwrap().starts_with("server busy"), "{}", answer.json);
                refused += 1;
            }
            other => panic!("status {other}: {}", answer.json),
        }
    }
    assert_eq!(answered + refused, 200);
    assert!(answered >= positions.len().min(8), "answered {answered}, refused {refused}");
    let status = server.wait_for("the pool to empty", Duration::from_secs(30), |s| s["running"] == 0 && s["waiting"] == 0);
    assert_eq!(status["counts"]["refused"], refused);
    for (position, moves) in positions.iter().zip(&expected) {
        let answer = server.analyse(position, &[]);
        assert_eq!((answer.status, &answer.json["moves"]), (200, moves), "{position}: answered after the crowd");
    }
}

#[test]
fn a_full_pool_refuses_at_once_and_a_client_that_hangs_up_stops_its_search() {
    let server = Server::start(&["--threads", "1", "--queue", "0", "--time-limit", "120"]);
    // A raw connection that asks for a long search, then hangs up.
    let address = server.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut client = TcpStream::connect(&address).unwrap();
    let query: String = SLOW.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("&");
    write!(client, "GET /api/analyse?{query} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    server.wait_for("the slow search to start", Duration::from_secs(30), |s| s["running"] == 1);

    let refused = server.analyse("start", &[("holes", "5")]);
    assert_eq!(refused.status, 503);
    assert_eq!(refused.json["error"], "server busy: 1 searches running and 0 waiting, the most it takes; try again in a moment");

    drop(client);
    let status = server.wait_for("the search to stop", Duration::from_secs(10), |s| s["running"] == 0);
    assert_eq!((status["counts"]["cancelled"].as_u64(), status["counts"]["searches"].as_u64()), (Some(1), Some(1)));
    assert_eq!(server.analyse("start", &[("holes", "5")]).json["value"], 48, "the slot is free again");
}

#[test]
fn identical_requests_in_flight_share_one_search() {
    // One slot and no queue: had each request its own search, all but one would be refused.
    let server = Arc::new(Server::start(&["--threads", "1", "--queue", "0"]));
    let barrier = Arc::new(Barrier::new(8));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (server, barrier) = (server.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut params = SLOW.to_vec();
                params.push(("time_limit", "2"));
                server.get("/api/analyse", &params)
            })
        })
        .collect();
    let answers: Vec<_> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    for answer in &answers {
        assert_eq!(answer.status, 200, "{}", answer.json);
        assert_eq!(answer.json["moves"], answers[0].json["moves"]);
    }
    let counts = &server.status()["counts"];
    assert_eq!((counts["searches"].as_u64(), counts["shared"].as_u64()), (Some(1), Some(7)), "{counts}");
}
