// Hex: play either colour against the engine; the winning chain is shown at the end.
"use strict";

BL.games.hex = (() => {
  const $ = BL.$;
  const NAMES = { 1: "red (player 1)", 2: "blue (player 2)" };
  let state = null;
  let human = 1;
  let busy = false;
  let seed = 1;

  function engineSettings() {
    const choice = $("hex-engine").value;
    if (choice.startsWith("playouts:")) return { playouts: Number(choice.split(":")[1]), seed };
    return { time: Number($("hex-time").value) || 1, seed };
  }

  function show(message, kind) {
    BL.picture("hex-svg", state.svg, onCell);
    $("hex-moves").textContent = state.moves.length ? "Moves: " + state.moves.join(" ") : "";
    $("hex-chain").textContent = state.winner ? "Winning chain: " + state.chain.join(" ") : "";
    if (message) {
      BL.status("hex-status", message, kind);
    } else if (state.winner) {
      const you = state.winner === human;
      BL.status("hex-status", you ? `You win: ${NAMES[state.winner]} is joined.`
        : `The engine wins: ${NAMES[state.winner]} is joined.`, you ? "ok" : "error");
    } else {
      BL.status("hex-status", state.to_move === human ? "Your move." : "The engine is thinking...");
    }
    $("hex-svg").classList.toggle("busy", busy);
    $("hex-undo").disabled = busy || !state.moves.length;
    $("hex-solve").disabled = busy || state.winner !== null;
  }

  async function engineMove() {
    if (!state || state.winner || state.to_move === human) return;
    busy = true;
    show();
    try {
      const answer = await BL.api("hex/engine", Object.assign({ size: state.size, moves: state.moves },
        engineSettings()));
      state = answer;
      busy = false;
      const e = answer.engine;
      show(answer.winner ? null : `The engine played ${e.move} (${e.reason}, ${e.playouts} playouts). Your move.`);
    } catch (err) {
      busy = false;
      show(err.message, "error");
    }
  }

  async function onCell(name) {
    if (busy || !state) return;
    if (state.to_move !== human && !state.winner) return;
    try {
      state = await BL.api("hex/move", { size: state.size, moves: state.moves, move: name });
      $("hex-analysis").innerHTML = "";
      show();
      await engineMove();
    } catch (err) {
      BL.status("hex-status", "Illegal move: " + err.message, "error");
    }
  }

  async function newGame() {
    human = Number($("hex-colour").value);
    seed = Math.floor(Math.random() * 1e6);
    $("hex-analysis").innerHTML = "";
    try {
      state = await BL.api("hex/state", { size: Number($("hex-size").value), moves: [] });
      show();
      await engineMove();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
    }
  }

  async function undo() {
    if (busy || !state.moves.length) return;
    // take back to the last position where it was the person's turn
    let moves = state.moves.slice(0, -1);
    const toMove = (n) => (n % 2 === 0 ? 1 : 2);
    while (moves.length && toMove(moves.length) !== human) moves = moves.slice(0, -1);
    try {
      state = await BL.api("hex/state", { size: state.size, moves });
      show("Taken back.");
      await engineMove();
    } catch (err) {
      BL.status("hex-status", err.message, "error");
    }
  }

  async function solve() {
    const box = $("hex-analysis");
    box.textContent = "Solving...";
    try {
      const found = await BL.api("hex/solve", { size: state.size, moves: state.moves, time: 5 });
      box.innerHTML = "";
      const line = document.createElement("p");
      if (found.winner === null) {
        line.textContent = "Not decided within 5 s.";
      } else {
        line.textContent = `With perfect play ${NAMES[found.winner]} wins.` +
          (found.winning_moves.length ? " Winning moves:" : "");
      }
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

  function start() {
    const select = $("hex-size");
    for (let n = 2; n <= 13; n++) {
      const option = document.createElement("option");
      option.value = n;
      option.textContent = `${n} x ${n}`;
      if (n === 7) option.selected = true;
      select.appendChild(option);
    }
    $("hex-new").addEventListener("click", newGame);
    $("hex-undo").addEventListener("click", undo);
    $("hex-solve").addEventListener("click", solve);
    newGame();
  }

  return { start, started: false };
})();
