// Greenlight browser helpers shared by the lobby, the table page, the replay page and every game renderer.
// All text goes into the page through textContent (never innerHTML), so player names and game text are always escaped.
"use strict";

(function () {
  const G = (window.Greenlight = window.Greenlight || {});
  G.renderers = G.renderers || {};

  /** Register the renderer of one game (see docs/api.md, "Game renderers"). */
  G.registerRenderer = function (gameId, renderer) {
    G.renderers[gameId] = renderer;
  };

  /** Create an element: el("div", {class: "x", title: "y", onclick: fn}, child, "text", [more]). */
  G.el = function (tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      // Styles through the CSSOM: the pages' Content Security Policy refuses style attributes.
      else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
      else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
      else if (value === true) node.setAttribute(key, "");
      else node.setAttribute(key, String(value));
    }
    G.append(node, children);
    return node;
  };

  /** Append children (nodes, strings, numbers, nested arrays; null is skipped). */
  G.append = function (node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };

  G.clear = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  };

  /** The JSON the server put in the page (<script type="application/json" id="boot">). */
  G.boot = function () {
    const node = document.getElementById("boot");
    return node ? JSON.parse(node.textContent) : {};
  };

  /** "wages_due" -> "Wages due". */
  G.humanize = function (key) {
    const text = String(key).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  };

  /** A seat's name from the table info ("Ann", "Bot (medium)"), "Player N" without it. */
  G.seatName = function (table, seat) {
    if (seat === null || seat === undefined) return "spectator";
    const row = table && table.seats ? table.seats[seat] : null;
    return row ? row.name : `Player ${seat + 1}`;
  };

  /** A seat's name with who it plays for: a bot that took over a person's seat reads "Bot 1 (random) for Ann". */
  G.seatLabel = function (table, seat) {
    const row = table && table.seats ? table.seats[seat] : null;
    const name = G.seatName(table, seat);
    return row && row.kind === "bot" && row.stands_in_for ? `${name} for ${row.stands_in_for}` : name;
  };

  /** Call the JSON API; resolves to the body, rejects with an Error carrying .status and the server's message. */
  G.api = async function (method, url, body, token, extraHeaders) {
    const headers = { Accept: "application/json", ...(extraHeaders || {}) };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(url, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    if (!response.ok) {
      const error = new Error((data && data.detail) || `${response.status} ${response.statusText}`);
      error.status = response.status;
      throw error;
    }
    return data;
  };

  /** The seat token from a seat link (#token=...). */
  G.tokenFromHash = function () {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    return params.get("token");
  };

  // -- seat links remembered in this browser, so a person can rejoin from the lobby ---------------
  const SEATS_KEY = "greenlight.seats";
  G.rememberedSeats = function () {
    try {
      const items = JSON.parse(window.localStorage.getItem(SEATS_KEY) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  };
  G.rememberSeat = function (item) {
    const items = G.rememberedSeats().filter((old) => old.link !== item.link);
    items.unshift(item);
    try {
      window.localStorage.setItem(SEATS_KEY, JSON.stringify(items.slice(0, 50)));
    } catch (error) {
      /* storage may be disabled; links still work */
    }
  };
  G.forgetSeat = function (link) {
    const items = G.rememberedSeats().filter((old) => old.link !== link);
    window.localStorage.setItem(SEATS_KEY, JSON.stringify(items));
  };

  // -- legal actions as a tree of choices ------------------------------------------------------------

  /**
   * Group action texts by their space-separated tokens: "offer D6 30" becomes offer -> D6 -> 30.
   * Each node: {children: Map(token -> node), action: full text if a legal action ends here}.
   */
  G.actionTree = function (actions) {
    const root = { children: new Map(), action: null };
    for (const text of actions) {
      let node = root;
      for (const token of text.split(/\s+/)) {
        if (!node.children.has(token)) node.children.set(token, { children: new Map(), action: null });
        node = node.children.get(token);
      }
      node.action = text;
    }
    return root;
  };

  /** The node reached by following ``path`` (null if the path is no longer legal). */
  G.treeNode = function (root, path) {
    let node = root;
    for (const token of path) {
      node = node.children.get(token);
      if (!node) return null;
    }
    return node;
  };

  // -- final scores ----------------------------------------------------------------------------------

  /** A table of final scores: one row per seat with rank, score, winner mark and every breakdown category. */
  G.outcomeTable = function (outcome, table) {
    const keys = [];
    for (const item of outcome.breakdown || []) {
      for (const key of Object.keys(item)) if (!keys.includes(key)) keys.push(key);
    }
    const head = G.el("tr", {}, G.el("th", { text: "Seat" }), G.el("th", { text: "Rank" }), G.el("th", { text: "Score" }), keys.map((k) => G.el("th", { text: G.humanize(k) })));
    const order = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
    const rows = order.map((seat) => {
      const winner = outcome.winners.includes(seat);
      const item = (outcome.breakdown || [])[seat] || {};
      return G.el(
        "tr",
        { class: winner ? "winner" : null, dataset: { seat: String(seat) } },
        G.el("td", {}, G.seatLabel(table, seat), winner ? G.el("span", { class: "badge win", text: "winner" }) : null),
        G.el("td", { text: outcome.ranks[seat] }),
        G.el("td", { class: "score", text: formatNumber(outcome.scores[seat]) }),
        keys.map((k) => G.el("td", { text: formatValue(item[k]) }))
      );
    });
    const winners = outcome.winners.length ? outcome.winners.map((s) => G.seatLabel(table, s)).join(" and ") : "nobody";
    return G.el(
      "div",
      { class: "outcome", id: "final-scores" },
      G.el("h2", { text: "Final scores" }),
      G.el("p", { class: "winner-line", text: `Winner: ${winners}` }),
      G.el("div", { class: "scroll" }, G.el("table", { class: "scores" }, G.el("thead", {}, head), G.el("tbody", {}, rows)))
    );
  };

  /**
   * Final scores as a picture: one bar per player, as long as its score against the best one (a score below zero
   * draws no bar); the full breakdown in a table below, on demand. Reads well on a phone: no wide table to scroll.
   * The bar is the score itself, not a stack of breakdown figures: a breakdown may hold subtotals, totals and
   * tie-breakers that do not add up to it.
   */
  G.outcomeChart = function (outcome, table) {
    const best = Math.max(0, ...outcome.scores.map(Number));
    const order = outcome.scores.map((_, seat) => seat).sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
    const bars = order.map((seat) => {
      const winner = outcome.winners.includes(seat);
      const score = Number(outcome.scores[seat]);
      const width = best > 0 ? (100 * Math.max(0, score)) / best : 0;
      return G.el(
        "li",
        { class: winner ? "winner" : "", dataset: { seat: String(seat) }, "aria-label": `${G.seatLabel(table, seat)}: place ${outcome.ranks[seat]}, score ${formatNumber(score)}${winner ? ", winner" : ""}` },
        G.el("span", { class: "bar-name" }, `${ordinal(outcome.ranks[seat])} ${G.seatLabel(table, seat)}`, winner ? G.el("span", { class: "badge win", text: "winner" }) : null),
        G.el("span", { class: "bar", "aria-hidden": "true" }, G.el("span", { class: `segment ${winner ? "c1" : "c0"}`, style: { width: `${width}%` } })),
        G.el("span", { class: "bar-score", text: formatNumber(score) })
      );
    });
    const winners = outcome.winners.length ? outcome.winners.map((s) => G.seatLabel(table, s)).join(" and ") : "nobody";
    const details = G.el("details", { class: "score-details" }, G.el("summary", { text: "Every scoring figure" }), G.outcomeTable(outcome, table).querySelector(".scroll"));
    return G.el(
      "div",
      { class: "outcome", id: "final-scores" },
      G.el("h2", { text: "Final scores" }),
      G.el("p", { class: "winner-line", text: `Winner: ${winners}` }),
      G.el("ol", { class: "score-bars" }, bars),
      details
    );
  };

  function ordinal(rank) {
    const tens = rank % 100;
    const suffix = tens >= 10 && tens <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[rank % 10] || "th";
    return `${rank}${suffix}`;
  }

  function formatNumber(value) {
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  }

  function formatValue(value) {
    if (value === null || value === undefined) return "–";
    if (typeof value === "number") return formatNumber(value);
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) return value.map(formatValue).join(", ");
    if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${G.humanize(k)}: ${formatValue(v)}`).join("; ");
    const text = String(value);
    // Status words such as DROPPED_WAGES read better as "dropped wages"; ids such as D6 stay as they are.
    return /^[A-Z]+(_[A-Z]+)+$|^[A-Z]{3,}$/.test(text) ? text.replace(/_/g, " ").toLowerCase() : text;
  }
  G.formatValue = formatValue;
})();

// Skip links: straight to the page's content (at a table, to your move) without touching the address, whose
// fragment holds a seat's key (#token=...): the target is focused instead.
document.addEventListener("click", (event) => {
  const link = event.target.closest ? event.target.closest("a.skip-link") : null;
  if (!link) return;
  const target = document.querySelector(link.getAttribute("href"));
  if (!target) return;
  event.preventDefault();
  target.focus();
});

// Rules panels: a <details class="rules-panel" data-game="ID"> loads that game's rules for players when first opened.
(function () {
  const G = window.Greenlight;
  function wire(panel) {
    panel.addEventListener("toggle", async () => {
      if (!panel.open || panel.dataset.loaded) return;
      panel.dataset.loaded = "yes";
      const target = panel.querySelector(".rules-text");
      try {
        const rules = await G.api("GET", `/api/games/${encodeURIComponent(panel.dataset.game)}/rules`);
        // The rules are the project's own Markdown, rendered on the server with raw HTML escaped.
        target.innerHTML = rules.html;
      } catch (error) {
        target.textContent = `The rules could not be loaded: ${error.message}`;
      }
    });
  }
  G.wireRulesPanels = (root) => root.querySelectorAll(".rules-panel").forEach(wire);
  document.addEventListener("DOMContentLoaded", () => G.wireRulesPanels(document));
})();

// Shared pieces for game renderers: inline SVG icons with a text alternative, playable targets on the board,
// and a short mark on what arrived since the last view (so a move by someone else is easy to see).
(function () {
  const G = window.Greenlight;
  const SVG = "http://www.w3.org/2000/svg";

  /** An SVG element (attributes set as given; text only through textContent). */
  G.svg = function (tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = String(value);
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat(Infinity)) if (child) node.appendChild(child);
    return node;
  };

  /**
   * An icon: a 24x24 inline SVG drawn from ``shapes`` ([tag, attributes] pairs), read by screen readers as ``label``
   * (``decorative`` hides it from them when the words stand next to it anyway).
   */
  G.icon = function (label, shapes, { decorative = false, cls = "" } = {}) {
    const attrs = { viewBox: "0 0 24 24", class: `gl-icon ${cls}`.trim(), focusable: "false" };
    if (decorative) attrs["aria-hidden"] = "true";
    else Object.assign(attrs, { role: "img", "aria-label": label });
    return G.svg("svg", attrs, decorative ? null : G.svg("title", { text: label }), shapes.map(([tag, shape]) => G.svg(tag, shape)));
  };

  /**
   * Make ``node`` a target on the board for ``tokens`` (a whole action or the start of one): highlighted and
   * played on click, tap, Enter or Space when some legal action starts so; otherwise a hover or long-press
   * explains why not (the engine's refusal text, asked of the server).
   */
  G.playable = function (node, tokens, ctx, { label = null } = {}) {
    const legal = ctx.view && ctx.view.seat !== null && ctx.view.seat !== undefined ? ctx.legalWith(tokens) : [];
    node.dataset.play = tokens.join(" ");
    if (!legal.length) {
      if (ctx.view && ctx.view.seat !== null && ctx.view.seat !== undefined && ctx.view.legal_actions.length) {
        node.classList.add("unplayable");
        const explain = async () => {
          if (node.dataset.why) return;
          node.dataset.why = "…";
          const reason = await ctx.why(tokens.join(" "));
          node.dataset.why = reason;
          node.title = reason;
        };
        node.addEventListener("mouseenter", explain, { once: true });
        node.addEventListener("touchstart", explain, { once: true, passive: true });
        node.addEventListener("focus", explain, { once: true });
      }
      return node;
    }
    node.classList.add("playable");
    if (ctx.path.join(" ") === tokens.join(" ")) node.classList.add("selected");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    const words = legal.length === 1 ? ctx.words(legal[0]) : label;
    if (words) node.setAttribute("aria-label", words);
    if (legal.length === 1 && words) node.title = words;
    const play = () => ctx.setPath(tokens);
    node.addEventListener("click", play);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        play();
      }
    });
    return node;
  };

  const seen = new Map();
  /**
   * Mark with the class ``arrived`` the elements under ``root`` whose ``data-arrive`` key was not there in the
   * last call with the same ``memory`` (nothing is marked the first time); CSS animates them briefly.
   */
  G.markArrivals = function (root, memory) {
    const now = new Set();
    const before = seen.get(memory);
    for (const node of root.querySelectorAll("[data-arrive]")) {
      now.add(node.dataset.arrive);
      if (before && !before.has(node.dataset.arrive)) node.classList.add("arrived");
    }
    seen.set(memory, now);
  };
})();

// Other players' areas on a narrow screen: a summary line that opens on tap (open by default on wider screens);
// what a reader opened or closed stays so across views.
(function () {
  const G = window.Greenlight;
  const chosen = new Map();
  /** How long ago a moment (epoch seconds) was, in words: "just now", "5 min ago", "3 h ago", "2 days ago". */
  G.sinceWords = function (seconds) {
    const minutes = Math.floor((Date.now() / 1000 - seconds) / 60);
    if (!Number.isFinite(minutes) || minutes < 1) return "just now";
    if (minutes < 60) return `${minutes} min ago`;
    const hours = Math.floor(minutes / 60);
    if (hours < 48) return `${hours} h ago`;
    return `${Math.floor(hours / 24)} days ago`;
  };

  G.narrowScreen = () => window.matchMedia("(max-width: 700px)").matches;

  /** A <details> whose <summary> holds ``summary`` and whose body holds ``body``; ``key`` remembers the reader's choice. */
  G.collapsible = function (key, summary, body, { cls = "", label = null } = {}) {
    const open = chosen.has(key) ? chosen.get(key) : !G.narrowScreen();
    const node = G.el(
      "details",
      { class: `gl-collapse ${cls}`.trim(), open, dataset: { fold: key }, "aria-label": label },
      G.el("summary", { class: "gl-collapse-summary" }, summary),
      body
    );
    node.addEventListener("toggle", () => chosen.set(key, node.open));
    return node;
  };
})();
