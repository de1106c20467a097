// Ioiwari: play against perfect play; the value of every move on request.
"use strict";

BL.games.ioiwari = (() => {
  const $ = BL.$;
  const DEFAULT_START = "4 3 2 4 2 3 2";   // the statement's example start
  let state = null;
  let human = 1;
  let seed = 1;
  const requests = new BL.Requests(() => buttons());
  const walk = new BL.Walker({
    requests,
    total: () => state.moves.length,
    fetch: (ply) => BL.api("ioiwari/state", { start: state.start, moves: state.moves.slice(0, ply) }),
    show: () => show(),
    settled: () => values(),
    error: (message) => BL.status("ioi-status", message, "error"),
  });
  const walkTo = (ply) => state && walk.to(ply);
  const onKey = (event) => state && walk.key(event, "ioiwari");

  const game = () => ({ start: state.start, moves: state.moves });
  const shown = () => (walk.viewing ? walk.viewing.state : state);

  function remember() {
    if (!state) return;
    BL.remember("ioiwari", new URLSearchParams({ start: state.start.join(","), you: human,
      moves: state.moves.join(",") }));
  }

  function showMoveList() {
    const list = $("ioi-movelist");
    list.innerHTML = "";
    const current = walk.viewing ? walk.viewing.ply : state.moves.length;
    state.moves.forEach((pit, index) => {
      const item = document.createElement("li");
      item.textContent = `pit ${pit}`;
      item.dataset.ply = index + 1;
      item.title = "show the position after this move (arrow keys step)";
      if (index + 1 === current) item.classList.add("current");
      item.addEventListener("click", () => walkTo(index + 1));
      list.appendChild(item);
    });
    const at = list.querySelector("li.current");
    if (at) list.scrollTop = at.offsetTop - list.offsetTop - list.clientHeight / 2;
    $("ioi-walk").textContent = walk.note();
  }

  // Review: perfect play's final banks before and after every move, mistakes marked.
  let reviewed = null;    // the moves the shown review is of (a new move clears it)
  async function reviewGame() {
    const box = $("ioi-review-box");
    reviewed = state.moves.join(",");
    box.textContent = "Reviewing every move...";
    try {
      const found = await requests.run(() => BL.api("ioiwari/review", game()));
      if (found === BL.STALE) return;
      const rows = found.points.slice(1).map((p, i) => {
        const before = found.points[i].final_banks.join(" : ");
        const verdict = p.mistake ? `a mistake: ${p.lost} ${p.lost === 1 ? "bead" : "beads"} of margin lost`
          : "perfect";
        return `<tr class="${p.mistake ? "mistake" : ""}" data-ply="${p.ply}"><td>${p.ply}</td>` +
          `<td>player ${p.mover}</td><td>pit ${p.pit}</td><td>${before}</td>` +
          `<td>${p.final_banks.join(" : ")}</td><td>${verdict}</td></tr>`;
      }).join("");
      const count = found.points.filter((p) => p.mistake).length;
      box.innerHTML = `<p>Final banks under perfect play before and after every move ` +
        `(click a row to see the position): ${count} ${count === 1 ? "mistake" : "mistakes"}.</p>` +
        `<table class="values review"><tr><th>move</th><th>by</th><th>sown</th><th>before</th>` +
        `<th>after</th><th></th></tr>${rows}</table>`;
      for (const row of box.querySelectorAll("tr[data-ply]")) {
        row.addEventListener("click", () => walkTo(Number(row.dataset.ply)));
      }
    } catch (err) {
      box.textContent = err.message;
    }
  }

  async function values() {
    const box = $("ioi-analysis");
    const state = shown();
    if (!$("ioi-values").checked || !state || state.over) {
      box.innerHTML = "";
      box.dataset.ply = "";
      return;
    }
    try {
      const found = await requests.run(() => BL.api("ioiwari/analyze", { start: state.start, moves: state.moves }));
      if (found === BL.STALE) return;
      const rows = found.moves.map((m) =>
        `<tr class="${found.best.includes(m.pit) ? "best" : ""}" data-pit="${m.pit}"><td>${m.pit}</td>` +
        `<td>${m.banked}</td><td>${m.given}</td><td>${m.value > 0 ? "+" : ""}${m.value}</td></tr>`).join("");
      box.innerHTML =
        `<p>Value for player ${found.to_move}: ${found.value > 0 ? "+" : ""}${found.value} ` +
        `(final banks ${found.final_banks.join(" : ")} under perfect play)</p>` +
        `<table class="values"><tr><th>pit</th><th>banked</th><th>given</th><th>value</th></tr>${rows}</table>`;
      box.dataset.ply = state.moves.length;
    } catch (err) {
      box.textContent = err.message;
    }
  }

  function buttons() {
    const busy = requests.busy;
    $("ioi-undo").disabled = busy || !state || !state.moves.length || walk.viewing !== null;
    $("ioi-review").disabled = busy || !state || !state.moves.length;
    for (const id of ["ioi-random", "ioi-save", "ioi-load"]) $(id).disabled = busy;
    $("ioi-svg").classList.toggle("busy", busy);
  }

  // One move more than the position shown before: its sown pits flash in sowing order.
  let before = null;
  function sowingShown(now) {
    const moves = now.moves;
    const last = moves[moves.length - 1];
    if (before && moves.length === before.moves.length + 1 && before.moves.every((m, i) => m === moves[i])) {
      const size = now.pits.length;
      const order = (pit) => (pit - last + size) % size;
      const sown = now.pits.map((beads, i) => i + 1)
        .filter((pit) => pit !== last && now.pits[pit - 1] !== before.pits[pit - 1])
        .sort((a, b) => order(a) - order(b));
      BL.sowing("ioi-svg", sown.map(String), "#f2c200");
    }
    before = now;
  }

  function show(message, kind) {
    if (reviewed !== null && !game().moves.join(",").startsWith(reviewed)) {
      reviewed = null;
      $("ioi-review-box").innerHTML = "";
    }
    showMoveList();
    remember();
    const state = shown();
    BL.picture("ioi-svg", state.svg, onPit);
    sowingShown(state);
    $("ioi-transcript").textContent = state.transcript;
    const turn = state.over ? "" : `Player ${state.to_move} to move` + (state.to_move === human ? " (you)." : " (perfect play).");
    $("ioi-turn").textContent = turn;
    if (message) {
      BL.status("ioi-status", message, kind);
    } else if (state.over) {
      const you = state.winner === human;
      const text = state.winner === 0 ? "Draw" : you ? "You win" : "Perfect play wins";
      BL.status("ioi-status", `${text}: ${state.result}.`, you ? "ok" : "");
    } else {
      BL.status("ioi-status", walk.viewing
        ? (state.to_move === human ? "An earlier position, your move: a pit you click here starts a new line."
          : "An earlier position, perfect play to move: step on with the arrows, or back to the game.")
        : state.to_move === human ? "Your move: click a pit." : "Perfect play is moving...");
    }
    if (state.over) {
      const you = state.winner === human;
      const text = state.winner === 0 ? "Game over: a draw" : you ? "Game over: you win" : "Game over: perfect play wins";
      BL.over("ioi-over", `${text} (${state.result}).`, you ? "ok" : state.winner === 0 ? "" : "lost");
    } else {
      BL.over("ioi-over", "");
    }
    buttons();
  }

  async function reply() {
    if (!state || state.over || state.to_move === human) {
      await values();
      return;
    }
    try {
      const answer = await requests.run(() => BL.api("ioiwari/engine", Object.assign(game(), { seed })));
      if (answer === BL.STALE) return;
      requests.changed();
      state = answer;
      show(state.over ? null : `Perfect play sowed pit ${state.engine.move}. Your move.`);
    } catch (err) {
      show(err.message, "error");
    }
    await values();
  }

  async function onPit(pit) {
    if (!state) return;
    if (requests.busy) {
      BL.status("ioi-status", "Wait: the last request is still being answered.", "error");
      return;
    }
    if (walk.viewing) {
      if (walk.viewing.state.over || walk.viewing.state.to_move !== human) {
        BL.status("ioi-status", "It is not your move in this earlier position.", "error");
        return;
      }
      state = walk.viewing.state;             // a new line from the earlier position
      walk.reset();
    }
    if (state.over || state.to_move !== human) {
      BL.status("ioi-status", state.over ? "The game is over: New game starts another." : "Perfect play is to move.", "error");
      return;
    }
    try {
      const answer = await requests.run(() => BL.api("ioiwari/move", Object.assign(game(), { move: Number(pit) })));
      if (answer === BL.STALE) return;
      requests.changed();
      state = answer;
      show();
      await reply();
    } catch (err) {
      BL.status("ioi-status", "Illegal move: " + err.message, "error");
    }
  }

  async function newGame() {
    human = Number($("ioi-player").value);
    seed = Math.floor(Math.random() * 1e6);
    const pits = $("ioi-start").value.trim().split(/\s+/).map(Number);
    if (pits.some((x) => !Number.isInteger(x))) {
      BL.status("ioi-status", "The start is seven whole numbers, like 4 3 2 4 2 3 2.", "error");
      return;
    }
    requests.changed();
    walk.reset();
    try {
      const answer = await requests.run(() => BL.api("ioiwari/state", { start: pits, moves: [] }));
      if (answer === BL.STALE) return;
      state = answer;
      show();
      await reply();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  async function randomStart() {
    try {
      const found = await requests.run(() => BL.api("ioiwari/start", { seed: Math.floor(Math.random() * 1e6) }));
      if (found === BL.STALE) return;
      $("ioi-start").value = found.start.join(" ");
      await newGame();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  async function undo() {
    if (requests.busy || !state.moves.length) return;
    let moves = state.moves.slice(0, -1);
    // move back to a position where it is the person's turn
    const turn = async (m) => (await BL.api("ioiwari/state", { start: state.start, moves: m }));
    requests.changed();
    walk.reset();
    try {
      const previous = await requests.run(async () => {
        let found = await turn(moves);
        while (moves.length && found.to_move !== human) {
          moves = moves.slice(0, -1);
          found = await turn(moves);
        }
        return found;
      });
      if (previous === BL.STALE) return;
      state = previous;
      show("Taken back.");
      await reply();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  // A saved game: the start's seven pit counts on the first line, then a pit a line.
  function save() {
    const text = [state.start.join(" "), ...state.moves.map(String)].join("\n") + "\n";
    $("ioi-record").value = text;
    BL.download("ioiwari.txt", text);
    BL.status("ioi-status", "Saved: the start on the first line, then one pit a line.", "ok");
  }

  async function load(given) {
    const text = given === undefined ? $("ioi-record").value : given;
    const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line);
    const start = (lines[0] || "").split(/\s+/).map(Number);
    const moves = lines.slice(1).map(Number);
    if (!lines.length || [...start, ...moves].some((x) => !Number.isInteger(x))) {
      BL.status("ioi-status", "Cannot load: the first line is seven pit counts, then one pit number a line.", "error");
      return;
    }
    try {
      if (!await replace(start, moves)) return;
      $("ioi-start").value = start.join(" ");
      human = state.over ? human : state.to_move;
      $("ioi-player").value = String(human);
      show(`Loaded: ${BL.count(moves.length, "move")}; you play player ${human}.`);
      await values();
    } catch (err) {
      BL.status("ioi-status", "Cannot load: " + err.message, "error");
    }
  }

  // The game becomes the one of `start` and `moves` (false when a newer change won).
  async function replace(start, moves) {
    requests.changed();
    walk.reset();
    const answer = await requests.run(() => BL.api("ioiwari/state", { start, moves }));
    if (answer === BL.STALE) return false;
    state = answer;
    return true;
  }

  // The save/load box's limits, in words, from the API's description.
  function recordHelp() {
    const start = BL.limitOf("IoiwariGame.start");
    const moves = BL.limitOf("IoiwariGame.moves");
    if (!start.items || !moves.items) return;
    $("ioi-record-help").textContent = `First line: the ${start.maxItems} pit counts of the start ` +
      `(${start.items.minimum} to ${start.items.maximum} each); then the pit sown ` +
      `(${moves.items.minimum} to ${moves.items.maximum}), one a line, at most ${moves.maxItems} moves.`;
  }

  function start() {
    recordHelp();
    $("ioi-save").addEventListener("click", save);
    $("ioi-load").addEventListener("click", () => load());
    BL.onFile("ioi-file", (text) => { $("ioi-record").value = text; load(text); });
    $("ioi-new").addEventListener("click", newGame);
    $("ioi-random").addEventListener("click", randomStart);
    $("ioi-undo").addEventListener("click", undo);
    $("ioi-values").addEventListener("change", values);
    BL.typed("ioi-type", (text) => {
      if (!/^[1-7]$/.test(text)) {
        BL.status("ioi-status", `Type a pit number from 1 to 7, not "${text}".`, "error");
        return;
      }
      onPit(text);
    });
    document.addEventListener("keydown", onKey);
    BL.steps("ioi-steps", onKey);
    $("ioi-review").addEventListener("click", reviewGame);
    restore();
  }

  // The game the address or local storage kept, else a new one.
  async function restore() {
    const kept = BL.recall("ioiwari");
    const start = kept ? (kept.get("start") || "").split(",").map(Number) : [];
    const limit = BL.limitOf("IoiwariGame.start");
    const [pits, pit] = [limit.maxItems || 7, limit.items || { minimum: 0, maximum: 5 }];
    const fits = (x) => Number.isInteger(x) && x >= pit.minimum && x <= pit.maximum;
    if (!kept || start.length !== pits || !start.every(fits)) {
      if (kept) $("ioi-start").value = DEFAULT_START;
      await newGame();
      if (kept) BL.status("ioi-status", `The link's start is not ${pits} pits of ` +
        `${BL.span(pit.minimum, pit.maximum)} beads each (like 4,3,2,4,2,3,2): ` +
        `a new game from the usual start ${DEFAULT_START} started.`, "error");
      return;
    }
    human = kept.get("you") === "2" ? 2 : 1;
    $("ioi-player").value = String(human);
    $("ioi-start").value = start.join(" ");
    const moves = (kept.get("moves") || "").split(",").filter(Boolean).map(Number);
    try {
      if (!await replace(start, moves)) return;
      show(moves.length ? `The game in progress: ${BL.count(moves.length, "move")}.` : null);
      await reply();
    } catch (err) {
      $("ioi-start").value = DEFAULT_START;
      await newGame();
      BL.status("ioi-status", `The game of the link could not be opened (${err.message}); ` +
        `a new game from the usual start ${DEFAULT_START} started.`, "error");
    }
  }

  return { start, started: false, remember, follow: restore };
})();
