// Hex: play either colour against the engine, with the swap rule if wanted; the page
// draws the board itself (last move, move numbers, the engine's analysis on the cells).
// The board is drawn as HexGui draws it (red, player 1, joins top and bottom) and every
// cell has HexGui's name, the server's: state.cells lists them row by row as drawn.
"use strict";

BL.games.hex = (() => {
  const $ = BL.$;
  const NAMES = { 1: "red (player 1)", 2: "blue (player 2)" };
  const COLOURS = { 1: "#d33", 2: "#36c" };
  const CELL = 34;                       // cell width in SVG units
  const MIN_CELL_PX = 30;                // a cell is never drawn narrower (tapping)
  let state = null;
  let human = 1;
  let seed = 1;
  let analysis = null;                   // {to_move, top: [...]} for the shown position
  let resigned = false;                  // the person resigned this game
  let thinking = null;                   // the engine's request while it thinks (Stop aborts it)
  let reviewed = null;                   // the review of the game's moves (hex/review)
  const requests = new BL.Requests(() => refresh());
  const walk = new BL.Walker({
    requests,
    total: () => state.moves.length,
    fetch: (ply) => BL.api("hex/state", { size: state.size, swap: state.swap, moves: state.moves.slice(0, ply) }),
    show: () => show(),
    error: (message) => BL.status("hex-status", message, "error"),
  });
  const walkTo = (ply) => state && walk.to(ply);
  const onKey = (event) => state && walk.key(event, "hex");

  // The engine's limit; throws a message naming the Time box's limits when it is out of them.
  function engineSettings() {
    const choice = $("hex-engine").value;
    if (choice.startsWith("playouts:")) return { playouts: Number(choice.split(":")[1]), seed };
    const seconds = BL.numberIn("hex-time",
      (min, max) => `The engine's time must be ${min} to ${max} seconds a move.`);
    return { time: seconds, seed };
  }

  const game = () => ({ size: state.size, swap: state.swap, moves: state.moves });
  const shown = () => (walk.viewing ? walk.viewing.state : state);

  // The game and its settings (engine, time, flip, resigned) travel in the link;
  // names=hexgui says its moves have HexGui's names (older links named them across the
  // long diagonal: see linkMoves).
  function remember() {
    if (!state) return;
    const kept = { size: state.size, swap: state.swap ? 1 : 0, you: human, moves: state.moves.join(","),
      names: "hexgui", engine: $("hex-engine").value, time: $("hex-time").value };
    if ($("hex-flip").checked) kept.flip = 1;
    if (resigned) kept.resigned = 1;
    BL.remember("hex", new URLSearchParams(kept));
  }

  // The settings a link or a reload kept (each checked against what the page offers).
  function recallSettings(kept) {
    const engine = kept.get("engine");
    if (engine && [...$("hex-engine").options].some((o) => o.value === engine)) $("hex-engine").value = engine;
    const time = kept.get("time");
    if (time !== null && time !== "" && Number.isFinite(Number(time))) $("hex-time").value = time;
    $("hex-flip").checked = kept.get("flip") === "1";
  }

  const over = (s) => s.winner !== null || resigned;

  // The moves a link or a reload kept, in HexGui's names: a link from before
  // names=hexgui named each cell across the long diagonal (c5 for HexGui's e3).
  function linkMoves(kept) {
    const moves = (kept.get("moves") || "").split(",").filter(Boolean);
    if (kept.get("names") === "hexgui") return moves;
    return moves.map((name) => {
      const cell = /^([a-z])([0-9]+)$/i.exec(name);
      const number = cell ? Number(cell[2]) : 0;
      if (!cell || number < 1 || number > 26) return name;
      return String.fromCharCode(96 + number) + String(cell[1].toLowerCase().charCodeAt(0) - 96);
    });
  }

  // -- the board picture ------------------------------------------------------------------
  function draw() {
    const state = shown();
    const n = state.size;
    const r = CELL / Math.sqrt(3);
    const left = CELL * 2.4;             // room for the row labels, left of the red edge
    const top = CELL * 1.3;
    // flipped, the board is turned half round: row r is drawn where row n-1-r was
    const flip = $("hex-flip").checked;
    const turn = (i) => (flip ? n - 1 - i : i);
    const centre = (row, col) => [left + turn(col) * CELL + turn(row) * CELL / 2, top + turn(row) * r * 1.5];
    const spot = (row, col) => [left + col * CELL + row * CELL / 2, top + row * r * 1.5];
    const width = left + (n - 1) * CELL * 1.5 + CELL + CELL * 1.2;
    const height = top * 2 + (n - 1) * r * 1.5 + r;
    const svg = BL.svg("svg", { viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`,
      role: "img", "aria-label": `Hex ${n} x ${n}` });
    svg.appendChild(BL.svg("title", {}, `Hex ${n} x ${n}: red joins top and bottom, blue left and right`));
    // each player's edges follow the outer sides of the border cells; drawn thick under
    // the cells, the half outside them shows
    const vertex = (row, col, k) => {
      const [cx, cy] = spot(row, col);
      const angle = (90 + 60 * k) * Math.PI / 180;
      return `${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`;
    };
    const edge = (points, player, side) => svg.appendChild(BL.svg("polyline", {
      points: points.join(" "), fill: "none", stroke: COLOURS[player], "stroke-width": 9,
      "stroke-linejoin": "round", "stroke-linecap": "round", class: "edge", "data-edge": side }));
    const topSide = [], bottomSide = [], leftSide = [], rightSide = [];
    for (let i = 0; i < n; i++) {
      topSide.push(vertex(0, i, 2), vertex(0, i, 3));
      bottomSide.push(vertex(n - 1, i, 1), vertex(n - 1, i, 0));
      leftSide.push(vertex(i, 0, 2), vertex(i, 0, 1));
      rightSide.push(vertex(i, n - 1, 4), vertex(i, n - 1, 5));
    }
    topSide.push(vertex(0, n - 1, 4));
    bottomSide.push(vertex(n - 1, n - 1, 5));
    edge(topSide, 1, "top");
    edge(bottomSide, 1, "bottom");
    edge(leftSide, 2, "left");
    edge(rightSide, 2, "right");
    const owner = {};
    for (const player of [1, 2]) for (const name of state.stones[player]) owner[name] = player;
    const chain = new Set(state.chain);
    const marks = walk.viewing ? {} : analysisByCell();
    const numbers = $("hex-numbers").checked;
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const name = state.cells[row * n + col];
        const [cx, cy] = centre(row, col);
        const corners = [];
        for (let k = 0; k < 6; k++) {
          const angle = (90 + 60 * k) * Math.PI / 180;
          corners.push(`${(cx + r * Math.cos(angle)).toFixed(1)},${(cy + r * Math.sin(angle)).toFixed(1)}`);
        }
        const hex = BL.svg("polygon", { points: corners.join(" "), fill: "#f4e7c5", stroke: "#7a6a4f",
          "stroke-width": 1, "data-cell": name });
        hex.appendChild(BL.svg("title", {}, name));
        svg.appendChild(hex);
        const player = owner[name];
        if (player) {
          svg.appendChild(BL.svg("circle", { cx, cy, r: r * 0.72, fill: COLOURS[player],
            stroke: chain.has(name) ? "#000" : "none", "stroke-width": chain.has(name) ? 3 : 0 }));
          const numbered = numbers && state.numbers[name];
          if (name === state.last) {
            // a dot, or with the move numbers a ring round the stone, so the number stays readable
            svg.appendChild(BL.svg("circle", numbered
              ? { cx, cy, r: r * 0.6, fill: "none", stroke: "#fff", "stroke-width": 2.5, class: "last-move", "data-last": name }
              : { cx, cy, r: r * 0.28, fill: "#fff", class: "last-move", "data-last": name }));
          }
          if (numbered) {
            svg.appendChild(BL.svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 11,
              fill: "#fff", class: "move-number" }, String(state.numbers[name])));
          }
        } else if (marks[name]) {
          const entry = marks[name];
          svg.appendChild(BL.svg("circle", { cx, cy, r: r * 0.7, fill: COLOURS[analysis.to_move],
            "fill-opacity": 0.15 + 0.5 * entry.share, class: "analysis", "data-rate": entry.win_rate }));
          svg.appendChild(BL.svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 10,
            class: "analysis-text" }, `${Math.round(100 * entry.win_rate)}%`));
        }
      }
    }
    for (let col = 0; col < n; col++) {
      const [cx, cy] = spot(0, col);
      svg.appendChild(BL.svg("text", { x: cx, y: cy - r * 1.35, "text-anchor": "middle", "font-size": 12,
        class: "label" }, state.cells[turn(col)].replace(/[0-9]+$/, "")));
    }
    for (let row = 0; row < n; row++) {
      const [cx, cy] = spot(row, 0);
      svg.appendChild(BL.svg("text", { x: cx - CELL * 1.1, y: cy + 4, "text-anchor": "end", "font-size": 12,
        class: "label row-label" }, String(turn(row) + 1)));
    }
    const box = $("hex-svg");
    box.innerHTML = "";
    box.appendChild(svg);
    const cellsAcross = (width / CELL);
    box.style.setProperty("--board-min", `${Math.ceil(cellsAcross * MIN_CELL_PX)}px`);
    BL.scrollHint("hex-svg", "hex-scroll-note");
    for (const el of box.querySelectorAll("[data-cell]")) {
      el.addEventListener("click", () => onCell(el.getAttribute("data-cell")));
    }
    BL.focusable(box);
  }

  function analysisByCell() {
    const found = {};
    if (!analysis || !$("hex-show-analysis").checked) return found;
    const most = Math.max(1, ...analysis.top.map((m) => m.visits));
    for (const move of analysis.top) found[move.move] = { win_rate: move.win_rate, share: move.visits / most };
    return found;
  }

  // -- the side panel -----------------------------------------------------------------------
  function refresh() {
    if (!state) return;
    const busy = requests.busy;
    const ended = over(shown());
    $("hex-stop").hidden = thinking === null;
    $("hex-resign").disabled = busy || over(state) || walk.viewing !== null;
    $("hex-svg").classList.toggle("busy", busy);
    $("hex-undo").disabled = busy || !state.moves.length || walk.viewing !== null;
    $("hex-solve").disabled = busy || ended || !shown().solvable;
    const most = BL.limitOf("HexState.solvable")["x-most-empty"];   // the server's limit
    const side = Math.floor(Math.sqrt(most));
    const why = shown().solvable || ended || !most ? "" :
      `Who wins? (exact) needs at most ${most} empty cells: play on, or pick a board up to ${side} x ${side}.`;
    $("hex-solve").title = why;
    $("hex-solve-note").textContent = why;
    $("hex-analyse").disabled = busy || ended;
    $("hex-review").disabled = busy || !state.moves.length;
    $("hex-swap").hidden = !(shown().can_swap && shown().to_move === human);
    $("hex-swap").disabled = busy;
    $("hex-save").disabled = busy;
    $("hex-load").disabled = busy;
  }

  function showMoveList() {
    const list = $("hex-movelist");
    list.innerHTML = "";
    let player = 1;
    const current = walk.viewing ? walk.viewing.ply : state.moves.length;
    state.moves.forEach((name, index) => {
      const item = document.createElement("li");
      item.textContent = `${player === 1 ? "red" : "blue"} ${name === "swap-pieces" ? "swap" : name}`;
      item.dataset.ply = index + 1;
      item.tabIndex = 0;
      item.title = "show the position after this move (arrow keys step)";
      if (index + 1 === current) item.classList.add("current");
      item.addEventListener("click", () => walkTo(index + 1));
      list.appendChild(item);
      player = 3 - player;
    });
    const at = list.querySelector("li.current");
    if (at) list.scrollTop = at.offsetTop - list.offsetTop - list.clientHeight / 2;
    $("hex-walk").textContent = walk.note();
  }

  function show(message, kind) {
    const state = shown();
    draw();
    showMoveList();
    remember();
    $("hex-moves").textContent = state.moves.length ? "Moves: " + state.moves.map(said).join(" ") : "";
    if (walk.viewing && !message) message = state.winner ? "" : (state.to_move === human
      ? "Your move in this earlier position: it starts a new line."
      : "The engine is to move in this earlier position: step on, or to a position where you move.");
    $("hex-chain").textContent = state.winner ? "Winning chain: " + state.chain.join(" ") : "";
    const turn = $("hex-turn");
    turn.innerHTML = "";
    if (!over(state)) {
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.style.background = COLOURS[state.to_move];
      turn.append(dot, ` ${NAMES[state.to_move]} to move` + (state.to_move === human ? " (you)" : " (the engine)"));
    }
    if (message) {
      BL.status("hex-status", message, kind);
    } else if (over(state)) {
      BL.status("hex-status", "");
    } else {
      BL.status("hex-status", state.to_move === human ? "Your move." : "The engine is thinking...");
    }
    if (resigned && !walk.viewing) {
      BL.over("hex-over", `You resigned: the engine wins (${NAMES[3 - human]}). New game starts another.`, "lost");
      if (!message) BL.status("hex-status", "You resigned.", "error");
    } else if (state.winner) {
      const you = state.winner === human;
      BL.over("hex-over", you ? `You win: ${NAMES[state.winner]} is joined.`
        : `The engine wins: ${NAMES[state.winner]} is joined.`, you ? "ok" : "lost");
      BL.status("hex-status", you ? "You win." : "The engine wins.", you ? "ok" : "error");
    } else {
      BL.over("hex-over", "");
    }
    refresh();
  }

  // The engine's reason for a move, in a player's words.
  const REASONS = {
    "most visited": "the move its search tried most",
    "proven win": "a move proven to win",
    "proven loss": "every move loses; this one was tried most",
    "proven loss; most resistant move": "every move loses; this one resists longest",
    "wins at once": "it wins at once",
    "blocks the only threat": "it blocks the only winning threat",
    "only move": "the only move left",
    "virtual connection: proven win": "its stones are already connected, whatever you play: a proven win",
    "solver: proven win": "the exact solver proved it wins",
    "proven by the exact solver": "proven by the exact solver",
    "swap rule: a near-balanced first stone": "under the swap rule, a first stone that favours neither side",
  };
  const why = (reason) => REASONS[reason] || reason;
  // A move as a player says it: a cell, or "swap" (HexGui's swap-pieces).
  const said = (move) => (move === "swap-pieces" ? "swap" : move);

  function showAnalysis() {
    const box = $("hex-analysis");
    box.innerHTML = "";
    if (!analysis) return;
    const side = analysis.to_move === human ? "your" : "the engine's";
    const line = document.createElement("p");
    const how = analysis.verdict === 1 ? "a proven win" : analysis.verdict === -1 ? "a proven loss"
      : analysis.playouts === 0 ? why(analysis.reason)
        : `won ${BL.percent(analysis.win_rate)} of ${BL.count(analysis.playouts, "playout")}`;
    line.textContent = `Analysis: ${NAMES[analysis.to_move]} (${side} side) with ${analysis.move}: ${how}. ` +
      (analysis.solver ? "Proven by the exact solver: a winning move shows 100%, a losing one 0%:"
        : analysis.verdict === -1 ? "Every move loses against perfect play (0%); the moves that resist longest:"
          : "Best moves (how often the side to move won the engine's playouts):");
    box.appendChild(line);
    const cells = document.createElement("div");
    cells.className = "cells";
    for (const move of analysis.top) {
      const button = document.createElement("span");
      button.className = "chip";
      button.dataset.analysis = move.move;
      button.textContent = `${move.move} ${Math.round(100 * move.win_rate)}%`;
      cells.appendChild(button);
    }
    box.appendChild(cells);
  }

  function changed() {
    requests.changed();
    resigned = false;
    analysis = null;
    reviewed = null;
    $("hex-review-box").innerHTML = "";
    walk.reset();
    $("hex-analysis").innerHTML = "";
  }

  // -- actions --------------------------------------------------------------------------------
  async function engineMove() {
    if (!state || over(state) || state.to_move === human) return;
    show();
    const control = new AbortController();
    try {
      const settings = engineSettings();
      thinking = control;
      const answer = await requests.run(() => BL.api("hex/engine", Object.assign(game(), settings), control.signal));
      if (answer === BL.STALE) return;
      changed();
      state = answer;
      const e = answer.engine;
      const what = e.move === "swap-pieces" ? "swapped your first stone" : `played ${e.move}`;
      const rate = e.verdict === 0 && e.playouts > 0 ? `; it won ${BL.percent(e.win_rate)} of its playouts` : "";
      show(answer.winner ? null : `The engine ${what} (${why(e.reason)}${rate}). Your move.`);
    } catch (err) {
      if (control.signal.aborted) {
        show("Stopped: the engine has not moved. Click the board to let it think again, or take back your move.", "error");
      } else {
        show(`${err.message} Click the board to let the engine move.`, "error");
      }
    } finally {
      if (thinking === control) {
        thinking = null;
        refresh();
      }
    }
  }

  function stop() {
    if (thinking) thinking.abort();
  }

  function resign() {
    if (!state || over(state) || requests.busy) return;
    resigned = true;
    show();
  }

  async function play(move) {
    if (!state) return;
    if (requests.busy) {
      BL.status("hex-status", "Wait: the engine is still working on the last request.", "error");
      return;
    }
    if (walk.viewing) {
      if (walk.viewing.state.to_move !== human || walk.viewing.state.winner) {
        BL.status("hex-status", "It is not your move in this earlier position.", "error");
        return;
      }
      state = walk.viewing.state;             // a new line from the earlier position
      walk.reset();
    }
    if (over(state)) {
      BL.status("hex-status", "The game is over: New game starts another.", "error");
      return;
    }
    if (state.to_move !== human) {
      await engineMove();                // an engine move that failed: try it again
      return;
    }
    try {
      engineSettings();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
      return;
    }
    try {
      const answer = await requests.run(() => BL.api("hex/move", Object.assign(game(), { move })));
      if (answer === BL.STALE) return;
      changed();
      state = answer;
      show();
      await engineMove();
    } catch (err) {
      BL.status("hex-status", "Illegal move: " + err.message, "error");
    }
  }

  const onCell = (name) => play(name);

  async function newGame() {
    try {
      engineSettings();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
      return;
    }
    human = Number($("hex-colour").value);
    seed = Math.floor(Math.random() * 1e6);
    $("hex-pending").hidden = true;
    changed();
    const body = { size: Number($("hex-size").value), swap: $("hex-swap-rule").checked, moves: [] };
    try {
      const answer = await requests.run(() => BL.api("hex/state", body));
      if (answer === BL.STALE) return;
      state = answer;
      show();
      await engineMove();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
    }
  }

  async function undo() {
    if (requests.busy || !state.moves.length) return;
    // take back to the last position where it was the person's turn
    let moves = state.moves.slice(0, -1);
    const toMove = (n) => (n % 2 === 0 ? 1 : 2);
    while (moves.length && toMove(moves.length) !== human) moves = moves.slice(0, -1);
    changed();
    try {
      const answer = await requests.run(() => BL.api("hex/state", { size: state.size, swap: state.swap, moves }));
      if (answer === BL.STALE) return;
      state = answer;
      show("Taken back.");
      await engineMove();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
    }
  }

  async function analyse() {
    const box = $("hex-analysis");
    box.textContent = "Analysing...";
    try {
      const settings = engineSettings();
      const body = Object.assign({ size: shown().size, swap: shown().swap, moves: shown().moves }, settings);
      const found = await requests.run(() => BL.api("hex/analyze", body));
      if (found === BL.STALE) return;
      analysis = found;
      draw();
      showAnalysis();
    } catch (err) {
      box.textContent = err.message;
    }
  }

  // -- review: red's chance after every move, the moves that turned the game ----------------
  async function reviewGame() {
    const box = $("hex-review-box");
    box.textContent = "Reviewing every move...";
    try {
      const found = await requests.run(() => BL.api("hex/review", Object.assign(game(), { playouts: 1000, seed })));
      if (found === BL.STALE) return;
      reviewed = found;
      drawReview();
    } catch (err) {
      box.textContent = err.message;
    }
  }

  function drawReview() {
    const box = $("hex-review-box");
    box.innerHTML = "";
    if (!reviewed) return;
    const points = reviewed.points;
    const [width, height, padX, padY] = [320, 130, 30, 14];
    const last = Math.max(1, points.length - 1);
    const x = (ply) => padX + (width - 2 * padX) * ply / last;
    const y = (chance) => padY + (height - 2 * padY) * (1 - chance);
    const svg = BL.svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "review-graph", role: "img",
      "aria-label": "red's chance after every move" });
    svg.appendChild(BL.svg("line", { x1: padX, x2: width - padX, y1: y(0.5), y2: y(0.5), stroke: "#bbb",
      "stroke-dasharray": "3 3" }));
    svg.appendChild(BL.svg("text", { x: 2, y: y(1) + 4, "font-size": 10, fill: COLOURS[1] }, "red"));
    svg.appendChild(BL.svg("text", { x: 2, y: y(0) + 4, "font-size": 10, fill: COLOURS[2] }, "blue"));
    svg.appendChild(BL.svg("polyline", { fill: "none", stroke: "#555", "stroke-width": 1.5,
      points: points.map((p) => `${x(p.ply).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" ") }));
    const every = Math.max(1, Math.ceil(last / 10 / 5) * 5);   // about ten numbers at most
    for (let ply = 0; ply <= last; ply += every) {
      svg.appendChild(BL.svg("text", { x: x(ply).toFixed(1), y: height - 1, "font-size": 9,
        "text-anchor": "middle", fill: "#555", class: "ply-number" }, String(ply)));
    }
    for (const p of points) {
      const dot = BL.svg("circle", { cx: x(p.ply).toFixed(1), cy: y(p.chance).toFixed(1), r: p.turned ? 5 : 3,
        fill: p.proven ? COLOURS[p.winner] : "#fff", stroke: p.turned ? "#000" : "#555",
        "stroke-width": p.turned ? 2 : 1, "data-ply": p.ply, class: p.turned ? "turned" : "point" });
      const who = p.proven ? `${NAMES[p.winner]} wins (proven)` : `red's chance ${Math.round(100 * p.chance)}%`;
      dot.appendChild(BL.svg("title", {}, p.ply ? `after move ${p.ply} (${said(p.move)}): ${who}` : `the start: ${who}`));
      dot.addEventListener("click", () => walkTo(p.ply));
      svg.appendChild(dot);
    }
    const note = document.createElement("p");
    note.className = "help";
    const turned = points.filter((p) => p.turned).map((p) => `${p.ply} (${said(p.move)})`);
    note.textContent = "Red's chance after every move, numbered below (filled: proven; click a point to see it). " +
      (turned.length ? `Moves that turned the game: ${turned.join(", ")}.` : "No move turned the game.");
    box.append(svg, note);
  }

  async function solve() {
    const box = $("hex-analysis");
    box.textContent = "Solving...";
    try {
      const body = { size: shown().size, swap: shown().swap, moves: shown().moves, time: 5 };
      const found = await requests.run(() => BL.api("hex/solve", body));
      if (found === BL.STALE) return;
      box.innerHTML = "";
      const line = document.createElement("p");
      if (found.winner === null) {
        line.textContent = "Not decided within 5 s.";
      } else {
        line.textContent = `With perfect play ${NAMES[found.winner]} wins.` +
          (found.winning_moves.length ? " Winning moves:" : "");
      }
      line.dataset.ply = shown().moves.length;
      box.appendChild(line);
      const cells = document.createElement("div");
      cells.className = "cells";
      for (const name of found.winning_moves) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = name;
        button.dataset.move = name;
        button.addEventListener("click", () => onCell(name));
        cells.appendChild(button);
      }
      box.appendChild(cells);
    } catch (err) {
      box.textContent = err.message;
    }
  }

  async function save() {
    try {
      const found = await requests.run(() => BL.api("hex/sgf", game()));
      if (found === BL.STALE) return;
      $("hex-sgf").value = found.sgf;
      BL.download(`hex-${state.size}x${state.size}.sgf`, found.sgf);
      BL.status("hex-status", "Saved as SGF (HexGui's format); the text is below too.", "ok");
    } catch (err) {
      BL.status("hex-status", err.message, "error");
    }
  }

  async function load(text) {
    const sgf = text === undefined ? $("hex-sgf").value : text;
    changed();
    try {
      const answer = await requests.run(() => BL.api("hex/load", { sgf }));
      if (answer === BL.STALE) return;
      state = answer;
      showSize(state.size);
      $("hex-swap-rule").checked = state.swap;
      show(`Loaded: ${BL.count(state.moves.length, "move")} on ${state.size} x ${state.size}.`);
      await engineMove();
    } catch (err) {
      BL.status("hex-status", "Cannot load: " + err.message, "error");
    }
  }

  // The size menu shows `n`, a size it does not offer (a loaded game's) included.
  function showSize(n) {
    const menu = $("hex-size");
    if (![...menu.options].some((o) => o.value === String(n))) {
      const option = document.createElement("option");
      option.value = String(n);
      option.textContent = `${n} x ${n} (loaded)`;
      menu.appendChild(option);
    }
    menu.value = String(n);
  }

  // The game the address or local storage kept (a reload, a shared link), else a new one.
  async function restore() {
    const kept = BL.recall("hex");
    const size = kept ? Number(kept.get("size")) : NaN;
    const sizes = BL.limitOf("HexGame.size");
    const [least, most] = [sizes.minimum || 1, sizes.maximum || 26];
    if (!kept || !(Number.isInteger(size) && size >= least && size <= most)) {
      if (kept) showSize(7);
      await newGame();
      if (kept) {
        const asked = (kept.get("size") || "").slice(0, 12);
        BL.status("hex-status", (asked ? `The link asks for a board of size "${asked}"; Hex boards here are ${least} x ${least} to ${most} x ${most}.`
          : "The link names no board size.") + " A new 7 x 7 game started.", "error");
      }
      return;
    }
    human = kept.get("you") === "2" ? 2 : 1;
    seed = Math.floor(Math.random() * 1e6);
    const swap = kept.get("swap") === "1";
    const moves = linkMoves(kept);
    recallSettings(kept);
    showSize(size);
    $("hex-colour").value = String(human);
    $("hex-swap-rule").checked = swap;
    changed();
    try {
      const answer = await requests.run(() => BL.api("hex/state", { size, swap, moves }));
      if (answer === BL.STALE) return;
      state = answer;
      resigned = kept.get("resigned") === "1" && state.winner === null;
      show(moves.length && !resigned ? `The game in progress: ${BL.count(moves.length, "move")}.` : null);
      await engineMove();
    } catch (err) {
      await newGame();
      BL.status("hex-status", `The game of the link could not be opened (${err.message}); a new game started.`, "error");
    }
  }

  function settingChanged() {
    if (state && state.moves.length === 0 && !requests.busy) {
      newGame();
    } else {
      $("hex-pending").hidden = false;
    }
  }

  function start() {
    const select = $("hex-size");
    // the sizes the server takes, read from its description (HexGame.size)
    const sizes = BL.limitOf("HexGame.size");
    const [least, most] = [sizes.minimum || 1, sizes.maximum || 26];
    for (let n = least; n <= most; n++) {
      const option = document.createElement("option");
      option.value = n;
      option.textContent = `${n} x ${n}`;
      if (n === 7) option.selected = true;
      select.appendChild(option);
    }
    for (const id of ["hex-size", "hex-colour", "hex-swap-rule"]) $(id).addEventListener("change", settingChanged);
    $("hex-new").addEventListener("click", newGame);
    $("hex-undo").addEventListener("click", undo);
    $("hex-solve").addEventListener("click", solve);
    $("hex-analyse").addEventListener("click", analyse);
    $("hex-review").addEventListener("click", reviewGame);
    BL.typed("hex-type", (text) => play(text.toLowerCase() === "swap" ? "swap-pieces" : text.toLowerCase()));
    $("hex-swap").addEventListener("click", () => play("swap-pieces"));
    $("hex-numbers").addEventListener("change", () => state && draw());
    $("hex-show-analysis").addEventListener("change", () => state && draw());
    $("hex-flip").addEventListener("change", () => { if (state) { draw(); remember(); } });
    $("hex-engine").addEventListener("change", remember);
    $("hex-time").addEventListener("change", remember);
    $("hex-stop").addEventListener("click", stop);
    $("hex-resign").addEventListener("click", resign);
    $("hex-save").addEventListener("click", save);
    $("hex-load").addEventListener("click", () => load());
    BL.onFile("hex-file", (text) => { $("hex-sgf").value = text; load(text); });
    document.addEventListener("keydown", onKey);
    BL.steps("hex-steps", onKey);
    restore();
  }

  return { start, started: false, remember, follow: restore };
})();
