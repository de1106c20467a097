// Peg solitaire: choose a board, its empty hole and the finishing hole; click a peg then
// a hole; undo, redo, hint, solve; judge (and replay) a pasted move list; save the moves.
// Holes are named as the board is labelled: row letter, column number (D4).
"use strict";

BL.games.pegs = (() => {
  const $ = BL.$;
  let spec = null;       // {board} or {board_file}, plus walks
  let history = [];      // server states, history[0] is the start
  let played = [];       // played[i] = the move that led to history[i + 1]
  let index = 0;         // the state shown
  let selected = null;   // the hole of the selected peg
  let animating = false;
  let shownAt = -1;       // the move count last shown (one more: the move is animated)
  let stopRequested = false;
  let solving = null;    // the AbortController of a solve being searched
  let classes = null;    // the position-class explanation of the start
  let lostAt = null;     // the move after which the goal could no longer be reached
  let goalFollows = true; // the goal follows the start until the player chooses one
  const requests = new BL.Requests(() => buttons());

  const current = () => history[index];
  const body = (extra) => Object.assign({}, spec, { pegs: current().pegs }, extra || {});
  const moveName = (move) => `${move.from}-${move.to}`;
  // A solver result's moves as {from, to}, read from their text: `moves`, "B4-D4" (the
  // peg solver), or with walks `solution`, "B4 D4" (the PEGGED result; its `moves` counts them).
  const solverMoves = (found) => (Array.isArray(found.moves) ? found.moves : found.solution)
    .map((text) => {
      const [from, to] = text.split(/[-\s]+/);
      return { from, to };
    });
  // Whether the goal can be reached: true (a solution), false (proven not), null (not decided).
  const solvable = (found) => (found.solved ? true : found.proven ? false : null);

  // The solver's goal (ANY, CENTRE or a hole) in words.
  const goalWords = (name) => (/^any$/i.test(name) ? "one peg left anywhere"
    : /^cent(re|er)$/i.test(name) ? `one peg left in the home hole ${current().home}` : `one peg left in ${name}`);

  function goal() {
    const value = $("pegs-goal").value;
    return value === "centre" && !current().home ? "any" : value;
  }

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
      item.textContent = moveName(move) + (move.kind === "walk" ? " (walk)" : "");
      item.dataset.ply = i + 1;
      item.title = "show the board after this move (arrow keys step)";
      if (i >= index) item.style.opacity = "0.4";
      if (i + 1 === index) item.classList.add("current");
      if (i + 1 === lostAt) item.classList.add("lost-here");
      item.addEventListener("click", () => walkTo(i + 1));
      list.appendChild(item);
    });
    const at = list.querySelector("li.current");
    if (at) list.scrollTop = at.offsetTop - list.offsetTop - list.clientHeight / 2;
    // the last move: the hole it left dashed, the hole it reached ringed
    const lastMove = index > 0 ? played[index - 1] : null;
    BL.mark("pegs-svg", lastMove ? [lastMove.to] : [], "last-to");
    BL.mark("pegs-svg", lastMove ? [lastMove.from] : [], "last-from");
    if (lastMove && shownAt === index - 1) {
      BL.slidePeg("pegs-svg", lastMove.from, lastMove.to, lastMove.kind === "jump");
    }
    shownAt = index;
    selected = null;
    remember();
    if (message) {
      BL.status("pegs-status", message, kind);
    } else if (state.over) {
      BL.status("pegs-status", "");
    } else {
      BL.status("pegs-status", `${BL.count(state.legal.length, "legal move")}.`);
    }
    if (state.over) {
      const won = state.peg_count === 1;
      BL.over("pegs-over", won ? `Solved: one peg left, in ${state.pegs[0]}.`
        : `Game over: no move left, ${state.peg_count} pegs remain.`, won ? "ok" : "lost");
      if (!message) BL.status("pegs-status", won ? `Solved: one peg left, in ${state.pegs[0]}.` : "No move left.", won ? "ok" : "");
    } else {
      BL.over("pegs-over", "");
    }
    buttons();
  }

  // Show the board after `ply` moves (undo and redo in one step; a move played there
  // starts a new line).
  function walkTo(ply) {
    if (animating || requests.busy || !history.length) return;
    const target = Math.max(0, Math.min(ply, history.length - 1));
    if (target === index) return;
    index = target;
    requests.changed();
    show(`After move ${index} of ${history.length - 1}.`);
  }

  function onKey(event) {
    if ($("pegs").hidden || event.target.closest("input, textarea, select")) return;
    const steps = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: history.length - 1 };
    if (!(event.key in steps)) return;
    event.preventDefault();
    walkTo(steps[event.key]);
  }

  // The game in the address and local storage: board (or board file), start, rules, goal,
  // the moves and how many of them are shown.
  function remember() {
    if (!spec || !history.length) return;
    const params = new URLSearchParams();
    if (spec.board) params.set("board", spec.board);
    else params.set("file", spec.board_file);
    if ($("pegs-start").value && spec.board) params.set("start", $("pegs-start").value);
    params.set("walks", spec.walks ? 1 : 0);
    params.set("goal", $("pegs-goal").value);
    params.set("moves", played.map(moveName).join(","));
    params.set("at", index);
    BL.remember("pegs", params);
  }

  async function restore(kept) {
    const board = kept.get("board");
    const file = kept.get("file");
    const select = $("pegs-board");
    if (file !== null) {
      select.value = "file";
      $("pegs-file").value = file;
    } else if (board && [...select.options].some((o) => o.value === board)) {
      select.value = board;
    } else {
      select.value = select.options[0].value;
      await newGame();
      show(board ? `The link names a board this page does not know ("${board.slice(0, 30)}"): ` +
        `a new game on the ${select.options[0].textContent} board started; the Board menu lists the others.`
        : "The link names no board: a new game started.", "error");
      return;
    }
    $("pegs-walks").checked = kept.get("walks") === "1";
    goalFollows = true;
    await newGame();
    if (!history.length) return;
    const start = kept.get("start");
    const wrong = [];
    const named = (text) => `"${text.slice(0, 12)}"`;
    if (start && [...$("pegs-start").options].some((o) => o.value === start)) {
      $("pegs-start").value = start;
      await newGame();
    } else if (start) {
      wrong.push(`its start hole ${named(start)} is not a hole of this board, so the usual start is used`);
    }
    const goalValue = kept.get("goal");
    if (goalValue && [...$("pegs-goal").options].some((o) => o.value === goalValue)) {
      goalFollows = goalValue === $("pegs-goal").value;
      $("pegs-goal").value = goalValue;
    } else if (goalValue) {
      wrong.push(`its goal ${named(goalValue)} is not a hole of this board, so the goal follows the start`);
    }
    const moves = (kept.get("moves") || "").split(",").filter(Boolean);
    try {
      await requests.run(async () => {
        for (const move of moves) {
          const [from, to] = move.split("-");
          if (await play(from, to) === BL.STALE) return;
        }
      });
    } catch (err) {
      show(`The kept game stops at move ${index + 1}: ${err.message}`, "error");
      return;
    }
    const at = Number(kept.get("at"));
    index = Number.isInteger(at) && at >= 0 && at < history.length ? at : history.length - 1;
    if (wrong.length) show(`The link is not quite right: ${wrong.join("; ")}.`, "error");
    else show(moves.length ? `The game in progress: ${BL.count(moves.length, "move")}.` : null);
    showClasses();
  }

  function buttons() {
    const busy = animating || requests.busy;
    $("pegs-undo").disabled = busy || index === 0;
    $("pegs-redo").disabled = busy || index >= history.length - 1;
    for (const id of ["pegs-hint", "pegs-solve", "pegs-judge", "pegs-save"]) $(id).disabled = busy;
    $("pegs-review").disabled = busy || history.length < 2;
    $("pegs-stop").disabled = !animating && !solving;
    $("pegs-svg").classList.toggle("busy", busy);
  }

  function fill(select, options, keep) {
    const old = keep ? select.value : null;
    select.innerHTML = "";
    for (const [value, text] of options) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      select.appendChild(option);
    }
    if (old !== null && options.some(([value]) => value === old)) select.value = old;
  }

  function holeChoices(state) {
    const file = $("pegs-board").value === "file";
    $("pegs-start").disabled = file;
    if ($("pegs-start").dataset.board !== state.board) {
      const usual = state.home ? `${state.home} (the usual start)` : "the usual start";
      const others = state.holes.filter((h) => h !== state.home);
      fill($("pegs-start"), [["", usual], ...others.map((h) => [h, h])], false);
      $("pegs-start").dataset.board = state.board;
    }
    const goals = [["any", "one peg anywhere"]];
    if (state.home) goals.unshift(["centre", `one peg in the home hole ${state.home}`]);
    for (const hole of state.holes) goals.push([hole, `one peg in ${hole}`]);
    fill($("pegs-goal"), goals, true);
  }

  function showClasses() {
    const box = $("pegs-classes");
    box.innerHTML = "";
    if (!classes || !classes.applies) return;
    const target = goal();
    const wrongEnd = target !== "any" && target !== "centre" && !classes.ends.includes(target);
    const wrongHome = target === "centre" && !classes.ends.includes(current().home);
    if (classes.possible && !wrongEnd && !wrongHome) {
      box.textContent = "By the board's colouring (the pegs counted on each diagonal), " +
        `one peg can finish only in ${classes.ends.join(", ")}.`;
      box.className = "help";
      return;
    }
    box.className = "explain";
    const head = document.createElement("p");
    head.innerHTML = "<b>This game cannot be won.</b> ";
    head.append(classes.possible
      ? `From this start the last peg can only be in ${classes.ends.join(", ")}, not in ${wrongHome ? current().home : target}.`
      : "From this start no sequence of jumps leaves a single peg.");
    const why = document.createElement("p");
    why.textContent = "Why: " + classes.explanation;
    const starts = document.createElement("p");
    starts.textContent = classes.possible
      ? "Choose one of those finishing holes, or another start."
      : `Empty holes to start from that can end in one peg: ${classes.starts.join(", ")}.`;
    box.append(head, why, starts);
  }

  async function newGame() {
    const choice = $("pegs-board").value;
    $("pegs-file-box").hidden = choice !== "file";
    spec = choice === "file" ? { board_file: $("pegs-file").value } : { board: choice };
    spec.walks = $("pegs-walks").checked;
    const startHole = choice === "file" ? "" : $("pegs-start").value;
    requests.changed();
    animating = false;
    stopRequested = true;
    try {
      const found = await requests.run(async () => {
        const state = await BL.api("pegs/state", Object.assign({}, spec, startHole ? { start: startHole } : {}));
        const explained = await BL.api("pegs/classes", Object.assign({}, spec, { pegs: state.pegs }));
        return [state, explained];
      });
      if (found === BL.STALE) return;
      const [state, explained] = found;
      history = [state];
      forgetReview();
      played = [];
      index = 0;
      classes = explained;
      holeChoices(state);
      if (goalFollows) {
        // finish where it started if the classes allow (the home hole for the usual
        // start), else anywhere: as a fresh page with this start does
        if (!startHole) $("pegs-goal").value = state.home ? "centre" : "any";
        else $("pegs-goal").value = explained.ends.includes(startHole) ? startHole : "any";
      }
      show(`${state.board}: ${state.peg_count} pegs, ${state.holes.length} holes.`);
      showClasses();
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
  }

  // Play one move on the server; BL.STALE when the game changed while it was asked.
  async function play(from, to) {
    const epoch = requests.epoch;
    const state = await BL.api("pegs/move", body({ move: `${from}-${to}` }));
    if (epoch !== requests.epoch) return BL.STALE;
    history = history.slice(0, index + 1);
    played = played.slice(0, index);
    if (lostAt !== null && lostAt > index) forgetReview();
    history.push(state);
    played.push(state.played);
    index += 1;
    return state;
  }

  async function onCell(name) {
    if (!history.length) return;
    if (animating || requests.busy) {
      BL.status("pegs-status", animating ? "Stop the replay first (Stop), then play."
        : "Wait: the last request is still being answered.", "error");
      return;
    }
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
    await move(selected, name);
  }

  async function move(from, to) {
    try {
      const after = await requests.run(() => play(from, to));
      if (after === BL.STALE) return;
      requests.changed();
      show(after.over ? null : `Played ${moveName(after.played)}.`);
    } catch (err) {
      BL.status("pegs-status", "Illegal move: " + err.message, "error");
    }
  }

  // A move typed as FROM-TO (or FROM TO), in the board's labels.
  async function typedMove(text) {
    const found = /^([A-Za-z][0-9]+)\s*[- ]\s*([A-Za-z][0-9]+)$/.exec(text);
    if (!found) {
      BL.status("pegs-status", `Type a move as FROM-TO, like D2-D4, not "${text}".`, "error");
      return;
    }
    if (animating || requests.busy || !history.length) {
      BL.status("pegs-status", "Wait: the last request is still being answered.", "error");
      return;
    }
    await move(found[1].toUpperCase(), found[2].toUpperCase());
  }

  function forgetReview() {
    lostAt = null;
    $("pegs-review-box").textContent = "";
  }

  // The first move after which the goal could no longer be reached: reachable only turns
  // to unreachable along a game, so a bisection over the positions finds it.
  async function review() {
    const last = history.length - 1;
    if (!last) return;
    const box = $("pegs-review-box");
    box.className = "status";
    box.textContent = "Looking for the move after which the goal was out of reach...";
    const target = goal();
    const reachable = async (ply) => {
      const found = await BL.api("pegs/hint", Object.assign({}, spec, { pegs: history[ply].pegs, goal: target, time: 5 }));
      return solvable(found);
    };
    try {
      const found = await requests.run(async () => {
        if (await reachable(0) === false) return { ply: 0 };
        const end = await reachable(last);
        if (end !== false) return { ply: null, decided: end !== null, won: end === true && history[last].peg_count === 1 };
        let [lo, hi] = [0, last];
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          const value = await reachable(mid);
          if (value === null) return { ply: null, decided: false };
          if (value) lo = mid; else hi = mid;
        }
        return { ply: hi };
      });
      if (found === BL.STALE) return;
      lostAt = found.ply;
      if (found.ply === 0) {
        box.textContent = "The goal could not be reached from the start itself.";
      } else if (found.ply !== null) {
        box.textContent = `Move ${found.ply} (${moveName(played[found.ply - 1])}) lost the game: ` +
          "after it one peg could no longer finish where the goal asks.";
        box.className = "status error";
      } else {
        box.textContent = found.won ? "No move lost the game: it is won, the goal is reached."
          : found.decided ? "No move lost the game: the goal can still be reached."
            : "Not decided within the time.";
      }
      show();
    } catch (err) {
      box.textContent = err.message;
    }
  }

  async function hint() {
    BL.status("pegs-status", "Thinking...");
    try {
      const found = await requests.run(() => BL.api("pegs/hint", body({ goal: goal() })));
      if (found === BL.STALE) return;
      const moves = solverMoves(found);
      const next = moves.length ? moves[0] : null;
      $("pegs-svg").dataset.hint = next ? `${next.from} ${next.to}` : "";
      if (next) {
        BL.mark("pegs-svg", [next.from, next.to], "hint");
        BL.status("pegs-status",
          `Hint: ${moveName(next)} (${BL.count(moves.length, "move")} to ${goalWords(found.goal)}).`, "ok");
      } else if (solvable(found) === false) {
        BL.status("pegs-status", `No solution from here: ${found.reason}.`, "error");
      } else if (found.solved) {
        BL.status("pegs-status", "The goal is reached.", "ok");
      } else {
        BL.status("pegs-status", `Not decided: ${found.reason}.`);
      }
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
  }

  // Play `moves` one by one from the shown position, as an animation the Stop button ends.
  async function animate(moves, label) {
    animating = true;
    stopRequested = false;
    buttons();
    const delay = moves.length > 60 ? 60 : 300;
    const epoch = requests.epoch;
    try {
      for (const move of moves) {
        if (stopRequested || epoch !== requests.epoch) return false;
        if (await play(move.from, move.to) === BL.STALE) return false;
        show(`${label}: ${moveName(move)}.`);
        await BL.sleep(delay);
      }
      return true;
    } finally {
      if (epoch === requests.epoch) {
        animating = false;
        buttons();
      }
    }
  }

  async function solve() {
    BL.status("pegs-status", "Solving... (Stop ends the search)");
    let found;
    solving = new AbortController();
    const signal = solving.signal;
    try {
      found = await requests.run(() => BL.api("pegs/solve", body({ goal: goal() }), signal));
    } catch (err) {
      BL.status("pegs-status", signal.aborted ? "Stopped: the search was ended." : err.message, "error");
      return;
    } finally {
      solving = null;
      buttons();
    }
    if (found === BL.STALE) return;
    if (!found.solved) {
      const text = found.proven ? `No solution from here: ${found.reason}.` : `Not decided: ${found.reason}.`;
      BL.status("pegs-status", text, "error");
      return;
    }
    try {
      const done = await animate(solverMoves(found), `Solving (${found.reason})`);
      show(done ? null : "Stopped.");
    } catch (err) {
      BL.status("pegs-status", err.message, "error");
    }
  }

  async function judge() {
    const text = $("pegs-judge-text").value;
    const box = $("pegs-verdict");
    BL.clearError("pegs-status");
    box.textContent = "Judging...";
    const start = history[0];
    try {
      const verdict = await requests.run(() => BL.api("pegs/judge", Object.assign({}, spec,
        { pegs: start.pegs, moves: text })));
      if (verdict === BL.STALE) return;
      box.textContent = `${verdict.valid ? "Valid" : "Invalid"}: ${verdict.summary.replace(/^(in)?valid: /, "")}`;
      box.dataset.valid = verdict.valid;
      index = 0;
      show("Replaying the judged moves from the start...");
      const done = await animate(verdict.replay, "Replaying");
      if (done) show(verdict.valid ? null : `Replayed up to the bad line: ${verdict.reason}.`, verdict.valid ? "" : "error");
    } catch (err) {
      box.textContent = err.message;
    }
  }

  function save() {
    const text = played.slice(0, index).map(moveName).join("\n") + (index ? "\n" : "");
    $("pegs-judge-text").value = text;
    const name = spec.board ? spec.board : "board";
    BL.download(`pegs-${name}.txt`, text);
    BL.status("pegs-status", `Saved ${BL.count(index, "move")}, one FROM-TO a line in the board's notation.`, "ok");
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
    select.addEventListener("change", () => {
      $("pegs-start").value = "";   // a new board starts as usual, aiming at its home hole
      $("pegs-goal").value = "centre";
      goalFollows = true;
      newGame();
    });
    $("pegs-walks").addEventListener("change", newGame);
    $("pegs-start").addEventListener("change", newGame);
    $("pegs-goal").addEventListener("change", () => {
      goalFollows = false;   // the player's own goal stays when the start changes
      showClasses();
      remember();
    });
    $("pegs-new").addEventListener("click", newGame);
    $("pegs-undo").addEventListener("click", () => {
      if (index > 0) { index -= 1; requests.changed(); show("Undone."); }
    });
    $("pegs-redo").addEventListener("click", () => {
      if (index < history.length - 1) { index += 1; requests.changed(); show("Redone."); }
    });
    $("pegs-hint").addEventListener("click", hint);
    $("pegs-review").addEventListener("click", review);
    $("pegs-solve").addEventListener("click", solve);
    $("pegs-stop").addEventListener("click", () => {
      stopRequested = true;
      if (solving) solving.abort();
    });
    $("pegs-judge").addEventListener("click", judge);
    $("pegs-save").addEventListener("click", save);
    BL.onFile("pegs-load", (text) => { $("pegs-judge-text").value = text; judge(); });
    document.addEventListener("keydown", onKey);
    BL.steps("pegs-steps", onKey);
    BL.typed("pegs-type", typedMove);
    const kept = BL.recall("pegs");
    if (kept) await restore(kept);
    else await newGame();
  }

  return { start, started: false, remember, follow: () => { const kept = BL.recall("pegs"); if (kept) restore(kept); } };
})();
