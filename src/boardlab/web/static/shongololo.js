// Toxic iShongololo: solve a fruit, draw the eaten layers; judge a pasted answer.
"use strict";

BL.games.shongololo = (() => {
  const $ = BL.$;
  let solverAnswer = "";
  let solverCount = null;

  async function solve() {
    BL.status("toxic-status", "Solving...");
    try {
      const found = await BL.api("shongololo/solve", {
        input: $("toxic-input").value, time: Number($("toxic-time").value) || 2,
      });
      solverAnswer = found.answer;
      solverCount = found.eaten;
      const [l, w, h] = found.box;
      $("toxic-summary").textContent = [
        `fruit ${l} x ${w} x ${h} (${found.blocks} blocks): ${found.eaten} eaten`,
        `bound ${found.bound}: ${(100 * found.eaten / found.bound).toFixed(1)}% of the bound` +
          (found.proven ? "; proven optimal" : ""),
        `method: ${found.method}; ${found.nodes} nodes; ${found.seconds} s`,
      ].join("\n");
      BL.picture("toxic-svg", found.svg);
      BL.status("toxic-status", `Solved: ${found.eaten} blocks eaten.`, "ok");
    } catch (err) {
      BL.status("toxic-status", err.message, "error");
    }
  }

  async function judge() {
    $("toxic-verdict").textContent = "Judging...";
    const best = $("toxic-best").value === "" ? null : Number($("toxic-best").value);
    try {
      const verdict = await BL.api("shongololo/judge", {
        input: $("toxic-input").value, answer: $("toxic-answer").value, best,
      });
      const lines = [verdict.summary];
      if (verdict.score !== null) lines.push(`score: ${verdict.score.toFixed(1)}% of the best known ${best}`);
      $("toxic-verdict").textContent = lines.join("\n");
      $("toxic-verdict").dataset.valid = verdict.valid;
      BL.picture("toxic-svg", verdict.svg);
    } catch (err) {
      $("toxic-verdict").textContent = err.message;
    }
  }

  function start() {
    BL.readFileInto("toxic-file", "toxic-input");
    $("toxic-solve").addEventListener("click", solve);
    $("toxic-judge").addEventListener("click", judge);
    $("toxic-use").addEventListener("click", () => {
      $("toxic-answer").value = solverAnswer;
      if (solverCount !== null) $("toxic-best").value = solverCount;
    });
  }

  return { start, started: false };
})();
