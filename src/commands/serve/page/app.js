// The analysis board: draws the position, asks the server for every move's exact value, and
// keeps the game's history for undo and redo. Everything it knows comes from this server's API.
"use strict";

const $ = (id) => document.getElementById(id);
/** Seeds drawn as dots up to this count; above it the number alone. */
const MAX_DOTS = 12;
/** How long a stopped search may spend gathering the bounds it proved. */
const BOUNDS_SECONDS = 0.2;
/** The time limit of the first ask, so that something shows at once. */
const QUICK_SECONDS = 0.5;
/** The time menu's choices; those above the server's cap are left out. */
const TIME_CHOICES = [1, 2, 5, 10, 30, 60];
/** How often the page asks again for a server that does not answer, in ms. */
const RETRY_MS = 2000;
/** How long the page waits for a second digit of a hole number, in ms. */
const DIGIT_MS = 700;
/** Below this width in pixels a hole shows its count alone: dots would crowd it. */
const COMPACT_HOLE_PX = 44;
/** What the page remembers across reloads (localStorage keys). */
const SAVED = { timeLimit: "dakon.time-limit", shortcuts: "dakon.shortcuts" };

const state = {
  /** Positions of the game: {board, move}; move is what led there (null for the first). */
  history: [],
  index: 0,
  /** The analysis of the current position, once it has arrived. */
  analysis: null,
  /** Exact analyses by position, with the status line they ended with, so that undo and redo
   * need not ask again. */
  known: new Map(),
  search: null,
  /** The rules the game is played by: the server's own (null) or one of its variants, chosen
   * in the New game form. */
  rules: null,
  /** What the server allows: the longest search, and the refining time per position. */
  limits: { cap: 10, refine: 60 },
};

// ---- The API ----

/** An error of a server that does not answer at all (stopped, or the network is down). */
class Offline extends Error {}

/** The API paths that take the game's rules. */
const RULED = ["analyse", "play", "show"];

