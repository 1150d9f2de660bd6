//! The analysis board in a real browser: headless Chromium, driven over WebDriver by
//! chromedriver, plays on the page as a user would (mouse and keyboard), with no network
//! beyond the loopback. Saves screenshots of the board under `target/tmp/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; `.ci/run` installs them. Without them the
//! test fails and says how to install them.

// Each test file uses part of the shared helpers.
use crate::server;

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use server::Server;

const INSTALL: &str = "install them with: sudo apt-get install -y chromium chromium-driver (.ci/run does this)";

/// The first of `candidates` that exists, else the name found on the PATH.
fn program(candidates: &[&str], name: &str) -> PathBuf {
    let found =
        candidates.iter().map(PathBuf::from).find(|p| p.exists()).or_else(|| {
            std::env::var_os("PATH").and_then(|path| std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.exists()))
        });
    found.unwrap_or_else(|| panic!("the browser test needs {name}, which is not installed: {INSTALL}"))
}

/// A chromedriver on a free loopback port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    /// Starts chromedriver, again if it ends without saying its port (seen once in CI, under
    /// load, with the parallel tests starting drivers at once); what it wrote on standard error
    /// goes into the panic if every try fails.
    fn start() -> Driver {
        const TRIES: u32 = 5;
        let mut errors = String::new();
        for attempt in 1..=TRIES {
            match Driver::try_start() {
                Ok(driver) => return driver,
                Err(stderr) => errors.push_str(&format!("try {attempt}: {}\n", stderr.trim())),
            }
            std::thread::sleep(Duration::from_millis(200 * u64::from(attempt)));
        }
        panic!("chromedriver ended without saying its port, {TRIES} times:\n{errors}{INSTALL}");
    }

    /// One chromedriver, or what it wrote on standard error before it ended.
    fn try_start() -> Result<Driver, String> {
        let binary = program(&["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"], "chromedriver");
        let mut stderr = tempfile::tempfile().expect("a temporary file for chromedriver's errors");
        let child = Command::new(&binary)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(stderr.try_clone().expect("a second handle on the temporary file"))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}; {INSTALL}", binary.display()));
        // Made at once, so that dropping it stops the driver whatever happens next.
        let mut driver = Driver { child, url: String::new() };
        let stdout = BufReader::new(driver.child.stdout.take().expect("stdout is piped"));
        for line in stdout.lines() {
            let line = line.expect("chromedriver's output");
            if let Some(port) = line.strip_prefix("ChromeDriver was started successfully on port ") {
                driver.url = format!("http://127.0.0.1:{}", port.trim_end_matches('.'));
                return Ok(driver);
            }
        }
        let status = driver.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        let mut written = String::new();
        let _ = stderr.seek(SeekFrom::Start(0)).and_then(|_| stderr.read_to_string(&mut written));
        Err(format!("{status}; {written}"))
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `js` (a function body) in the page and returns its value.
async fn eval(client: &Client, js: &str) -> Value {
    client.execute(js, vec![]).await.unwrap_or_else(|e| panic!("{js}: {e}"))
}

/// Waits until `js` (a function body returning a boolean) holds in the page.
async fn wait_until(client: &Client, what: &str, js: &str) {
    wait_up_to(client, what, js, Duration::from_secs(60)).await;
}

