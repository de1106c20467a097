// Mars explorer: load a map, solve it, draw the routes; judge a pasted answer.
"use strict";

BL.games.mars = (() => {
  const $ = BL.$;
  // The solver's methods in a player's words.
  const METHODS = {
    "chain cover": "a chain cover of the rocks (a minimum flow)",
    "min-cost flow": "a minimum-cost flow",
  };
  let solverAnswer = "";
  const requests = new BL.Requests(() => {
    for (const id of ["mars-sample", "mars-solve", "mars-judge"]) $(id).disabled = requests.busy;
    $("mars-download").disabled = requests.busy || !solverAnswer;
  });

  // A new map: what was shown for the old one goes (and the map is kept for a reload).
  function mapChanged() {
    requests.changed();
    solverAnswer = "";
    $("mars-summary").textContent = "";
    $("mars-verdict").textContent = "";
    BL.picture("mars-svg", "");
    BL.picture("mars-judged-svg", "");
    BL.status("mars-status", "A new map: Solve finds its best routes.");
    keep();
    requests.refresh();
  }

  // A map given whole (a file, a paste): the answer box empties too, as an answer
  // belongs to its map.
  function newMap() {
    const hadAnswer = $("mars-moves").value.trim() !== "";
    $("mars-moves").value = "";
    mapChanged();
    if (hadAnswer) BL.status("mars-status", "A new map: the answer box was emptied, as its moves were for the old map.");
  }

  function keep() {
    BL.stashJson("mars", { map: $("mars-map").value, moves: $("mars-moves").value });
  }

  function kept() {
    const found = BL.unstashJson("mars");
    return found && typeof found.map === "string" && found.map.trim() ? found : null;
  }

  async function loadSample() {
    requests.changed();
    try {
      const sample = await requests.run(() => BL.api("mars/sample"));
      if (sample === BL.STALE) return;
      $("mars-map").value = sample.map;
      $("mars-moves").value = sample.moves;
      mapChanged();
      BL.status("mars-status", "The statement's sample is loaded.");
    } catch (err) {
      BL.status("mars-status", err.message, "error");
    }
  }

  async function solve() {
    BL.status("mars-status", "Solving...");
    try {
      const found = await requests.run(() => BL.api("mars/solve", { map: $("mars-map").value }));
      if (found === BL.STALE) return;
      solverAnswer = found.moves || "";
      const arriving = found.reachable ? found.vehicles : 0;
      const lines = [
        `map ${found.width} x ${found.height}, ${BL.count(found.vehicles, "vehicle")}, ${BL.count(found.rocks, "rock")}`,
        found.reachable ? `samples delivered: ${found.max_rocks} (the most possible)`
          : "the transmitter cannot be reached: every vehicle stays in the pod",
        `score: ${BL.count(found.best, "point")}, 100% of the best possible`,
        `  = ${BL.count(found.max_rocks, "sample")} delivered + ${BL.count(arriving, "vehicle")} arriving` +
          ` - ${found.vehicles - arriving} not arriving`,
        (found.method ? `found by ${METHODS[found.method] || found.method} in ` : "found in ") + BL.seconds(found.seconds),
        `proven optimal: ${found.proven ? "yes" : "no"}` +
          (found.bound !== null ? ` (no answer scores over ${BL.count(found.bound, "point")})` : ""),
        `routes: ${BL.number(found.routes.length)} distinct, ${BL.count(found.steps, "output line")}` +
          (found.moves === null ? " (too many to show: the answer is not sent)" : ""),
      ];
      found.routes.slice(0, 26).forEach((route, i) => {
        const last = route.first_vehicle + route.vehicles - 1;
        const who = route.vehicles > 1 ? `vehicles ${BL.span(route.first_vehicle, last)}` : `vehicle ${route.first_vehicle}`;
        lines.push(`  ${String.fromCharCode(97 + i)}: ${who}, ${BL.count(route.new_rocks, "new rock")}`);
      });
      $("mars-summary").textContent = lines.join("\n");
      BL.picture("mars-svg", found.svg);
      requests.refresh();
      BL.status("mars-status", `Solved: ${BL.count(found.best, "point")} (100% of the best possible).`, "ok");
    } catch (err) {
      BL.status("mars-status", err.message, "error");
    }
  }

  async function judge() {
    BL.clearError("mars-status");
    $("mars-verdict").textContent = "Judging...";
    try {
      const verdict = await requests.run(() => BL.api("mars/judge",
        { map: $("mars-map").value, moves: $("mars-moves").value }));
      if (verdict === BL.STALE) return;
      $("mars-verdict").textContent = verdict.report.join("\n");
      $("mars-verdict").dataset.legal = verdict.legal;
      BL.picture("mars-judged-svg", verdict.svg);
    } catch (err) {
      $("mars-verdict").textContent = err.message;
      BL.picture("mars-judged-svg", "");
    }
  }

  async function start() {
    BL.onFile("mars-file", (text) => {
      $("mars-map").value = text;
      newMap();
    });
    // a map pasted or dropped in is a new map; a typed edit keeps the answer to judge again
    $("mars-map").addEventListener("input", (event) =>
      (/^insertFrom/.test(event.inputType || "") ? newMap() : mapChanged()));
    $("mars-moves").addEventListener("input", keep);
    $("mars-sample").addEventListener("click", loadSample);
    $("mars-solve").addEventListener("click", solve);
    $("mars-judge").addEventListener("click", judge);
    $("mars-use").addEventListener("click", () => {
      if (!solverAnswer) {
        BL.status("mars-status", "There is no answer of the solver to use yet: press Solve first " +
          "(a route too long to send is not shown either).", "error");
        return;
      }
      $("mars-moves").value = solverAnswer;
      keep();
      BL.status("mars-status", "The solver's answer is in the answer box: Judge checks it.");
    });
    $("mars-download").addEventListener("click", () => BL.download("mars-answer.txt", solverAnswer));
    const found = kept();
    if (found) {
      $("mars-map").value = found.map;
      $("mars-moves").value = found.moves || "";
      BL.status("mars-status", "The map of your last visit.");
    } else {
      await loadSample();
    }
    await solve();
  }

  return { start, started: false };
})();