async function api(path, params, signal) {
  const ruled = state.rules && RULED.includes(path) && !("rules" in params) ? { ...params, rules: state.rules } : params;
  const query = new URLSearchParams(ruled).toString();
  let response;
  try {
    response = await fetch(`/api/${path}?${query}`, { signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new Offline("The server does not answer (is dakon serve still running?). Trying again every few seconds…");
  }
  const body = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
  if (!response.ok) {
    throw new Error(body.error || `the server answered ${response.status}`);
  }
  return body;
}

// ---- Numbers and words ----

const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");
const plural = (count, noun) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const current = () => state.history[state.index].board;
const ownerOf = (hole, n) => (hole >= n ? 0 : 1);

/** Whether move m is proven at least as good as every other move. */
function isBest(m, moves) {
  return moves.every((other) => other === m || m.lower >= other.upper);
}

function describeMove(move) {
  const parts = [plural(move.laps, "lap")];
  if (move.sown_into_store > 0) parts.push(`${move.sown_into_store} into the store`);
  if (move.capture) parts.push(`${move.capture} takes ${move.captured}`);
  if (move.extra_move && !move.game_over) parts.push("extra move: the same player moves again");
  if (move.sweep) parts.push(`game over: player ${move.sweep.to} takes the ${plural(move.sweep.seeds, "seed")} left`);
  return parts.join(", ");
}

// ---- Drawing ----

function seedsElement(count, big) {
  const seeds = document.createElement("span");
  seeds.className = "seeds";
  if (count > 0 && count <= (big ? 2 * MAX_DOTS : MAX_DOTS)) {
    const dots = document.createElement("span");
    dots.className = "dots";
    dots.dataset.count = String(count);
    for (let i = 0; i < count; i++) dots.appendChild(document.createElement("i"));
    seeds.appendChild(dots);
  }
  const number = document.createElement("span");
  number.className = count > (big ? 2 * MAX_DOTS : MAX_DOTS) ? "count large" : "count";
  number.textContent = String(count);
  seeds.appendChild(number);
  return seeds;
}

function cell(className, row, column) {
  const element = document.createElement("div");
  element.className = className;
  element.style.gridRow = String(row);
  element.style.gridColumn = String(column);
  return element;
}

function drawBoard() {
  const board = current();
  const n = board.holes;
  const element = $("board");
  element.replaceChildren();
  element.style.setProperty("--n", String(n));
  element.classList.toggle("over", board.game_over);
  const analysis = state.analysis;
  const values = new Map();
  if (analysis) for (const m of analysis.moves) values.set(m.hole, m);
  const last = state.history[state.index].move;
  const worst = analysis ? Math.max(0, ...analysis.moves.filter((m) => m.exact).map((m) => analysis.moves[0].lower - m.lower)) : 0;

  const stores = [
    { player: 1, seeds: board.stores[1], column: 1 },
    { player: 0, seeds: board.stores[0], column: n + 2 },
  ];
  for (const store of stores) {
    const box = cell(`store p${store.player}${board.to_move === store.player && !board.game_over ? " to-move" : ""}`, "3 / span 2", store.column);
    box.setAttribute("aria-label", `store of player ${store.player}: ${plural(store.seeds, "seed")}`);
    box.appendChild(seedsElement(store.seeds, true));
    const name = document.createElement("span");
    name.className = "store-name";
    name.textContent = `S${store.player}`;
    box.appendChild(name);
    element.appendChild(box);
  }

  for (let hole = 0; hole < 2 * n; hole++) {
    const top = hole < n;
    const column = (top ? hole : hole - n) + 2;
    const [numberRow, valueRow, holeRow] = top ? [1, 2, 3] : [6, 5, 4];
    const label = cell("hole-number", numberRow, column);
    label.textContent = String(hole);
    element.appendChild(label);

    const seeds = board.board[hole];
    const legal = board.legal_moves.includes(hole);
    const button = document.createElement("button");
    button.type = "button";
    button.className = `hole p${ownerOf(hole, n)}`;
    button.style.gridRow = String(holeRow);
    button.style.gridColumn = String(column);
    button.dataset.hole = String(hole);
    button.disabled = !legal;
    if (last && last.hole === hole) button.classList.add("last-played");
    button.appendChild(seedsElement(seeds, false));
    let description = `hole ${hole}, ${plural(seeds, "seed")}`;

    const badge = cell("move-value", valueRow, column);
    const m = values.get(hole);
    if (m) {
      badge.dataset.hole = String(hole);
      if (m.exact) {
        const cost = analysis.moves[0].lower - m.lower;
        badge.textContent = signed(m.value);
        const best = isBest(m, analysis.moves);
        badge.classList.add(best ? "best" : "worse");
        if (best) button.classList.add("best");
        badge.style.setProperty("--cost", String(best || worst === 0 ? 0 : 0.25 + 0.75 * (cost / worst)));
        description += `, value ${signed(m.value)}${best ? ", a best move" : `, costs ${cost}`}`;
        badge.title = best ? "a best move" : `costs ${cost} against the best move`;
      } else {
        // Two short lines rather than one wide chip, so that neighbours never overlap.
        const lower = document.createElement("span");
        lower.textContent = signed(m.lower);
        const upper = document.createElement("span");
        upper.textContent = signed(m.upper);
        badge.append(lower, upper);
        badge.classList.add("bounds");
        description += `, value between ${signed(m.lower)} and ${signed(m.upper)} (not exact yet)`;
        badge.title = "bounds proven before the time limit";
      }
    }
    button.setAttribute("aria-label", description);
    element.appendChild(badge);
    element.appendChild(button);
  }
  fitSeeds();
}

/** Small holes show their counts alone, large enough to read: dots would crowd them. */
function fitSeeds() {
  const hole = document.querySelector("#board .hole");
  const board = $("board");
  board.classList.remove("compact");
  if (hole && hole.getBoundingClientRect().width < COMPACT_HOLE_PX) board.classList.add("compact");
}

function drawTurn() {
  const board = current();
  const turn = $("turn");
  turn.className = "turn";
  if (board.game_over) {
    const difference = board.stores[0] - board.stores[1];
    const verdict = difference === 0 ? "a draw" : `player ${difference > 0 ? 0 : 1} wins by ${Math.abs(difference)}`;
    turn.textContent = `Game over: ${verdict} (S0 ${board.stores[0]}, S1 ${board.stores[1]})`;
    turn.classList.add("over");
    return;
  }
  const row = board.to_move === 0 ? "bottom row" : "top row";
  turn.textContent = `Player ${board.to_move} to move (${row}) · score S0 ${board.stores[0]} – S1 ${board.stores[1]}`;
  turn.classList.add(`p${board.to_move}`);
}

/** What the numbers on the board mean, for the player to move now. */
function drawLegend() {
  const board = current();
  const legend = $("legend");
  if (board.game_over) {
    legend.textContent = "The game is over: no move to value.";
    return;
  }
  legend.textContent =
    `Each number over a hole is what that move is worth to player ${board.to_move}, who is to move: ` +
    "the final store difference (their store minus the other's) if both play perfectly after it. " +
    "Green: a best move. Amber to red: a worse move, the redder the more it costs. " +
    "Two stacked numbers in a dashed box: the lowest and highest value proven so far. " +
    "Holes are numbered as in the position's notation; type a number to play that hole.";
}

function drawSummary() {
  const analysis = state.analysis;
  const board = current();
  const value = $("value");
  const pv = $("pv");
  pv.replaceChildren();
  if (!analysis) {
    value.textContent = "";
    return;
  }
  const mover = board.to_move;
  if (analysis.exact) {
    const verdict = analysis.value > 0 ? `a win by ${analysis.value}` : analysis.value < 0 ? `a loss by ${-analysis.value}` : "a draw";
    value.textContent = `Value for player ${mover}: ${signed(analysis.value)}, ${verdict} with perfect play.`;
  } else {
    const proven = analysis.result ? `: ${analysis.result === "win" ? "a win" : analysis.result === "loss" ? "a loss" : "a draw"} for player ${mover}, proven` : "";
    value.textContent = `Value for player ${mover}: between ${signed(analysis.lower)} and ${signed(analysis.upper)}${proven} (not exact yet).`;
  }
  if (analysis.notice) value.textContent += ` Note: ${analysis.notice}.`;
  for (const hole of analysis.pv) {
    const chip = document.createElement("span");
    chip.className = `chip p${ownerOf(hole, board.holes)}`;
    chip.textContent = String(hole);
    pv.appendChild(chip);
  }
  if (analysis.pv.length === 0) pv.textContent = analysis.game_over ? "the game is over" : "none yet";
  else if (!analysis.pv_complete) pv.appendChild(document.createTextNode(" … (cut short)"));
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  let turn = null;
  for (let i = 1; i < state.history.length; i++) {
    const move = state.history[i].move;
    const player = state.history[i - 1].board.to_move;
    if (!turn || turn.dataset.player !== String(player) || !state.history[i - 1].move?.extra_move) {
      turn = document.createElement("li");
      turn.dataset.player = String(player);
      const who = document.createElement("span");
      who.className = `who p${player}`;
      who.textContent = `P${player}`;
      turn.appendChild(who);
      list.appendChild(turn);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = `small move${i === state.index ? " current" : ""}${i > state.index ? " undone" : ""}`;
    if (i > state.index) button.title = "undone: redo to play it again";
    button.dataset.index = String(i);
    button.textContent = `${move.hole}${move.extra_move && !move.game_over ? "+" : ""}${move.capture ? `×${move.captured}` : ""}`;
    button.title = `${button.title ? `${button.title}; ` : ""}${describeMove(move)}`;
    turn.appendChild(button);
  }
  if (state.history.length === 1) {
    const empty = document.createElement("li");
    empty.className = "empty";
    empty.textContent = current().game_over ? "No moves: this game is over." : "No moves yet: click a hole.";
    list.appendChild(empty);
  }
  $("undo").disabled = state.index === 0;
  $("redo").disabled = state.index === state.history.length - 1;
}

function drawPosition() {
  const notation = current().position;
  $("position-output").value = notation;
  const rules = state.rules ? `&rules=${encodeURIComponent(state.rules)}` : "";
  const url = `${location.pathname}?position=${encodeURIComponent(notation)}${rules}`;
  history.replaceState(null, "", url);
  $("link").href = url;
  const move = state.history[state.index].move;
  $("last-move").textContent = move ? `Last move: hole ${move.hole}: ${describeMove(move)}.` : "";
}

function draw() {
  drawBoard();
  drawTurn();
  drawLegend();
  drawSummary();
  drawMoves();
  drawPosition();
  const best = state.analysis && state.analysis.moves.find((m) => isBest(m, state.analysis.moves));
  $("play-best").disabled = !best;
}

// ---- Searching ----

function showError(message) {
  const error = $("error");
  error.textContent = message;
  error.hidden = !message;
}

function stopTimer() {
  if (state.search) clearInterval(state.search.timer);
  $("stop").hidden = true;
  $("search-clock").textContent = "";
}

/** Sets the status line, a live region: only a change of words is written (and announced). */
function setStatus(text) {
  const status = $("search-status");
  if (status.textContent !== text) status.textContent = text;
}

/** Waits for a server that stopped answering, then analyses again. */
function recover() {
  if (state.retry) return;
  state.retry = setInterval(async () => {
    try {
      await api("status", {});
    } catch {
      return;
    }
    clearInterval(state.retry);
    state.retry = 0;
    showError("");
    analyse();
  }, RETRY_MS);
}

/** Whether every move of an analysis has its exact value. */
const solved = (analysis) => analysis.exact && analysis.moves.every((m) => m.exact);

/** The status line of a finished analysis that took `waited` seconds from the first ask. */
function finishedStatus(analysis, why, waited) {
  const took = `${waited.toFixed(waited < 0.1 ? 3 : 2)} s`;
  if (solved(analysis)) {
    const source = analysis.from_database ? " (remembered in the server's results database)" : analysis.cached ? " (remembered by the server)" : "";
    return `Solved exactly in ${took}${source}${analysis.tables ? ", with endgame tables" : ""}.`;
  }
  return `${why}: showing the bounds proven so far (kept by the server: asking again goes on from them).`;
}

/** What a refining round works on: what is exact, and what is still open. */
function refiningStatus(analysis) {
  const open = analysis.moves.filter((m) => !m.exact);
  const widest = open.reduce((w, m) => (!w || m.upper - m.lower > w.upper - w.lower ? m : w), null);
  const moves = open.length === 0 ? "" : `${plural(open.length, "move")} of ${analysis.moves.length} still open` +
    (widest ? ` (widest: hole ${widest.hole}, ${signed(widest.lower)}…${signed(widest.upper)})` : "");
  const position = analysis.exact
    ? `the position's value ${signed(analysis.value)} is exact`
    : `the position's value is between ${signed(analysis.lower)} and ${signed(analysis.upper)}`;
  return `Refining: ${moves ? `${moves}; ` : ""}${position}`;
}

/**
 * Asks for the analysis of the current position (abandoning any search still running): first
 * with a short time limit, so that the best move and bounds show at once, then with the chosen
 * limit, and then, while some value is not exact and the position is still shown, again and
 * again with doubled limits (the server starts each search from the bounds proven before),
 * until the server's refining time per position is spent.
 */
async function analyse({ seconds, stopped = false } = {}) {
  if (state.search) {
    stopTimer();
    state.search.controller.abort();
    state.search = null;
  }
  const position = current().position;
  const remembered = state.known.get(position);
  state.analysis = remembered ? remembered.analysis : null;
  draw();
  if (remembered) {
    setStatus(`Solved exactly (remembered by this page)${remembered.analysis.tables ? ", with endgame tables" : ""}.`);
    return;
  }
  const controller = new AbortController();
  const started = performance.now();
  const search = { controller, started, stopped: false, timer: 0 };
  state.search = search;
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  let doing = "Searching";
  // The words go to the live region when they change; the clock, outside it, ticks.
  const tick = () => {
    setStatus(`${doing}…`);
    $("search-clock").textContent = elapsed();
  };
  tick();
  search.timer = setInterval(tick, 100);
  $("stop").hidden = false;
  const wanted = Math.min(seconds ?? Number($("time-limit").value), state.limits.cap);
  pollTables();
  let limit = stopped || wanted <= QUICK_SECONDS ? wanted : QUICK_SECONDS;
  try {
    let analysis = null;
    let why = stopped ? "Stopped" : `Time limit reached (${wanted} s)`;
    for (;;) {
      analysis = await api("analyse", { position, time_limit: limit }, controller.signal);
      if (state.search !== search) return;
      state.analysis = analysis;
      if (solved(analysis) || stopped) break;
      draw();
      const spent = (performance.now() - started) / 1000;
      if (limit >= wanted) {
        if (spent >= state.limits.refine) {
          why = `Stopped refining after ${Math.round(spent)} s, the server's limit per position`;
          break;
        }
        doing = refiningStatus(analysis);
        limit = Math.min(limit * 2, state.limits.cap, Math.max(state.limits.refine - spent, 0.1));
      } else {
        doing = refiningStatus(analysis);
        limit = wanted;
      }
    }
    const waited = (performance.now() - started) / 1000;
    stopTimer();
    state.search = null;
    setStatus(finishedStatus(analysis, why, waited));
    if (solved(analysis)) state.known.set(position, { analysis });
    draw();
  } catch (error) {
    if (state.search !== search) return;
    stopTimer();
    state.search = null;
    if (error.name === "AbortError") {
      if (search.stopped) {
        setStatus(`Stopped after ${elapsed()}; gathering the bounds proven so far…`);
        analyse({ seconds: BOUNDS_SECONDS, stopped: true });
      }
      return;
    }
    setStatus("");
    showError(error.message);
    if (error instanceof Offline) recover();
  }
}

function stopSearch() {
  if (!state.search) return;
  state.search.stopped = true;
  state.search.controller.abort();
}

// ---- Moving through the game ----

function goTo(index) {
  if (index < 0 || index >= state.history.length || index === state.index) return;
  state.index = index;
  showError("");
  analyse();
}

async function playHole(hole) {
  const board = current();
  if (!board.legal_moves.includes(hole)) return;
  showError("");
  try {
    const move = await api("play", { position: board.position, hole });
    if (current() !== board) return;
    state.history.splice(state.index + 1, state.history.length, { board: move.board, move });
    state.index += 1;
    analyse();
  } catch (error) {
    showError(error.message);
    if (error instanceof Offline) recover();
  }
}

function playBest() {
  const analysis = state.analysis;
  const best = analysis && analysis.moves.find((m) => isBest(m, analysis.moves));
  if (best) playHole(best.hole);
}

/** Starts a new game history from a position the server accepts. */
async function open(params) {
  try {
    const board = await api("show", params);
    state.history = [{ board, move: null }];
    state.index = 0;
    showError("");
    followBoard(board);
    analyse();
    return true;
  } catch (error) {
    showError(error.message);
    if (error instanceof Offline) recover();
    return false;
  }
}

/** The New game form shows the board opened: its holes, and its seeds per hole at the start. */
function followBoard(board) {
  const total = board.board.reduce((sum, seeds) => sum + seeds, 0) + board.stores[0] + board.stores[1];
  $("holes").value = String(board.holes);
  if (board.rules && !$("rules-label").hidden) $("rules").value = board.rules;
  $("seeds").value = String(Math.round(total / (2 * board.holes)));
}

/** The New game form's rules menu: the server's variants (Dakon's options), if it has any. */
function offerVariants(served, variants) {
  const menu = $("rules");
  for (const name of variants) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name === served ? `${name} (default)` : name;
    menu.appendChild(option);
  }
  menu.value = state.rules || served;
  $("rules-label").hidden = variants.length < 2;
}

/** Plays the game by `rules` from now on; what was learnt under other rules is forgotten. */
function setRules(rules) {
  if (rules === state.rules) return;
  state.rules = rules;
  state.known.clear();
}

/** The time menu: the choices the server allows, the default among them. */
function offerTimes(cap) {
  const menu = $("time-limit");
  const choices = TIME_CHOICES.filter((t) => t < cap);
  choices.push(cap);
  menu.replaceChildren();
  for (const t of choices) {
    const option = document.createElement("option");
    option.value = String(t);
    option.textContent = `${t} s`;
    menu.appendChild(option);
  }
  const saved = Number(load(SAVED.timeLimit));
  menu.value = String(choices.includes(saved) ? saved : choices.includes(10) ? 10 : cap);
}

/** A value saved across reloads (null when storage is off). */
function load(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function save(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage off (a private window): the choice lasts until the page is left.
  }
}

// ---- The endgame tables ----

/** Says how far the server's tables for the page's board are, asking again while they are prepared. */
async function pollTables() {
  if (state.tablesTimer) return;
  let tables;
  try {
    tables = (await api("status", {})).tables;
  } catch {
    return;
  }
  const line = $("tables-status");
  const preparing = tables && (tables.state === "building" || tables.state === "loading");
  if (preparing) {
    const doing = tables.state === "building" ? "being built (once)" : "loading";
    line.textContent = `Endgame tables for ${tables.holes} holes a row ${doing}: ${tables.tiers_ready} of ${tables.tiers} tiers ready. Searches go on meanwhile, slower near the end of the game.`;
    state.tablesTimer = setTimeout(() => {
      state.tablesTimer = 0;
      pollTables();
    }, RETRY_MS);
  } else if (tables && tables.state === "failed") {
    line.textContent = `The endgame tables could not be prepared (${tables.message}); searches go on without them.`;
  }
  line.hidden = !(preparing || (tables && tables.state === "failed"));
}

// ---- The game review ----

/** The record of the game shown, to its current move (docs/game-records.md): a turn line per
 * player's turn, an extra move staying on its line. */
function recordOfGame() {
  const first = state.history[0].board;
  const lines = [`rules ${first.rules}`, `position ${first.position}`];
  let turn = [];
  for (let i = 1; i <= state.index; i++) {
    const move = state.history[i].move;
    turn.push(move.hole);
    if (!(move.extra_move && !move.game_over) || i === state.index) {
      lines.push(`${lines.length - 1}. ${turn.join(" ")}`);
      turn = [];
    }
  }
  return lines.join("\n");
}

/** A value or its bounds, for a table cell. */
const shownSpan = (span) => (span.lower === span.upper ? signed(span.lower) : `${signed(span.lower)}…${signed(span.upper)}`);

/** The mark of a move that costs at least `cost`, from `before` to `after` (the mover's view). */
function markOf(cost, before, after) {
  const thrown = (before.lower > 0 && after.upper <= 0) || (before.lower >= 0 && after.upper < 0);
  if (cost >= 8 || (cost > 0 && thrown)) return "??";
  if (cost >= 3) return "?";
  if (cost >= 1) return "?!";
  return "";
}

/** Reviews a game record: the server reads it (refusing a malformed one with its line and
 * move), then every position is analysed (the results database first), and each move's value
 * before and after, cost, mark and the best line where it is marked are shown. */
async function reviewRecord(text) {
  const section = $("review");
  const status = $("review-status");
  section.hidden = false;
  $("review-table").replaceChildren();
  $("review-graph").replaceChildren();
  let game;
  try {
    game = await api("record", { record: text.trim() });
  } catch (error) {
    status.textContent = error.message;
    if (error instanceof Offline) recover();
    return;
  }
  const link = `${location.pathname}?record=${encodeURIComponent(game.record.trim())}`;
  $("review-link").href = link;
  const positions = [game.start, ...game.plies.map((p) => p.after)];
  const analyses = [];
  const limit = Math.min(Number($("time-limit").value), state.limits.cap);
  const started = performance.now();
  state.reviewing = text;
  for (let i = 0; i < positions.length; i++) {
    status.textContent = `Reviewing: position ${i + 1} of ${positions.length}…`;
    try {
      analyses.push(await api("analyse", { position: positions[i], time_limit: limit }));
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    if (state.reviewing !== text) return;
  }
  const span = (a) => ({ lower: a.lower, upper: a.upper });
  const rows = game.plies.map((ply, i) => {
    const before = span(analyses[i]);
    const played = analyses[i].moves.find((m) => m.hole === ply.hole);
    const after = { lower: played.lower, upper: played.upper };
    const cost = { lower: Math.max(0, before.lower - after.upper), upper: Math.max(0, before.upper - after.lower) };
    const mark = markOf(cost.lower, before, after);
    return { ply, number: i + 1, before, after, cost, mark, line: mark ? analyses[i].pv : [] };
  });
  const forPlayer0 = analyses.map((a) => (a.to_move === 0 ? span(a) : { lower: -a.upper, upper: -a.lower }));
  drawReviewGraph(forPlayer0, rows);
  drawReviewTable(rows);
  const exact = rows.every((r) => r.cost.lower === r.cost.upper);
  const remembered = analyses.filter((a) => a.from_database || a.cached).length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  status.textContent = `${plural(rows.length, "move")} reviewed in ${seconds} s (${remembered} of ${positions.length} positions remembered by the server)` +
    `${exact ? "" : "; some values are bounds: a longer time limit narrows them"}.`;
}

function drawReviewGraph(values, rows) {
  const svg = $("review-graph");
  const [width, height, pad] = [600, 160, 8];
  const top = Math.max(1, ...values.map((v) => Math.max(Math.abs(v.lower), Math.abs(v.upper))));
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => height / 2 - (v * (height / 2 - pad)) / top;
  const make = (name, attributes) => {
    const element = document.createElementNS(svg.namespaceURI, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
    svg.appendChild(element);
    return element;
  };
  make("line", { class: "zero", x1: pad, x2: width - pad, y1: y(0), y2: y(0) });
  const middle = (v) => (v.lower + v.upper) / 2;
  make("polyline", { class: "value", points: values.map((v, i) => `${x(i)},${y(middle(v))}`).join(" ") });
  for (const row of rows) {
    if (!row.mark) continue;
    const i = row.number;
    const severity = { "?!": 1, "?": 2, "??": 3 }[row.mark];
    const dot = make("circle", { class: `mark m${severity}`, cx: x(i), cy: y(middle(values[i])), r: 5 });
    const title = document.createElementNS(svg.namespaceURI, "title");
    title.textContent = `move ${i}: hole ${row.ply.hole}${row.mark}, costs ${shownSpan(row.cost)}`;
    dot.appendChild(title);
  }
}

function drawReviewTable(rows) {
  const table = $("review-table");
  const head = document.createElement("tr");
  for (const name of ["move", "player", "hole", "before", "after", "cost", "", "best line"]) {
    const th = document.createElement("th");
    th.textContent = name;
    head.appendChild(th);
  }
  table.replaceChildren(head);
  rows.forEach((row, i) => {
    const tr = document.createElement("tr");
    if (row.mark) tr.className = "marked";
    const cells = [String(i + 1), `P${row.ply.player}`, String(row.ply.hole), shownSpan(row.before), shownSpan(row.after),
      row.cost.lower === row.cost.upper ? String(row.cost.lower) : `${row.cost.lower}…${row.cost.upper}`, row.mark, row.line.join(" ")];
    cells.forEach((text, c) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (c === 7) td.className = "line";
      tr.appendChild(td);
    });
    table.appendChild(tr);
  });
}

// ---- Copying ----

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const field = $("position-output");
    const before = field.value;
    field.value = text;
    field.select();
    document.execCommand("copy");
    field.value = before;
  }
  const label = button.textContent;
  button.textContent = "Copied";
  setTimeout(() => (button.textContent = label), 1200);
}

// ---- Wiring ----

async function setUp() {
  const holes = $("holes");
  for (let n = 1; n <= 9; n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    option.selected = n === 7;
    holes.appendChild(option);
  }
  // Dakon starts with as many seeds per hole as holes per row; Kalah's seeds stay as chosen.
  const seedsFollowHoles = document.body.dataset.holes === document.body.dataset.seeds;
  holes.addEventListener("change", () => {
    if (seedsFollowHoles) $("seeds").value = holes.value;
  });

  $("board").addEventListener("click", (event) => {
    const target = event.target.closest("[data-hole]");
    if (target && !target.disabled) playHole(Number(target.dataset.hole));
  });
  $("moves").addEventListener("click", (event) => {
    const target = event.target.closest("[data-index]");
    if (target) goTo(Number(target.dataset.index));
  });
  $("undo").addEventListener("click", () => goTo(state.index - 1));
  $("redo").addEventListener("click", () => goTo(state.index + 1));
  $("play-best").addEventListener("click", playBest);
  $("stop").addEventListener("click", stopSearch);
  $("time-limit").addEventListener("change", () => {
    save(SAVED.timeLimit, $("time-limit").value);
    analyse();
  });
  const shortcuts = $("shortcuts");
  shortcuts.checked = load(SAVED.shortcuts) !== "off";
  shortcuts.addEventListener("change", () => save(SAVED.shortcuts, shortcuts.checked ? "on" : "off"));
  window.addEventListener("resize", fitSeeds);
  // Once a game is opened the keys play on the board again, so the form lets go of them.
  $("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    setRules($("rules-label").hidden ? null : $("rules").value);
    if (await open({ position: "start", holes: $("holes").value, seeds: $("seeds").value })) document.activeElement.blur();
  });
  $("paste").addEventListener("submit", async (event) => {
    event.preventDefault();
    // Stray spaces around a pasted position are the clipboard's, not the user's.
    if (await open({ position: $("position-input").value.trim() })) {
      $("position-input").value = "";
      document.activeElement.blur();
    }
  });
  $("copy").addEventListener("click", (event) => copy(current().position, event.target));
  $("copy-link").addEventListener("click", (event) => copy(new URL($("link").href, location.href).href, event.target));
  document.addEventListener("keydown", onKey);
  $("review-game").addEventListener("click", () => reviewRecord(recordOfGame()));
  $("review-record").addEventListener("click", () => reviewRecord($("record-input").value));
  $("copy-record").addEventListener("click", (event) => copy(recordOfGame(), event.target));

  // What the server allows, before the first search.
  try {
    const status = await api("status", {});
    state.limits = { cap: status.time_limit_cap, refine: status.refine_seconds };
    offerVariants(status.rules, status.variants || []);
  } catch {
    // An older or busy server: keep the defaults; its answers say when a limit was clamped.
  }
  offerTimes(state.limits.cap);
  pollTables();
  const start = { position: "start", holes: document.body.dataset.holes, seeds: document.body.dataset.seeds };
  const params = new URLSearchParams(location.search);
  const first = {};
  for (const name of ["position", "holes", "seeds"]) if (params.has(name)) first[name] = params.get(name);
  if (params.has("rules")) setRules(params.get("rules"));
  if (!first.position) Object.assign(first, start);
  else if (first.position === "start" && !first.holes) Object.assign(first, start);
  const opened = await open(first);
  if (params.has("record")) {
    $("record-input").value = params.get("record");
    reviewRecord(params.get("record"));
  }
  if (opened) return;
  // A link whose position the server refuses opens the start, and says why.
  const refused = $("error").textContent;
  await open(start);
  showError(`The position in the link was refused: ${refused}`);
}

