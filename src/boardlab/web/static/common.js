// boardlab web page: shared helpers. Plain JavaScript, no build step.
// The page holds no game rules: every legal move, position and verdict comes from /api/.
"use strict";

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const BL = {
  // POST a JSON body (or GET when body is undefined); the answer's JSON, or an ApiError.
  async api(path, body) {
    const options = body === undefined
      ? { method: "GET" }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    let response;
    try {
      response = await fetch("/api/" + path, options);
    } catch (err) {
      throw new ApiError("the server cannot be reached: " + err.message, 0);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = { error: "HTTP " + response.status };
    }
    if (!response.ok) {
      throw new ApiError(data && data.error ? data.error : "HTTP " + response.status, response.status);
    }
    return data;
  },

  $(id) { return document.getElementById(id); },

  status(id, text, kind) {
    const el = BL.$(id);
    el.textContent = text;
    el.className = "status" + (kind ? " " + kind : "");
  },

  // Show a picture from boardlab.render and call onCell(name) when a tagged cell is clicked.
  picture(id, svg, onCell) {
    const box = BL.$(id);
    box.innerHTML = svg || "";
    if (onCell) {
      for (const el of box.querySelectorAll("[data-cell]")) {
        el.addEventListener("click", () => onCell(el.getAttribute("data-cell")));
      }
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

  readFileInto(inputId, textareaId) {
    BL.$(inputId).addEventListener("change", (event) => {
      const file = event.target.files[0];
      if (!file) return;
      if (file.size > 1024 * 1024 * 4) {
        alert("file too large (at most 4 MB)");
        return;
      }
      const reader = new FileReader();
      reader.onload = () => { BL.$(textareaId).value = reader.result; };
      reader.readAsText(file);
    });
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
    }
  },

  games: {},
};

window.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => { location.hash = button.dataset.tab; });
  }
  window.addEventListener("hashchange", () => BL.showTab(location.hash.slice(1)));
  BL.showTab(location.hash.slice(1) || "pegs");
});
