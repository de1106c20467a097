// The Hi-Q contest program (Mid-Atlantic 1996): paste an input, see the output and every jump.
"use strict";

BL.games.hiq = (() => {
  const $ = BL.$;
  const requests = new BL.Requests(() => {
    for (const id of ["hiq-run", "hiq-sample"]) $(id).disabled = requests.busy;
  });

  const keep = () => BL.stash("hiq", $("hiq-input").value);

  async function run() {
    BL.status("hiq-status", "Running...");
    keep();
    try {
      const found = await requests.run(() => BL.api("hiq/run", { input: $("hiq-input").value }));
      if (found === BL.STALE) return;
      $("hiq-output").textContent = found.output;
      $("hiq-trace").textContent = found.trace.join("\n");
      const games = found.sums.length;
      BL.status("hiq-status", `${games} ${games === 1 ? "game" : "games"} played.`, "ok");
    } catch (err) {
      $("hiq-output").textContent = "";
      $("hiq-trace").textContent = "";
      BL.status("hiq-status", err.message, "error");
    }
  }

  async function sample() {
    try {
      const found = await requests.run(() => BL.api("hiq/sample"));
      if (found === BL.STALE) return;
      $("hiq-input").value = found.input;
      await run();
    } catch (err) {
      BL.status("hiq-status", err.message, "error");
    }
  }

  async function start() {
    $("hiq-run").addEventListener("click", run);
    $("hiq-sample").addEventListener("click", sample);
    $("hiq-input").addEventListener("input", () => { requests.changed(); keep(); });
    BL.onFile("hiq-file", (text) => { $("hiq-input").value = text; run(); });
    const kept = BL.unstash("hiq");
    if (kept) {
      $("hiq-input").value = kept;
      await run();
    } else {
      await sample();
    }
  }

  return { start, started: false };
})();
