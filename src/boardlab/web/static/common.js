// boardlab web page: shared helpers. Plain JavaScript, no build step.
// The page holds no game rules: every legal move, position and verdict comes from /api/.
"use strict";

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// This tab's name for the server: a newer search from the same tab and game replaces
// (cancels) the older one there.
const PAGE_ID = Math.random().toString(36).slice(2, 12);

// A game's requests. While one runs the game is `busy` (its buttons are disabled by
// its refresh function); every change of position calls `changed()`, and an answer
// that comes back after a change is dropped (run() resolves to BL.STALE).
class Requests {
  constructor(refresh) {
    this.pending = 0;
    this.epoch = 0;
    this.refresh = refresh;
  }

  get busy() { return this.pending > 0; }

  changed() { this.epoch += 1; }

  async run(work) {
    const epoch = this.epoch;
    this.pending += 1;
    this.refresh();
    try {
      const value = await work();
      return epoch === this.epoch ? value : BL.STALE;
    } catch (err) {
      if (epoch !== this.epoch) return BL.STALE;
      throw err;
    } finally {
      this.pending -= 1;
      this.refresh();
    }
  }
}

// Walking a game's move list: `viewing` is {ply, state} while an earlier position is
// shown (null for the game itself). `fetch(ply)` asks the server for the position after
// `ply` moves, `show()` redraws, `total()` is the game's length; steps asked for while
// one is fetched are gathered, and the last one asked for is shown; then `settled()`,
// if given, runs once.
class Walker {
  constructor({ requests, total, fetch, show, error, settled }) {
    Object.assign(this, { requests, total, fetch, show, error, settled });
    this.viewing = null;
    this.target = null;
  }

  reset() {
    this.viewing = null;
    this.target = null;
  }

  get ply() {
    if (this.target !== null) return this.target;
    return this.viewing ? this.viewing.ply : this.total();
  }

  async to(ply) {
    this.target = Math.max(0, Math.min(ply, this.total()));
    if (this.requests.busy) return;
    while (this.target !== null) {
      const target = this.target;
      if (target === this.total()) {
        this.reset();
        this.show();
        break;
      }
      try {
        const answer = await this.requests.run(() => this.fetch(target));
        if (answer === BL.STALE) return;
        if (this.target === target) this.target = null;
        this.viewing = { ply: target, state: answer };
        this.show();
      } catch (err) {
        this.target = null;
        this.error(err.message);
      }
    }
    if (this.settled) await this.settled();
  }

  // Arrow keys, Home and End while the game's tab is shown (not while typing).
  key(event, tab) {
    if (BL.$(tab).hidden || event.target.closest("input, textarea, select")) return;
    const ply = this.ply;
    const steps = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: this.total() };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.to(steps[event.key]);
  }

  // The note under a move list while an earlier position is shown.
  note() {
    return this.viewing
      ? `Showing the position after move ${this.viewing.ply} of ${this.total()}; ` +
        "a move played here starts a new line (End returns to the game)." : "";
  }
}

