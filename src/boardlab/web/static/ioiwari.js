// Ioiwari: play against perfect play; the value of every move on request.
"use strict";

BL.games.ioiwari = (() => {
  const $ = BL.$;
  let state = null;
  let human = 1;
  let busy = false;
  let seed = 1;

  const game = () => ({ start: state.start, moves: state.moves });

  async function values() {
    const box = $("ioi-analysis");
    if (!$("ioi-values").checked || !state || state.over) {
      box.innerHTML = "";
      box.dataset.ply = "";
      return;
    }
    try {
      const found = await BL.api("ioiwari/analyze", game());
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

  function show(message, kind) {
    BL.picture("ioi-svg", state.svg, onPit);
    $("ioi-transcript").textContent = state.transcript;
    $("ioi-undo").disabled = busy || !state.moves.length;
    if (message) {
      BL.status("ioi-status", message, kind);
    } else if (state.over) {
      const you = state.winner === human;
      const text = state.winner === 0 ? "Draw" : you ? "You win" : "Perfect play wins";
      BL.status("ioi-status", `${text}: ${state.result}.`, you ? "ok" : "");
    } else {
      BL.status("ioi-status", state.to_move === human ? "Your move: click a pit." : "Perfect play is moving...");
    }
  }

  async function reply() {
    if (!state || state.over || state.to_move === human) {
      await values();
      return;
    }
    busy = true;
    try {
      state = await BL.api("ioiwari/engine", Object.assign(game(), { seed }));
      busy = false;
      show(state.over ? null : `Perfect play sowed pit ${state.engine.move}. Your move.`);
    } catch (err) {
      busy = false;
      show(err.message, "error");
    }
    await values();
  }

  async function onPit(pit) {
    if (busy || !state || state.over || state.to_move !== human) return;
    try {
      state = await BL.api("ioiwari/move", Object.assign(game(), { move: Number(pit) }));
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
    try {
      state = await BL.api("ioiwari/state", { start: pits, moves: [] });
      show();
      await reply();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  async function randomStart() {
    try {
      const found = await BL.api("ioiwari/start", { seed: Math.floor(Math.random() * 1e6) });
      $("ioi-start").value = found.start.join(" ");
      await newGame();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  async function undo() {
    if (busy || !state.moves.length) return;
    let moves = state.moves.slice(0, -1);
    // move back to a position where it is the person's turn
    const turn = async (m) => (await BL.api("ioiwari/state", { start: state.start, moves: m }));
    try {
      let previous = await turn(moves);
      while (moves.length && previous.to_move !== human) {
        moves = moves.slice(0, -1);
        previous = await turn(moves);
      }
      state = previous;
      show("Taken back.");
      await reply();
    } catch (err) {
      BL.status("ioi-status", err.message, "error");
    }
  }

  function start() {
    $("ioi-new").addEventListener("click", newGame);
    $("ioi-random").addEventListener("click", randomStart);
    $("ioi-undo").addEventListener("click", undo);
    $("ioi-values").addEventListener("change", values);
    newGame();
  }

  return { start, started: false };
})();