function onKey(event) {
  if (event.key === "Escape") {
    stopSearch();
    return;
  }
  const typing = event.target.closest("input, select, textarea");
  if (typing || event.altKey || event.metaKey) return;
  const single = $("shortcuts").checked;
  if (event.ctrlKey) {
    if (event.key === "z") goTo(state.index - 1);
    else if (event.key === "y") goTo(state.index + 1);
    else return;
    event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "arrowleft") goTo(state.index - 1);
  else if (key === "arrowright") goTo(state.index + 1);
  else if (key === "enter" && !event.target.closest("button, a")) playBest();
  else if (!single) return;
  else if (/^[0-9]$/.test(key)) typeDigit(key);
  else if (key === "u") goTo(state.index - 1);
  else if (key === "r") goTo(state.index + 1);
  else if (key === "b") playBest();
  else if (key === "c") copy(current().position, $("copy"));
  else if (key === "p") $("position-input").focus();
  else if (key === "n") $("holes").focus();
  else return;
  event.preventDefault();
}

/** A digit of a hole number: played as soon as no legal hole's number goes on from it, else
 * after a short wait for the next digit. */
function typeDigit(digit) {
  clearTimeout(state.digitTimer);
  state.digits = (state.digits || "") + digit;
  const typed = state.digits;
  const legal = current().legal_moves.map(String);
  const play = () => {
    state.digits = "";
    if (legal.includes(typed)) playHole(Number(typed));
  };
  if (legal.some((hole) => hole.length > typed.length && hole.startsWith(typed))) state.digitTimer = setTimeout(play, DIGIT_MS);
  else play();
}

document.addEventListener("DOMContentLoaded", () => setUp());