const BL = {
  STALE: Symbol("stale"),
  Requests,
  Walker,

  // The page's words for numbers (core/words.py's twins): "1 block", "2 blocks"; "47,377";
  // "1 to 999"; "0.05 s".
  count(n, singular, plural) {
    return `${Number(n).toLocaleString("en")} ${n === 1 ? singular : (plural || singular + "s")}`;
  },
  number(n) {
    return Number(n).toLocaleString("en", { maximumFractionDigits: 2 });
  },
  span(low, high) {
    return `${BL.number(low)} to ${BL.number(high)}`;
  },
  seconds(s) {
    if (s < 0.01) return "under 0.01 s";
    return s >= 100 ? `${BL.number(Math.round(s))} s` : `${Number(s).toFixed(2)} s`;
  },
  percent(share) {
    return `${Math.round(100 * share)}%`;
  },

  // POST a JSON body (or GET when body is undefined); the answer's JSON, or an ApiError.
  // An AbortController's `signal` stops the request (and the server's search with it).
  async api(path, body, signal) {
    const headers = { "X-Boardlab-Page": `${PAGE_ID}:${path.split("/")[0]}` };
    const options = body === undefined
      ? { method: "GET", headers }
      : { method: "POST", headers: Object.assign({ "Content-Type": "application/json" }, headers),
        body: JSON.stringify(body) };
    if (signal) options.signal = signal;
    let response;
    try {
      response = await fetch("/api/" + path, options);
    } catch (err) {
      if (err.name === "AbortError") throw new ApiError("stopped", 0);
      throw new ApiError("the server cannot be reached: " + err.message, 0);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = { error: "HTTP " + response.status };
    }
    if (!response.ok) {
      const text = data && data.error ? data.error : "HTTP " + response.status;
      throw new ApiError(text, response.status);  // the server's words are the player's
    }
    return data;
  },

  $(id) { return document.getElementById(id); },

  // Show note `noteId` when box `boxId` holds more than the screen shows across (a phone).
  scrollHint(boxId, noteId) {
    const box = BL.$(boxId);
    BL.$(noteId).hidden = !(box.scrollWidth > box.clientWidth + 2);
  },

  status(id, text, kind) {
    const el = BL.$(id);
    el.textContent = text;
    el.className = "status" + (kind ? " " + kind : "");
  },

  // An old error of a status line goes when the player asks for something new, so it
  // never stands above the answer (or the new error) that follows.
  clearError(id) {
    const el = BL.$(id);
    if (el.classList.contains("error")) BL.status(id, "");
  },

  // Show a picture from boardlab.render and call onCell(name) when a tagged cell is clicked.
  picture(id, svg, onCell) {
    const box = BL.$(id);
    box.innerHTML = svg || "";
    if (onCell) {
      for (const el of box.querySelectorAll("[data-cell]")) {
        el.addEventListener("click", () => onCell(el.getAttribute("data-cell")));
      }
      BL.focusable(box);
    }
  },

  mark(id, names, cls) {
    const box = BL.$(id);
    for (const el of box.querySelectorAll("." + cls)) el.classList.remove(cls);
    for (const name of names) {
      const el = box.querySelector(`[data-cell="${CSS.escape(name)}"]`);
      if (el) el.classList.add(cls);
    }
  },

  sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); },

  // Buttons under a move list that step like the keys Home, ArrowLeft, ArrowRight and End
  // (a phone has no arrow keys): each hands its key to the game's `onKey`.
  steps(id, onKey) {
    const box = BL.$(id);
    const keys = [["Home", "\u00ab", "the start"], ["ArrowLeft", "\u2039", "one move back"],
      ["ArrowRight", "\u203a", "one move forward"], ["End", "\u00bb", "the last move"]];
    for (const [key, symbol, words] of keys) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = symbol;
      button.title = `show ${words} (key ${key.replace("Arrow", "")})`;
      button.setAttribute("aria-label", `show ${words}`);
      button.dataset.key = key;
      button.addEventListener("click", () => onKey({ key, target: button, preventDefault() {} }));
      box.appendChild(button);
    }
  },

  // Short move animations (none for a player whose system asks for reduced motion).
  moving: () => !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches),

  // The tagged cell `name` in the picture `id` and its centre in the picture's units.
  cellAt(id, name) {
    const el = BL.$(id).querySelector(`[data-cell="${CSS.escape(name)}"]`);
    return el ? { el, x: Number(el.getAttribute("cx")), y: Number(el.getAttribute("cy")) } : null;
  },

  // A peg move just shown: the peg (drawn right after the hole `to`) slides in from `from`;
  // for a jump, a ghost of the jumped peg fades out in the hole between them.
  slidePeg(id, from, to, jump) {
    const start = BL.cellAt(id, from), end = BL.cellAt(id, to);
    if (!BL.moving() || !start || !end) return;
    const peg = end.el.nextElementSibling;
    if (!peg || !peg.classList.contains("peg")) return;
    const slide = `translate(${start.x - end.x}px, ${start.y - end.y}px)`;
    peg.animate([{ transform: slide }, { transform: "translate(0px, 0px)" }],
      { duration: 280, easing: "ease-out" });
    if (!jump) return;
    const midX = (start.x + end.x) / 2, midY = (start.y + end.y) / 2;
    let over = null, best = Infinity;
    for (const hole of BL.$(id).querySelectorAll("[data-cell]")) {
      const d = Math.hypot(Number(hole.getAttribute("cx")) - midX, Number(hole.getAttribute("cy")) - midY);
      if (d < best) [over, best] = [hole, d];
    }
    if (!over || best > Number(over.getAttribute("r"))) return;
    const ghost = peg.cloneNode();
    ghost.setAttribute("cx", over.getAttribute("cx"));
    ghost.setAttribute("cy", over.getAttribute("cy"));
    ghost.classList.add("leaving");
    ghost.style.pointerEvents = "none";
    peg.parentNode.appendChild(ghost);
    ghost.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 320, easing: "ease-in" })
      .finished.then(() => ghost.remove(), () => ghost.remove());
  },

  // Pits sown one after another: each tagged cell of `names` flashes in turn.
  sowing(id, names, colour) {
    if (!BL.moving()) return;
    names.forEach((name, k) => {
      const pit = BL.cellAt(id, name);
      if (pit) pit.el.animate([{ fill: colour }, { fill: pit.el.getAttribute("fill") }],
        { duration: 300, delay: 90 * k, easing: "ease-out", fill: "backwards" });
    });
  },

  // Offer `text` as a file download named `name`.
  download(name, text) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  },

  // Call onText(text) with the contents of each file chosen in the file input `inputId`.
  onFile(inputId, onText) {
    BL.$(inputId).addEventListener("change", (event) => {
      const file = event.target.files[0];
      event.target.value = "";
      if (!file) return;
      if (file.size > 1024 * 1024 * 4) {
        alert("file too large (at most 4 MB)");
        return;
      }
      const reader = new FileReader();
      reader.onload = () => onText(String(reader.result));
      reader.readAsText(file);
    });
  },

  // Show or hide a game's game-over banner.
  over(id, text, kind) {
    const el = BL.$(id);
    el.hidden = !text;
    el.textContent = text || "";
    el.className = "gameover" + (kind ? " " + kind : "");
  },

  // An SVG element with attributes (for the pictures the page draws itself).
  svg(tag, attrs, text) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
    if (text !== undefined) el.textContent = text;
    return el;
  },

  // A text box where a move is typed: Enter hands its text to `play` and empties it.
  typed(id, play) {
    BL.$(id).addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const text = event.target.value.trim();
      event.target.value = "";
      if (text) play(text);
    });
  },

  // Board cells that take focus: Enter or Space on one is a click.
  focusable(box) {
    for (const el of box.querySelectorAll("[data-cell]")) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", el.getAttribute("data-cell"));
      el.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      });
    }
  },

  // The tab named by an address's hash ("#hex?size=7&moves=c3" -> "hex").
  tabOf(hash) {
    return hash.replace(/^#/, "").split("?")[0];
  },

  // Keep `text` in local storage under the tab's name, for a reload (storage may be full
  // or switched off: then only the reload loses it).
  stash(tab, text) {
    try {
      localStorage.setItem(`boardlab.${tab}`, text);
    } catch (err) {
      // nothing else to do: the page goes on without it
    }
  },

  // What `stash` kept for the tab, or null.
  unstash(tab) {
    try {
      return localStorage.getItem(`boardlab.${tab}`);
    } catch (err) {
      return null;
    }
  },

  // `stash` and `unstash` of a JSON value (null when nothing or no JSON was kept).
  stashJson(tab, value) {
    BL.stash(tab, JSON.stringify(value));
  },

  unstashJson(tab) {
    try {
      return JSON.parse(BL.unstash(tab) || "null");
    } catch (err) {
      return null;
    }
  },

  // Keep a game's position in the address (a link that restores it) and in local
  // storage (a reload restores it); `params` is a URLSearchParams.
  remember(tab, params) {
    const text = params.toString().replace(/%2C/g, ",");  // commas are fine in an address
    if (BL.tabOf(location.hash) === tab) history.replaceState(null, "", `#${tab}?${text}`);
    BL.stash(tab, text);
  },

  // The position a game kept: the address's, else local storage's, else null.
  recall(tab) {
    const [name, query] = location.hash.replace(/^#/, "").split("?");
    if (name === tab && query) return new URLSearchParams(query);
    const stored = BL.unstash(tab);
    return stored ? new URLSearchParams(stored) : null;
  },

  // The number in box `id`, or an Error whose message `words(min, max)` gives when the
  // box is empty or outside the limits it states.
  numberIn(id, words) {
    const box = BL.$(id);
    const value = Number(box.value);
    if (box.value === "" || !(value >= Number(box.min) && value <= Number(box.max))) {
      throw new Error(words(box.min, box.max));
    }
    return value;
  },

  showTab(name) {
    const tabs = document.querySelectorAll("#tabs button");
    let found = false;
    for (const button of tabs) {
      const on = button.dataset.tab === name;
      found = found || on;
      button.classList.toggle("active", on);
    }
    if (!found) return BL.showTab("pegs");
    for (const section of document.querySelectorAll("section.game")) {
      section.hidden = section.id !== name;
    }
    const game = BL.games[name];
    if (game && !game.started) {
      game.started = true;
      game.start();
    } else if (game && game.remember) {
      game.remember();
    }
  },

  games: {},
};

// Each box's limits come from the API's own description (/api/openapi.json): a box
// marked data-limit="Struct.field" gets its range or length there, and the words beside
// it (.limits) say them; so the page and the server cannot disagree.
BL.applyLimits = (spec) => {
  BL.spec = spec;
  const schemas = spec.components.schemas;
  const fmt = (n) => Number(n).toLocaleString("en");
  for (const box of document.querySelectorAll("[data-limit]")) {
    const [struct, field] = box.dataset.limit.split(".");
    let prop = schemas[struct] && schemas[struct].properties[field];
    if (!prop) continue;
    if (prop.anyOf) prop = prop.anyOf.find((choice) => choice.type !== "null");
    let words = "";
    if (prop.type === "number" || prop.type === "integer") {
      box.min = prop.minimum;
      box.max = prop.maximum;
      words = `(${fmt(prop.minimum)} to ${fmt(prop.maximum)})`;
    } else if (prop.type === "string") {
      box.dataset.maxLength = prop.maxLength;
      words = `(at most ${fmt(prop.maxLength)} characters)`;
    } else if (prop.type === "array") {
      const item = prop.items || {};
      const count = prop.minItems === prop.maxItems ? `${prop.maxItems} numbers` : `at most ${fmt(prop.maxItems)}`;
      words = `(${count}, each ${fmt(item.minimum)} to ${fmt(item.maximum)})`;
      box.dataset.items = prop.maxItems;
    }
    const note = box.closest("label") && box.closest("label").querySelector(".limits");
    if (note && !note.dataset.fixed) note.textContent = words;
  }
  // a range the server publishes beside a field ("x-vehicles": [1, 999]), in words
  for (const place of document.querySelectorAll("[data-range]")) {
    const [name, key] = place.dataset.range.split(" ");
    const range = BL.limitOf(name)[key];
    if (Array.isArray(range)) place.textContent = BL.span(range[0], range[1]);
  }
};

// The JSON Schema of a request field ("IoiwariGame.start"), an optional one's non-null
// choice; {} before the description has come.
BL.limitOf = (name) => {
  const [struct, field] = name.split(".");
  const schema = BL.spec && BL.spec.components.schemas[struct];
  const prop = (schema && schema.properties[field]) || {};
  return prop.anyOf ? prop.anyOf.find((choice) => choice.type !== "null") : prop;
};

BL.limitsReady = fetch("/api/openapi.json").then((r) => r.json()).then(BL.applyLimits)
  .catch(() => {});                        // no description: the server still says no

window.addEventListener("DOMContentLoaded", async () => {
  await BL.limitsReady;
  for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => { location.hash = button.dataset.tab; });
  }
  window.addEventListener("hashchange", () => {
    const name = BL.tabOf(location.hash);
    const game = BL.games[name];
    // our own writes use replaceState (no event): a new address with a position is a
    // link the player followed or typed
    if (game && game.started && game.follow && location.hash.includes("?")) game.follow();
    BL.showTab(name);
  });
  BL.showTab(BL.tabOf(location.hash) || "pegs");
});