/// [`wait_until`], for at most `limit`.
async fn wait_up_to(client: &Client, what: &str, js: &str, limit: Duration) {
    let started = Instant::now();
    while eval(client, js).await != Value::Bool(true) {
        if started.elapsed() > limit {
            let page = eval(client, "return document.body.innerText").await;
            panic!("waited {} s for {what}; the page says:\n{}", limit.as_secs(), page.as_str().unwrap_or_default());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Presses and releases one key, as the keyboard would.
async fn press(client: &Client, key: char) {
    let actions = KeyActions::new("keyboard".to_string()).then(KeyAction::Down { value: key }).then(KeyAction::Up { value: key });
    client.perform_actions(actions).await.expect("the key is pressed");
}

/// The rendered text of the element `css` selects, read in one step in the page (the page
/// redraws the board as the bounds narrow, so a found element may be gone a moment later).
async fn text_of(client: &Client, css: &str) -> String {
    let selector = serde_json::to_string(css).unwrap();
    let text = eval(client, &format!("const e = document.querySelector({selector}); return e === null ? null : e.innerText")).await;
    text.as_str().unwrap_or_else(|| panic!("{css}: no such element")).to_string()
}

async fn value_of(client: &Client, css: &str) -> String {
    client.find(Locator::Css(css)).await.unwrap().prop("value").await.unwrap().unwrap_or_default()
}

/// The hole numbers that show a move value.
async fn valued_holes(client: &Client) -> Vec<u64> {
    let holes = eval(client, "return [...document.querySelectorAll('.move-value[data-hole]')].map(e => Number(e.dataset.hole))").await;
    holes.as_array().unwrap().iter().map(|h| h.as_u64().unwrap()).collect()
}

/// The selector of the hole button numbered `hole`.
fn hole(hole: u64) -> String {
    format!("button.hole[data-hole=\"{hole}\"]")
}

/// Every move's exact value is shown and the search is over.
const SOLVED: &str = "return document.querySelector('#stop').hidden && document.querySelectorAll('.move-value[data-hole]').length > 0 \
    && !document.querySelector('.move-value.bounds')";
/// A best move is shown (its value proven; others may still be bounds being refined).
const BEST_SHOWN: &str = "return document.querySelector('.move-value.best') !== null";

async fn save_screenshot(png: Vec<u8>, name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, png).expect("the screenshot is saved");
    eprintln!("screenshot: {}", path.display());
    path
}

/// A headless Chromium driven by a chromedriver of its own, in a fresh profile; keep all three
/// until the test ends.
struct Browser {
    client: Client,
    _driver: Driver,
    _profile: tempfile::TempDir,
}

async fn open_browser() -> Browser {
    let chromium = program(&["/usr/bin/chromium", "/usr/bin/chromium-browser"], "chromium");
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ];
    let mut args: Vec<String> = flags.iter().map(|f| f.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    let capabilities = json!({"goog:chromeOptions": {"binary": chromium, "args": args}});
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities.as_object().unwrap().clone())
        .connect(&driver.url)
        .await
        .unwrap_or_else(|e| panic!("chromedriver at {} opens Chromium: {e}; {INSTALL}", driver.url));
    Browser { client, _driver: driver, _profile: profile }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_uses_the_analysis_board_in_a_real_browser() {
    let server = Server::start(&["--threads", "2"]);
    let browser = open_browser().await;
    let client = browser.client.clone();

    // The start: seven move values on player 0's holes (7 to 13), a best move marked.
    client.goto(&server.url).await.unwrap();
    wait_until(&client, "the values of the start", SOLVED).await;
    assert_eq!(valued_holes(&client).await, vec![7, 8, 9, 10, 11, 12, 13]);
    let start = value_of(&client, "#position-output").await;
    assert_eq!(start, "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0/0 0");
    assert!(text_of(&client, "#turn").await.starts_with("Player 0 to move"));
    assert!(text_of(&client, "#value").await.contains("+98"), "the start is worth +98");
    let best = client.find(Locator::Css(".move-value.best")).await.unwrap();
    assert_eq!(best.text().await.unwrap(), "+98");
    let best_hole: u64 = best.attr("data-hole").await.unwrap().unwrap().parse().unwrap();
    save_screenshot(client.find(Locator::Css(".play-area")).await.unwrap().screenshot().await.unwrap(), "serve-start.png").await;

    // Click the best move: the hole is emptied, the move is listed.
    client.find(Locator::Css(&hole(best_hole))).await.unwrap().click().await.unwrap();
    wait_until(
        &client,
        "the board after the first move",
        &format!("return document.querySelector('#position-output').value !== '{start}'"),
    )
    .await;
    assert_eq!(text_of(&client, &format!("{} .count", hole(best_hole))).await, "0");
    assert_eq!(client.find_all(Locator::Css("#moves button.move")).await.unwrap().len(), 1);
    let after_first = value_of(&client, "#position-output").await;

    // Play best moves by keyboard until the turn passes to player 1 (extra moves keep it).
    let mut presses = 0;
    loop {
        wait_until(&client, "a best move after a move", BEST_SHOWN).await;
        if text_of(&client, "#turn").await.starts_with("Player 1 to move") {
            break;
        }
        assert!(text_of(&client, "#turn").await.starts_with("Player 0 to move"), "an extra move keeps the turn");
        let before = value_of(&client, "#position-output").await;
        press(&client, 'b').await;
        wait_until(
            &client,
            "a best move played by key",
            &format!("return document.querySelector('#position-output').value !== '{before}'"),
        )
        .await;
        presses += 1;
        assert!(presses < 40, "the turn never passed");
    }
    assert!(valued_holes(&client).await.iter().all(|&h| h < 7), "now player 1's holes carry the values");
    let turn_of_one = value_of(&client, "#position-output").await;
    assert!(turn_of_one.ends_with(" 1"));
    save_screenshot(client.find(Locator::Css(".play-area")).await.unwrap().screenshot().await.unwrap(), "serve-player-1.png").await;

    // Undo by button, then by key, then redo by key.
    client.find(Locator::Css("#undo")).await.unwrap().click().await.unwrap();
    wait_until(&client, "undo", &format!("return document.querySelector('#position-output').value !== '{turn_of_one}'")).await;
    assert!(text_of(&client, "#turn").await.starts_with("Player 0 to move"));
    let undone = value_of(&client, "#position-output").await;
    press(&client, 'u').await;
    wait_until(&client, "undo by key", &format!("return document.querySelector('#position-output').value !== '{undone}'")).await;
    press(&client, Key::Right.into()).await;
    wait_until(&client, "redo by key", &format!("return document.querySelector('#position-output').value === '{undone}'")).await;
    for _ in 0..presses + 1 {
        press(&client, 'u').await;
    }
    wait_until(&client, "undo back to the start", &format!("return document.querySelector('#position-output').value === '{start}'")).await;
    press(&client, Key::Right.into()).await;
    wait_until(&client, "redo of the first move", &format!("return document.querySelector('#position-output').value === '{after_first}'"))
        .await;

    // Paste a position: a mistake is explained, a good one opened.
    let input = client.find(Locator::Css("#position-input")).await.unwrap();
    input.send_keys("1,2/3 0/0 0").await.unwrap();
    client.find(Locator::Css("#paste button")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the notation error", "return !document.querySelector('#error').hidden").await;
    assert!(text_of(&client, "#error").await.contains("column 1: both rows must have the same length"));
    input.clear().await.unwrap();
    let pasted = "0,3,0,2,2/1,0,0,0,2 0/0 0";
    input.send_keys(pasted).await.unwrap();
    input.send_keys(&Key::Enter.to_string()).await.unwrap();
    wait_until(&client, "the pasted position", &format!("return document.querySelector('#position-output').value === '{pasted}'")).await;
    wait_until(&client, "its values", SOLVED).await;
    assert_eq!(valued_holes(&client).await, vec![5, 9], "player 0 may play holes 5 and 9");
    assert!(client.find(Locator::Css("#error")).await.unwrap().attr("hidden").await.unwrap().is_some(), "the error is gone");
    // Keys type the hole numbers drawn on the board (one numbering): key 9 plays hole 9.
    press(&client, '9').await;
    wait_until(&client, "hole 9 played by key", &format!("return document.querySelector('#position-output').value !== '{pasted}'")).await;
    assert_eq!(text_of(&client, &format!("{} .count", hole(9))).await, "0");
    let played = value_of(&client, "#position-output").await;

    // The link reopens the same position in a fresh page.
    let link = client.find(Locator::Css("#link")).await.unwrap().prop("href").await.unwrap().unwrap();
    assert!(link.starts_with(&server.url) && link.contains("position="), "{link}");
    client.goto("about:blank").await.unwrap();
    client.goto(&link).await.unwrap();
    wait_until(&client, "the shared position", &format!("return document.querySelector('#position-output').value === '{played}'")).await;
    wait_until(
        &client,
        "its values",
        "return !document.querySelector('#stop:not([hidden])') && document.querySelector('#value').textContent !== ''",
    )
    .await;

    // A new game on any board.
    client.find(Locator::Css("#holes")).await.unwrap().select_by_value("4").await.unwrap();
    let seeds = client.find(Locator::Css("#seeds")).await.unwrap();
    seeds.clear().await.unwrap();
    seeds.send_keys("3").await.unwrap();
    client.find(Locator::Css("#new-game button")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the 4 x 3 start", "return document.querySelector('#position-output').value === '3,3,3,3/3,3,3,3 0/0 0'").await;
    wait_until(&client, "its values", SOLVED).await;
    assert_eq!(valued_holes(&client).await, vec![4, 5, 6, 7]);

    // A long search (the 7 x 4 start takes seconds) stopped by its button: the page shows the
    // bounds proven so far, and the server stopped the search the page walked away from.
    client.find(Locator::Css("#holes")).await.unwrap().select_by_value("7").await.unwrap();
    seeds.clear().await.unwrap();
    seeds.send_keys("4").await.unwrap();
    client.find(Locator::Css("#new-game button")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the search of the 7 x 4 start", "return !document.querySelector('#stop').hidden").await;
    client.find(Locator::Css("#stop")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the stopped search", "return document.querySelector('#search-status').textContent.startsWith('Stopped')").await;
    assert!(!client.find_all(Locator::Css(".move-value.bounds")).await.unwrap().is_empty(), "bounds, not values");
    server.wait_for("the server to stop the search", Duration::from_secs(10), |s| s["counts"]["cancelled"].as_u64() >= Some(1));

    // A link with a position the server refuses opens the start and says why.
    client.goto(&format!("{}?position=1,2/3%200/0%200", server.url)).await.unwrap();
    wait_until(&client, "the refused link", "return !document.querySelector('#error').hidden").await;
    assert!(text_of(&client, "#error").await.contains("column 1: both rows must have the same length"));
    wait_until(&client, "the start instead", &format!("return document.querySelector('#position-output').value === '{start}'")).await;

    // A phone-sized screen: the whole board fits the width.
    client.goto(&format!("{}?position=start", server.url)).await.unwrap();
    client.set_window_size(390, 844).await.unwrap();
    wait_until(&client, "the start on a phone", SOLVED).await;
    let fits = eval(&client, "const r = document.querySelector('#board').getBoundingClientRect(); return r.left >= 0 && r.right <= document.documentElement.clientWidth").await;
    assert_eq!(fits, Value::Bool(true), "the board fits a 390-pixel screen");
    save_screenshot(client.screenshot().await.unwrap(), "serve-phone.png").await;

    client.close().await.unwrap();
}

/// The page's layout checks, in the page: no two move-value chips overlap, none clips its own
/// text, no store's count covers its label, and the hole numbers are readable. Returns the
/// faults found (an empty list when all is well).
const LAYOUT_FAULTS: &str = r#"
const faults = [];
const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const chips = [...document.querySelectorAll('.move-value[data-hole]')].filter((e) => e.textContent !== '');
chips.forEach((a, i) => {
  if (a.scrollWidth > a.clientWidth + 1) faults.push(`chip ${a.dataset.hole} clips its text ${a.textContent}`);
  chips.slice(i + 1).forEach((b) => {
    if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect())) faults.push(`chips ${a.dataset.hole} (${a.textContent}) and ${b.dataset.hole} (${b.textContent}) overlap`);
  });
});
for (const store of document.querySelectorAll('.store')) {
  const count = store.querySelector('.count').getBoundingClientRect();
  const name = store.querySelector('.store-name').getBoundingClientRect();
  if (overlap(count, name)) faults.push(`the count of ${store.querySelector('.store-name').textContent} covers its label`);
}
for (const number of document.querySelectorAll('.hole-number')) {
  if (parseFloat(getComputedStyle(number).fontSize) < 12) faults.push(`hole number ${number.textContent} is tiny`);
}
const board = document.querySelector('#board').getBoundingClientRect();
if (board.left < 0 || board.right > document.documentElement.clientWidth) faults.push('the board is wider than the screen');
return faults;
"#;

/// The status line's text.
async fn status_of(client: &Client) -> String {
    text_of(client, "#search-status").await
}

/// An early 7 x 7 middle game (two turns in): its value takes one test, but its moves 7 and 8
/// need about 60 M nodes, so a 5 s search leaves them wide bounds ("-58...+76" and the
/// like). (The position here before, `8,8,8,0,0,8,8/8,8,8,8,1,8,8 0/9 1`, became exact within
/// 5 s once a lone search used both threads.)
const EARLY: &str = "0,8,8,8,8,8,8/1,9,9,9,9,9,1 0/3 0";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_keeps_its_status_layout_and_forms_true_to_the_board_shown() {
    // One thread and a short refining: what is checked is what the page says, not how far
    // the search gets.
    let server = Server::start(&["--threads", "1", "--time-limit", "5", "--refine-limit", "4"]);
    let browser = open_browser().await;
    let client = browser.client.clone();

    // The time menu offers what the server allows: nothing above its 5 s cap.
    client.goto(&server.url).await.unwrap();
    wait_until(&client, "the values of the start", SOLVED).await;
    let offered = eval(&client, "return [...document.querySelectorAll('#time-limit option')].map(o => Number(o.value))").await;
    assert_eq!(offered, json!([1, 2, 5]), "the choices up to the cap");
    let solved_start = status_of(&client).await;
    assert!(solved_start.starts_with("Solved exactly"), "{solved_start}");

    // Undo during a search: back at the start, the start's own status, not a frozen timer.
    let start = value_of(&client, "#position-output").await;
    client.goto(&format!("{}?position={}", server.url, EARLY.replace(' ', "%20"))).await.unwrap();
    wait_until(&client, "the early middle game's bounds", "return document.querySelector('.move-value.bounds') !== null").await;
    for (width, height, name) in [(1280, 900, "serve-bounds-wide.png"), (390, 844, "serve-bounds-phone.png")] {
        client.set_window_size(width, height).await.unwrap();
        tokio::time::sleep(Duration::from_millis(200)).await;
        let faults = eval(&client, LAYOUT_FAULTS).await;
        save_screenshot(client.screenshot().await.unwrap(), name).await;
        assert_eq!(faults, json!([]), "at {width} px");
    }
    client.set_window_size(1280, 900).await.unwrap();
    // Answers keep improving while the position is shown, and the page says when it stops
    // (in a slow build the refining may have run its 4 s during the layout checks above).
    wait_until(
        &client,
        "refining",
        "const status = document.querySelector('#search-status').textContent; \
         return status.startsWith('Refining: ') || status.startsWith('Stopped refining after ')",
    )
    .await;
    wait_until(&client, "the end of the refining", "return document.querySelector('#stop').hidden").await;
    let stopped = status_of(&client).await;
    assert!(stopped.starts_with("Stopped refining after ") || stopped.starts_with("Solved exactly"), "{stopped}");

    // Play a hard move from the start, undo while it is searched.
    client.goto(&server.url).await.unwrap();
    wait_until(&client, "the start again", SOLVED).await;
    // (The server remembers it now, and the status says so.)
    let solved_start = status_of(&client).await;
    assert!(solved_start.starts_with("Solved exactly") && solved_start.contains("remembered by the server"), "{solved_start}");
    let hard = eval(
        &client,
        "return [...document.querySelectorAll('.move-value[data-hole]')].find(e => !e.classList.contains('best')).dataset.hole",
    )
    .await;
    let hard: u64 = hard.as_str().unwrap().parse().unwrap();
    client.find(Locator::Css(&hole(hard))).await.unwrap().click().await.unwrap();
    wait_until(&client, "the search of the move", "return !document.querySelector('#stop').hidden").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    press(&client, 'u').await;
    wait_until(&client, "undo", &format!("return document.querySelector('#position-output').value === '{start}'")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The page remembers the start's values, and says so rather than repeat an old time.
    let remembered = "Solved exactly (remembered by this page).";
    assert_eq!(status_of(&client).await, remembered, "the start's status, not the abandoned search's");
    // Redo, let the search end (cut or solved), undo: the start's status again.
    press(&client, 'r').await;
    wait_until(&client, "redo", &format!("return document.querySelector('#position-output').value !== '{start}'")).await;
    wait_until(
        &client,
        "the end of the search",
        "return document.querySelector('#stop').hidden && document.querySelector('#search-status').textContent !== ''",
    )
    .await;
    press(&client, 'u').await;
    wait_until(&client, "undo", &format!("return document.querySelector('#position-output').value === '{start}'")).await;
    assert_eq!(status_of(&client).await, remembered);

    // The New game form follows the board shown.
    client.goto(&format!("{}?position=start&holes=5", server.url)).await.unwrap();
    wait_until(&client, "the 5 x 5 start", SOLVED).await;
    assert_eq!((value_of(&client, "#holes").await, value_of(&client, "#seeds").await), ("5".to_string(), "5".to_string()));

    // A finished game opened from a link says so.
    client.goto(&format!("{}?position=0,0,0/0,0,0%201/2%201", server.url)).await.unwrap();
    wait_until(&client, "the finished game", "return document.querySelector('#value').textContent !== ''").await;
    assert_eq!(text_of(&client, "#moves").await, "No moves: this game is over.");
    assert!(text_of(&client, "#turn").await.starts_with("Game over"));
    client.close().await.unwrap();
}

/// A lost position the search cannot finish in 50 ms: player 0's store is 70 behind with 64
/// seeds on the board, so the bounds are below zero at once.
const LOST: &str = "9,9,9,9,9,9,9/1,0,0,0,0,0,0 70/0 0";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_loss_proven_by_bounds_is_said_and_the_kalah_page_opens_a_board_it_solves() {
    // A lost position the server cannot finish in 50 ms: its bounds are below zero.
    let server = Server::start(&["--threads", "1", "--time-limit", "0.05", "--refine-limit", "0"]);
    let browser = open_browser().await;
    let client = browser.client.clone();
    client.goto(&format!("{}?position={}", server.url, LOST.replace(' ', "%20"))).await.unwrap();
    wait_until(
        &client,
        "the bounds",
        "return document.querySelector('#stop').hidden && document.querySelector('#value').textContent !== ''",
    )
    .await;
    let value = text_of(&client, "#value").await;
    assert!(value.contains("a loss for player") && value.contains("not exact"), "{value}");
    drop(server);

    let kalah = Server::start(&["--threads", "2", "--rules", "kalah"]);
    client.goto(&kalah.url).await.unwrap();
    // Every move of the Kalah 6 x 3 start exact: 3 s of search in a release build, but the
    // `ci` build (no LTO) takes three or four of the page's 10 s rounds of refining, beside the
    // other browser tests: a minute was not always enough.
    wait_up_to(&client, "the Kalah start's values", SOLVED, Duration::from_secs(180)).await;
    assert_eq!(value_of(&client, "#position-output").await, "3,3,3,3,3,3/3,3,3,3,3,3 0/0 0");
    assert_eq!((value_of(&client, "#holes").await, value_of(&client, "#seeds").await), ("6".to_string(), "3".to_string()));
    let tagline = text_of(&client, ".tagline").await;
    assert!(tagline.contains("exactly when the search ends within the time limit"), "{tagline}");
    client.close().await.unwrap();
}

/// The board's geometry and every visible text's contrast, checked in the page: no move value
/// overlaps another or clips its text or leaves the board, both stores lie inside the wooden
/// frame, every seed count is at least 11 px high, and every text has a contrast of at least
/// 4.5:1 against what is behind it (computed from the styles: colours, opacity, and the stops
/// of a gradient behind it, the worst taken). Returns the faults found.
const GEOMETRY_AND_CONTRAST_FAULTS: &str = r#"
const faults = [];
const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
const board = document.querySelector('#board').getBoundingClientRect();
const chips = [...document.querySelectorAll('.move-value[data-hole]')].filter((e) => e.textContent !== '');
if (chips.length === 0) faults.push('no move value shown');
chips.forEach((a, i) => {
  if (a.scrollWidth > a.clientWidth + 1 || a.scrollHeight > a.clientHeight + 1) faults.push(`chip ${a.dataset.hole} clips its text ${a.textContent}`);
  if (!inside(a.getBoundingClientRect(), board)) faults.push(`chip ${a.dataset.hole} (${a.textContent}) leaves the board`);
  chips.slice(i + 1).forEach((b) => {
    if (overlap(a.getBoundingClientRect(), b.getBoundingClientRect())) faults.push(`chips ${a.dataset.hole} (${a.textContent}) and ${b.dataset.hole} (${b.textContent}) overlap`);
  });
});
for (const store of document.querySelectorAll('.store')) {
  if (!inside(store.getBoundingClientRect(), board)) faults.push(`store ${store.textContent} sticks out of the frame`);
}
for (const count of document.querySelectorAll('#board .count')) {
  const size = parseFloat(getComputedStyle(count).fontSize);
  if (size < 11) faults.push(`a seed count of ${size} px`);
  if (!inside(count.getBoundingClientRect(), count.closest('.hole, .store').getBoundingClientRect())) faults.push(`the count ${count.textContent} spills out of its hole`);
}
if (board.left < 0 || board.right > document.documentElement.clientWidth) faults.push('the board is wider than the screen');

const parse = (text) => {
  const m = text.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const [r, g, b, a] = m[1].split(/[ ,\/]+/).filter((x) => x !== '').map(Number);
  return [r, g, b, a === undefined || Number.isNaN(a) ? 1 : a];
};
const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
// The layers behind an element, nearest first, each a list of colours it may show there.
const layers = (element) => {
  const found = [];
  for (let e = element; e; e = e.parentElement) {
    const style = getComputedStyle(e);
    const stops = (style.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(parse).filter((c) => c[3] >= 0.5);
    const colour = parse(style.backgroundColor);
    const layer = [];
    if (colour && colour[3] > 0) layer.push(colour);
    if (stops.length) layer.push(...stops.map((c) => (colour && colour[3] > 0 ? over(c, colour) : c)));
    if (layer.length) {
      found.push(layer);
      if (layer.every((c) => c[3] === 1)) return found;
    }
  }
  found.push([[255, 255, 255, 1]]);
  return found;
};
const opacity = (element) => { let o = 1; for (let e = element; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
for (const element of document.querySelectorAll('body *')) {
  const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
  if (!own || element.closest(':disabled, [hidden], details:not([open]) > :not(summary)')) continue;
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  if (rect.width === 0 || rect.height === 0 || style.visibility !== 'visible') continue;
  let backs = [[255, 255, 255, 1]];
  for (const layer of layers(element).reverse()) backs = layer.flatMap((c) => backs.map((b) => over(c, b)));
  const ink = parse(style.color);
  ink[3] *= opacity(element);
  const worst = Math.min(...backs.map((b) => contrast(over(ink, b), b)));
  if (worst < 4.5) faults.push(`"${element.textContent.trim().slice(0, 30)}" (${element.tagName.toLowerCase()}.${element.className}): contrast ${worst.toFixed(2)}`);
}
return [...new Set(faults)];
"#;

/// A position of each board after a few moves (stores filled, values of both signs), at the
/// page's quick first answer: some values exact, some bounds.
const BOARDS: [&str; 4] = [
    "6,0,7,0,0/0,2,2,1,8 6/18 1",
    "3,1,5,2,1,14,1/4,0,11,1,13,4,0 20/18 1",
    "3,4,7,18,5,1,9,0/18,3,4,7,3,0,3,1 19/23 1",
    "11,25,0,4,11,4,2,0,2/1,14,6,2,15,5,1,1,0 36/22 1",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_fits_every_screen_on_every_board_and_every_text_is_readable() {
    // Short searches: bounds and values both show within a moment.
    let server = Server::start(&["--threads", "2", "--time-limit", "0.3", "--refine-limit", "0"]);
    let browser = open_browser().await;
    let client = browser.client.clone();
    let mut faults = Vec::new();
    for position in BOARDS {
        for (i, width) in [360, 390, 834, 1280].into_iter().enumerate() {
            client.set_window_size(width, 900).await.unwrap();
            if i == 0 {
                client.goto(&format!("{}?position={}", server.url, position.replace(' ', "%20"))).await.unwrap();
                wait_until(
                    &client,
                    "the values",
                    "return document.querySelector('#stop').hidden && document.querySelectorAll('.move-value[data-hole]').length > 0",
                )
                .await;
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
            let seen = eval(&client, GEOMETRY_AND_CONTRAST_FAULTS).await;
            let viewport = eval(&client, "return document.documentElement.clientWidth").await;
            for fault in seen.as_array().unwrap() {
                faults.push(format!("{position} at {width} px (viewport {viewport}): {}", fault.as_str().unwrap()));
            }
            if width == 360 || width == 1280 {
                let holes = position.split('/').next().unwrap().split(',').count();
                save_screenshot(client.screenshot().await.unwrap(), &format!("serve-{holes}-holes-{width}.png")).await;
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_explains_itself_speaks_only_changes_keeps_choices_and_recovers_from_a_stopped_server() {
    let server = Server::start(&["--threads", "2", "--time-limit", "5", "--refine-limit", "6"]);
    let browser = open_browser().await;
    let client = browser.client.clone();
    client.goto(&server.url).await.unwrap();
    wait_until(&client, "the values of the start", SOLVED).await;
    // Whose view the values are in, and what the colours mean, without opening the help.
    let legend = text_of(&client, "#legend").await;
    assert!(legend.contains("player 0, who is to move") && legend.contains("Green") && legend.contains("dashed"), "{legend}");
    assert!(text_of(&client, ".marks-legend").await.contains("extra move"));

    // A search's live region changes only when its words do, not with the clock.
    client.goto(&format!("{}?position={}", server.url, EARLY.replace(' ', "%20"))).await.unwrap();
    wait_until(&client, "the search", "return !document.querySelector('#stop').hidden").await;
    eval(&client, "window.changes = 0; new MutationObserver((m) => (window.changes += m.length)).observe(document.querySelector('#search-status'), {childList: true, characterData: true, subtree: true}); return true").await;
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let changes = eval(&client, "return window.changes").await.as_u64().unwrap();
    assert!(changes <= 6, "the live region changed {changes} times in 2 s");
    assert_ne!(text_of(&client, "#search-clock").await, "", "the clock ticks beside it");

    // The time limit chosen is kept across a reload; the single-key shortcuts can be turned off.
    client.find(Locator::Css("#time-limit")).await.unwrap().select_by_value("2").await.unwrap();
    client.find(Locator::Css("#shortcuts")).await.unwrap().click().await.unwrap();
    client.goto(&format!("{}?position=start&holes=4", server.url)).await.unwrap();
    assert_eq!(eval(&client, "return document.querySelector('#shortcuts').checked").await, Value::Bool(false), "kept across the reload");
    wait_until(&client, "the 4 x 4 start", SOLVED).await;
    assert_eq!(value_of(&client, "#time-limit").await, "2");
    let before = value_of(&client, "#position-output").await;
    press(&client, '4').await;
    press(&client, 'b').await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(value_of(&client, "#position-output").await, before, "no single-key shortcut while they are off");
    client.find(Locator::Css("#shortcuts")).await.unwrap().click().await.unwrap();
    // The keys go to the board, not to the box just ticked.
    eval(&client, "document.activeElement.blur(); return true").await;
    press(&client, 'b').await;
    wait_until(&client, "a best move by key", &format!("return document.querySelector('#position-output').value !== '{before}'")).await;

    // A pasted position with stray spaces is opened.
    let input = client.find(Locator::Css("#position-input")).await.unwrap();
    input.send_keys(" 0,3,0,2,2/1,0,0,0,2 0/0 0 \t").await.unwrap();
    client.find(Locator::Css("#paste button")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the pasted position", "return document.querySelector('#position-output').value === '0,3,0,2,2/1,0,0,0,2 0/0 0'")
        .await;

    // The server stops: a readable message; it is back on the same address: the page recovers.
    let address = server.url.trim_start_matches("http://").trim_end_matches('/').to_string();
    drop(server);
    client.find(Locator::Css("#holes")).await.unwrap().select_by_value("3").await.unwrap();
    client.find(Locator::Css("#new-game button")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the message", "return !document.querySelector('#error').hidden").await;
    let message = text_of(&client, "#error").await;
    assert!(message.contains("The server does not answer") && !message.contains("Failed to fetch"), "{message}");
    let back = Server::start(&["--threads", "2", "--bind", &address]);
    wait_until(&client, "the recovery", "return document.querySelector('#error').hidden").await;
    wait_until(&client, "the values of the position shown", SOLVED).await;
    drop(back);
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_reviewed_on_the_page_with_its_costs_marks_and_best_lines_and_shared_by_link() {
    let server = Server::start(&["--threads", "2"]);
    let browser = open_browser().await;
    let client = browser.client.clone();
    // A 4 x 4 game: three moves played on the board, then reviewed.
    client.goto(&format!("{}?position=start&holes=4", server.url)).await.unwrap();
    wait_until(&client, "the 4 x 4 start", SOLVED).await;
    for _ in 0..3 {
        let before = value_of(&client, "#position-output").await;
        let worst =
            eval(&client, "const v = [...document.querySelectorAll('.move-value[data-hole]')]; return v[v.length - 1].dataset.hole").await;
        client.find(Locator::Css(&hole(worst.as_str().unwrap().parse().unwrap()))).await.unwrap().click().await.unwrap();
        wait_until(&client, "the move", &format!("return document.querySelector('#position-output').value !== '{before}'")).await;
        wait_until(&client, "its values", SOLVED).await;
    }
    client.find(Locator::Css("#review-game")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the review", "return document.querySelector('#review-status').textContent.includes('reviewed in')").await;
    let rows =
        eval(&client, "return [...document.querySelectorAll('#review-table tr')].slice(1).map(r => [...r.cells].map(c => c.textContent))")
            .await;
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    let number = |text: &str| text.replace('−', "-").replace('+', "").parse::<i64>().unwrap();
    for row in rows {
        let cells: Vec<&str> = row.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        // The cost is the difference of the values before and after, and a costly move is marked
        // with the best line from where it was played.
        assert_eq!(number(cells[5]), number(cells[3]) - number(cells[4]), "{cells:?}");
        assert_eq!(cells[6].is_empty(), number(cells[5]) == 0, "{cells:?}");
        assert_eq!(cells[7].is_empty(), cells[6].is_empty(), "{cells:?}");
    }
    let dots = eval(&client, "return document.querySelectorAll('#review-graph circle').length").await;
    let marked = rows.iter().filter(|r| r[6] != "").count();
    assert_eq!(dots.as_u64(), Some(marked as u64), "a dot per marked move");
    // The link opens the same review in a fresh page; a malformed record is refused with its line.
    let link = client.find(Locator::Css("#review-link")).await.unwrap().prop("href").await.unwrap().unwrap();
    client.goto(&link).await.unwrap();
    wait_until(&client, "the linked review", "return document.querySelector('#review-status').textContent.includes('reviewed in')").await;
    assert_eq!(eval(&client, "return document.querySelectorAll('#review-table tr').length").await.as_u64(), Some(4));
    let input = client.find(Locator::Css("#record-input")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys("holes 4\n1. 9").await.unwrap();
    client.find(Locator::Css("#review-record")).await.unwrap().click().await.unwrap();
    wait_until(&client, "the refusal", "return document.querySelector('#review-status').textContent.includes('line 2, turn 1, move 1')")
        .await;
    client.close().await.unwrap();
}

/// The first player's value of the `holes` x `seeds` start under `rules`, from the committed,
/// certified atlas (`atlas/atlas.jsonl` for the default, `atlas/variants/<options>/` for a
/// variant), as the page writes it.
fn atlas_value_text(rules: &str, holes: u64, seeds: u64) -> String {
    let file = match rules.strip_prefix("dakon:") {
        None => PathBuf::from("atlas/atlas.jsonl"),
        Some("no-first-turn-capture") => PathBuf::from("atlas/variants/first-turn/atlas.jsonl"),
        Some(options) => Path::new("atlas/variants").join(options).join("atlas.jsonl"),
    };
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&file)).unwrap();
    let row = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|row| row["holes"] == holes && row["seeds"] == seeds)
        .unwrap_or_else(|| panic!("{} has no {holes} x {seeds}", file.display()));
    assert_eq!(row["rules"], rules, "{}", file.display());
    let value = row["value"].as_i64().expect("an exact value");
    match value {
        0 => "Value for player 0: 0, a draw".to_string(),
        v if v > 0 => format!("Value for player 0: +{v}, a win by {v}"),
        v => format!("Value for player 0: −{}, a loss by {}", -v, -v),
    }
}

/// Starts a game of `holes` x `seeds` under `rules` from the New game form.
async fn new_game(client: &Client, holes: &str, seeds: &str, rules: &str) {
    client.find(Locator::Css("#holes")).await.unwrap().select_by_value(holes).await.unwrap();
    let seeds_input = client.find(Locator::Css("#seeds")).await.unwrap();
    seeds_input.clear().await.unwrap();
    seeds_input.send_keys(seeds).await.unwrap();
    client.find(Locator::Css("#rules")).await.unwrap().select_by_value(rules).await.unwrap();
    client.find(Locator::Css("#new-game button")).await.unwrap().click().await.unwrap();
}

/// 2 x 3 tells the variants apart at once: lifting hole 3 at the start relays into a lap of
/// five seeds, which `skip-origin` sows past its own hole, and the start is worth 0 under
/// `skip-origin` against +12 by default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_variant_chosen_in_the_new_game_form_rules_the_moves_and_the_values() {
    use dakon_solver::dakon::{DakonOptions, Position};
    let server = Server::start(&["--threads", "2"]);
    let browser = open_browser().await;
    let client = browser.client.clone();
    client.goto(&server.url).await.unwrap();
    wait_until(&client, "the values of the start", SOLVED).await;

    // The menu offers every Dakon rule set (the first-turn option alone and with traditional),
    // the server's own marked as the default.
    assert_eq!(eval(&client, "return document.querySelector('#rules-label').hidden").await, Value::Bool(false));
    let offered = eval(&client, "return [...document.querySelectorAll('#rules option')].map(o => o.value)").await;
    let offered: Vec<&str> = offered.as_array().unwrap().iter().map(|o| o.as_str().unwrap()).collect();
    let first_turn = [DakonOptions::NONE, DakonOptions::TRADITIONAL].map(|o| o.with(DakonOptions::NO_FIRST_TURN_CAPTURE).rules_name());
    let every: Vec<&str> = DakonOptions::ALL.iter().map(|o| o.rules_name()).chain(first_turn).collect();
    assert_eq!(offered.len(), every.len(), "{offered:?}");
    assert!(every.iter().all(|name| offered.contains(name)), "{offered:?}");
    let default = eval(&client, "return document.querySelector('#rules option[value=\"dakon\"]').textContent").await;
    assert_eq!(default, "dakon (default)");

    // A new 2 x 3 game under skip-origin: its value is the variant's.
    new_game(&client, "2", "3", "dakon:skip-origin").await;
    wait_until(&client, "the 2 x 3 start", "return document.querySelector('#position-output').value === '3,3/3,3 0/0 0'").await;
    wait_until(&client, "its values", SOLVED).await;
    let value = text_of(&client, "#value").await;
    assert!(value.starts_with(&atlas_value_text("dakon:skip-origin", 2, 3)), "{value}");
    assert!(!value.starts_with(&atlas_value_text("dakon", 2, 3)), "{value}");

    // Hole 3 played on the board: the position is the variant's, not the default's.
    let start = Position::start(2, 3).unwrap();
    let (by_variant, _) = start.play_hole_with(3, DakonOptions::SKIP_ORIGIN).unwrap();
    let (by_default, _) = start.play_hole(3).unwrap();
    assert_ne!(by_variant, by_default, "the move tells the rules apart");
    client.find(Locator::Css(&hole(3))).await.unwrap().click().await.unwrap();
    wait_until(
        &client,
        "the move under skip-origin",
        &format!("return document.querySelector('#position-output').value === '{by_variant}'"),
    )
    .await;
    wait_until(&client, "the values after it", SOLVED).await;
    let link = client.find(Locator::Css("#link")).await.unwrap().prop("href").await.unwrap().unwrap();
    assert!(link.contains("rules=dakon%3Askip-origin"), "the link keeps the rules: {link}");

    // Under the first-turn option the start names both pending first turns, and its value is
    // the option's atlas's.
    new_game(&client, "2", "3", first_turn[0]).await;
    wait_until(&client, "the start's first turns", "return document.querySelector('#position-output').value === '3,3/3,3 0/0 0 first:0,1'")
        .await;
    wait_until(
        &client,
        "the option's value",
        &format!("return document.querySelector('#value').textContent.startsWith('{}')", atlas_value_text(first_turn[0], 2, 3)),
    )
    .await;

    // Back to the default rules from the menu: the default's value and move again.
    new_game(&client, "2", "3", "dakon").await;
    wait_until(
        &client,
        "the default's value",
        &format!("return document.querySelector('#value').textContent.startsWith('{}')", atlas_value_text("dakon", 2, 3)),
    )
    .await;
    client.find(Locator::Css(&hole(3))).await.unwrap().click().await.unwrap();
    wait_until(&client, "the move by default", &format!("return document.querySelector('#position-output').value === '{by_default}'"))
        .await;
    client.close().await.unwrap();
}
