// Toxic iShongololo: solve a fruit, show it in 3D (fruit3d.js) and layer by layer;
// judge a pasted answer.
"use strict";

BL.games.shongololo = (() => {
  const $ = BL.$;
  // The solver's methods in a player's words.
  const METHODS = {
    construction: "a construction (rows laid along the fruit)",
    exact: "an exact search",
    "branch and bound": "a branch-and-bound search",
  };
  let solverAnswer = "";
  let solverCount = null;
  let shown = null;      // the run drawn in 3D (the API's `run`)
  const requests = new BL.Requests(() => {
    for (const id of ["toxic-solve", "toxic-judge"]) $(id).disabled = requests.busy;
    $("toxic-download").disabled = requests.busy || !solverAnswer;
  });

  // The fruit and the answer being judged survive a reload.
  function keep() {
    BL.stashJson("shongololo", {
      input: $("toxic-input").value, answer: $("toxic-answer").value, best: $("toxic-best").value,
      time: $("toxic-time").value });
  }

  function restore() {
    const found = BL.unstashJson("shongololo");
    if (!found) return;
    if (typeof found.time === "string" && found.time !== "" && Number.isFinite(Number(found.time))) {
      $("toxic-time").value = found.time;
    }
    if (typeof found.input !== "string") return;
    $("toxic-input").value = found.input;
    $("toxic-answer").value = found.answer || "";
    $("toxic-best").value = found.best || "";
  }

  // The fruit's sides as typed (the numbers only), to tell a new fruit from an edit.
  const sides = (text) => (text.match(/\d+/g) || []).map(Number).join(" ");
  let fruit = null;

  // A new fruit: what was shown for the old one goes, and so do the answer and the best
  // known count, which belonged to the old fruit.
  function inputChanged() {
    requests.changed();
    solverAnswer = "";
    solverCount = null;
    $("toxic-summary").textContent = "";
    $("toxic-verdict").textContent = "";
    BL.picture("toxic-svg", "");
    shown = null;
    $("toxic-3d-box").hidden = true;
    const now = sides($("toxic-input").value);
    const hadAnswer = $("toxic-answer").value.trim() !== "" || $("toxic-best").value !== "";
    if (now !== fruit) {
      fruit = now;
      $("toxic-answer").value = "";
      $("toxic-best").value = "";
    }
    BL.status("toxic-status", hadAnswer && $("toxic-answer").value === ""
      ? "A new fruit: the answer and the best known count were emptied, as they were for the old fruit."
      : "A new fruit: Solve finds a long run.");
    keep();
    requests.refresh();
  }

  const seconds = () => BL.numberIn("toxic-time", (min, max) => `The time must be ${min} to ${max} seconds.`);

  function options() {
    return { cut: Number($("toxic-cut").value), solid: $("toxic-solid").checked };
  }

  function draw3d() {
    if (!shown) return;
    const cut = $("toxic-cut");
    if (cut.max !== String(shown.box[2])) {
      cut.max = String(shown.box[2]);
      cut.value = cut.max;
    }
    $("toxic-cut-value").textContent = cut.value === "1" ? "layer 1" : `layers ${BL.span(1, cut.value)}`;
    if (!BL.fruit3d) {
      BL.onFruit3d = draw3d;   // the module has not loaded yet
      return;
    }
    $("toxic-3d-box").hidden = false;
    const ok = BL.fruit3d.show($("toxic-3d"), shown, options());
    const touch = window.matchMedia("(pointer: coarse)").matches;
    $("toxic-3d-note").textContent = ok ? (touch
      ? "Drag a finger to turn the fruit; the buttons turn it too."
      : "Drag to turn the fruit; the mouse wheel zooms.")
      : "This browser has no WebGL: the 3D view is off; the layers below show the same run.";
  }

  function showRun(run, svg) {
    shown = run;
    BL.picture("toxic-svg", svg);
    BL.scrollHint("toxic-svg", "toxic-scroll-note");
    draw3d();
  }

  async function solve() {
    try {
      const time = seconds();
      BL.status("toxic-status", "Solving...");
      const found = await requests.run(() => BL.api("shongololo/solve", { input: $("toxic-input").value, time }));
      if (found === BL.STALE) return;
      solverAnswer = found.answer;
      solverCount = found.eaten;
      const [l, w, h] = found.box;
      $("toxic-summary").textContent = [
        `fruit ${l} x ${w} x ${h} (${BL.count(found.blocks, "block")}): ${BL.number(found.eaten)} eaten`,
        `no run eats more than ${BL.count(found.bound, "block")}: this one eats ` +
          `${(100 * found.eaten / found.bound).toFixed(1)}% of that` + (found.proven ? "; proven optimal" : ""),
        (found.method ? `found by ${METHODS[found.method] || found.method}` : "found") +
          (found.nodes ? `, ${BL.count(found.nodes, "position")} tried` : "") + `, in ${BL.seconds(found.seconds)}`,
      ].join("\n");
      showRun(found.run, found.svg);
      requests.refresh();
      BL.status("toxic-status", `Solved: ${BL.count(found.eaten, "block")} eaten.`, "ok");
    } catch (err) {
      BL.status("toxic-status", err.message, "error");
    }
  }

  async function judge() {
    BL.clearError("toxic-status");
    $("toxic-verdict").textContent = "Judging...";
    const best = $("toxic-best").value === "" ? null : Number($("toxic-best").value);
    if (best !== null && !(Number.isInteger(best) && best >= 0)) {
      $("toxic-verdict").textContent = "The best known count is a whole number of blocks, 0 or more.";
      return;
    }
    try {
      const verdict = await requests.run(() => BL.api("shongololo/judge", {
        input: $("toxic-input").value, answer: $("toxic-answer").value, best,
      }));
      if (verdict === BL.STALE) return;
      const lines = [verdict.summary];
      if (verdict.score !== null) lines.push(`score: ${verdict.score.toFixed(1)}% of the best known ${BL.count(best, "block")}`);
      $("toxic-verdict").textContent = lines.join("\n");
      $("toxic-verdict").dataset.valid = verdict.valid;
      showRun(verdict.run, verdict.svg);
    } catch (err) {
      $("toxic-verdict").textContent = err.message;
    }
  }

  function start() {
    restore();
    fruit = sides($("toxic-input").value);
    BL.onFile("toxic-file", (text) => { $("toxic-input").value = text; inputChanged(); });
    $("toxic-input").addEventListener("input", inputChanged);
    $("toxic-answer").addEventListener("input", keep);
    $("toxic-best").addEventListener("input", keep);
    $("toxic-time").addEventListener("change", keep);
    $("toxic-download").addEventListener("click", () => BL.download("shongololo-answer.txt", solverAnswer));
    $("toxic-solve").addEventListener("click", solve);
    $("toxic-judge").addEventListener("click", judge);
    $("toxic-use").addEventListener("click", () => {
      if (!solverAnswer) {
        BL.status("toxic-status", "There is no answer of the solver to use yet: press Solve first.", "error");
        return;
      }
      $("toxic-answer").value = solverAnswer;
      if (solverCount !== null) $("toxic-best").value = solverCount;
      keep();
      BL.status("toxic-status", "The solver's answer is in the answer box: Judge checks it.");
    });
    $("toxic-cut").addEventListener("input", draw3d);
    $("toxic-solid").addEventListener("change", draw3d);
    $("toxic-left").addEventListener("click", () => BL.fruit3d && BL.fruit3d.turn(-Math.PI / 8, 0));
    $("toxic-right").addEventListener("click", () => BL.fruit3d && BL.fruit3d.turn(Math.PI / 8, 0));
    $("toxic-reset").addEventListener("click", () => BL.fruit3d && BL.fruit3d.reset());
  }

  return { start, started: false };
})();
