// Peg solitaire: choose a board, click a peg then a hole; undo, redo, hint, solve.
"use strict";

BL.games.pegs = (() => {
  const $ = BL.$;
  let spec = null;       // {board} or {board_file}, plus walks
  let history = [];      // server states, history[0] is the start
  let played = [];       // played[i] = the move that led to history[i + 1]
  let index = 0;         // the state shown
  let selected = null;   // the hole of the selected peg
  let animating = false;
  let stopRequested = false;

  const current = () => history[index];
  const body = (extra) => Object.assign({}, spec, { pegs: current().pegs }, extra || {});

  function show(message, kind) {
    const state = current();
    BL.picture("pegs-svg", state.svg, onCell);
    $("pegs-svg").dataset.hint = "";
    $("pegs-svg").dataset.moves = index;
    $("pegs-pegs").textContent = state.peg_count;
    $("pegs-moves").textContent = index;
    const list = $("pegs-history");
    list.innerHTML = "";
    played.forEach((move, i) => {
      const item = document.createElement("li");
      item.textContent = move.text + (move.kind === "walk" ? " (walk)" : "");
      if (i >= index) item.style.opacity = "0.4";
      list.appendChild(item);
    });
    selected = null;
    if (message) {
      BL.status("pegs-status", message, kind);
    } else if (state.over) {
      const won = state.peg_count === 1;
      BL.status("pegs-status", won
        ? `Solved: one peg left, in ${state.pegs[0]}.`
        : `No move left: ${state.peg_count} pegs remain.`, won ? "ok" : "");
    } else {
      BL.status("pegs-status", `${state.legal.length} legal move(s).`);
    }
    buttons();
  }

  function buttons() {
    $("pegs-undo").disabled = animating || index === 0;
    $("pegs-redo").disabled = animating || index >= history.length - 1;
    for (const id of ["pegs-hint", "pegs-solve", "pegs-new"]) $(id).disabled = animating;
    $("pegs-stop").disabled = !animating;
  }

  async function newGame() {
    const choice = $("pegs-board").value;
    $("pegs-file-box").hidden = choice !== "file";
    spec = choice === "file" ? { board_file: $("pegs-file").value } : { board: choice };
    spec.walks = $("pegs-walks").checked;
    try {
      const state = await BL.api("pegs/state", spec);
      history = [state];
      played = [];
      index = 0;
      show(`${state.board}: ${state.peg_count} pegs, ${state.holes.length} holes.`);
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
  }

  async function play(from, to) {
    const state = await BL.api("pegs/move", body({ move: `${from}-${to}` }));
    history = history.slice(0, index + 1);
    played = played.slice(0, index);
    history.push(state);
    played.push(state.played);
    index += 1;
    return state;
  }

  async function onCell(name) {
    if (animating || !history.length) return;
    const state = current();
    if (state.pegs.includes(name)) {
      selected = selected === name ? null : name;
      BL.mark("pegs-svg", selected ? [selected] : [], "selected");
      const targets = selected ? state.legal.filter((m) => m.from === selected).map((m) => m.to) : [];
      BL.mark("pegs-svg", targets, "target");
      if (selected) {
        BL.status("pegs-status", targets.length
          ? `Peg ${selected} selected: click a hole to move it.`
          : `Peg ${selected} selected: it has no legal move.`);
      }
      return;
    }
    if (!selected) {
      BL.status("pegs-status", "Click a peg first, then the hole it should move to.");
      return;
    }
    try {
      const after = await play(selected, name);
      show(after.over ? null : `Played ${after.played.text}.`);
    } catch (err) {
      BL.status("pegs-status", "Illegal move: " + err.message, "error");
    }
  }

  async function hint() {
    BL.status("pegs-status", "Thinking...");
    try {
      const goal = $("pegs-goal").value;
      const found = await BL.api("pegs/hint", body({ goal }));
      $("pegs-svg").dataset.hint = found.move ? `${found.move.from} ${found.move.to}` : "";
      if (found.move) {
        BL.mark("pegs-svg", [found.move.from, found.move.to], "hint");
        BL.status("pegs-status",
          `Hint: ${found.move.text} (${found.moves_left} move(s) to the goal ${found.goal}).`, "ok");
      } else if (found.decided && found.solvable === false) {
        BL.status("pegs-status", `No solution from here: ${found.reason}.`, "error");
      } else if (found.solvable) {
        BL.status("pegs-status", "The goal is reached.", "ok");
      } else {
        BL.status("pegs-status", `Not decided: ${found.reason}.`);
      }
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
  }

  async function solve() {
    BL.status("pegs-status", "Solving...");
    let found;
    try {
      found = await BL.api("pegs/solve", body({ goal: $("pegs-goal").value }));
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
      return;
    }
    if (!found.solved) {
      const text = found.decided ? `No solution from here: ${found.reason}.` : `Not decided: ${found.reason}.`;
      BL.status("pegs-status", text, "error");
      return;
    }
    animating = true;
    stopRequested = false;
    buttons();
    const delay = found.moves.length > 60 ? 60 : 300;
    try {
      for (const move of found.moves) {
        if (stopRequested) break;
        await play(move.from, move.to);
        show(`Solving: ${move.text} (${found.reason}).`);
        await BL.sleep(delay);
      }
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    } finally {
      animating = false;
      show(stopRequested ? "Stopped." : null);
    }
  }

  async function start() {
    const select = $("pegs-board");
    try {
      const list = await BL.api("pegs/boards");
      for (const board of list.boards) {
        const option = document.createElement("option");
        option.value = board.name;
        option.textContent = `${board.name} (${board.holes} holes)`;
        select.appendChild(option);
      }
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
    const pasted = document.createElement("option");
    pasted.value = "file";
    pasted.textContent = "a board file (paste it)";
    select.appendChild(pasted);
    select.addEventListener("change", newGame);
    $("pegs-walks").addEventListener("change", newGame);
    $("pegs-new").addEventListener("click", newGame);
    $("pegs-undo").addEventListener("click", () => { if (index > 0) { index -= 1; show("Undone."); } });
    $("pegs-redo").addEventListener("click", () => {
      if (index < history.length - 1) { index += 1; show("Redone."); }
    });
    $("pegs-hint").addEventListener("click", hint);
    $("pegs-solve").addEventListener("click", solve);
    $("pegs-stop").addEventListener("click", () => { stopRequested = true; });
    await newGame();
  }

  return { start, started: false };
})();
