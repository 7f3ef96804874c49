// The generic renderer: draws any game's observation JSON readably. A new game gets this until it ships web/table.js.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  // Keys whose arrays list seat numbers rather than one value per seat.
  const SEAT_LIST_KEYS = new Set(["waiting", "committed", "winners", "players"]);

  function isPlain(value) {
    return value === null || ["string", "number", "boolean"].includes(typeof value);
  }

  function chip(value) {
    return el("span", { class: "chip", text: G.formatValue(value) });
  }

  function renderValue(value, key, ctx, depth) {
    if (isPlain(value)) return el("span", { class: "value", text: G.formatValue(value) });
    if (Array.isArray(value)) {
      if (value.length === 0) return el("span", { class: "muted", text: "none" });
      if (SEAT_LIST_KEYS.has(key) && value.every((v) => typeof v === "number")) {
        return el("span", { class: "chips" }, value.map((seat) => el("span", { class: "chip", text: G.seatName(ctx.table, seat) })));
      }
      if (depth <= 1 && value.length === ctx.numPlayers && !SEAT_LIST_KEYS.has(key)) return perSeat(value, key, ctx, depth);
      if (value.every(isPlain)) return el("span", { class: "chips" }, value.map(chip));
      return el("ol", { class: "generic-list" }, value.map((item) => el("li", {}, renderValue(item, key, ctx, depth + 1))));
    }
    return el(
      "dl",
      { class: "generic-object" },
      Object.entries(value).map(([k, v]) => [el("dt", { text: G.humanize(k) }), el("dd", {}, renderValue(v, k, ctx, depth + 1))])
    );
  }

  function perSeat(values, key, ctx, depth) {
    return el(
      "table",
      { class: "per-seat" },
      el(
        "tbody",
        {},
        values.map((item, seat) =>
          el("tr", { class: seat === ctx.viewer ? "mine" : null }, el("th", { text: G.seatName(ctx.table, seat) }), el("td", {}, renderValue(item, key, ctx, depth + 1)))
        )
      )
    );
  }

  G.genericRenderer = {
    /** Draw the observation: plain facts first, then one section per structured entry. */
    render(root, view) {
      const obs = view.observation || {};
      const ctx = { table: view.table, numPlayers: obs.num_players || (view.table && view.table.num_players), viewer: view.seat };
      const facts = el("dl", { class: "facts" });
      const sections = [];
      for (const [key, value] of Object.entries(obs)) {
        if (key === "viewer" || key === "game") continue;
        if (isPlain(value) || (Array.isArray(value) && value.every(isPlain) && value.length <= 8 && !(value.length === ctx.numPlayers && !SEAT_LIST_KEYS.has(key)))) {
          facts.append(el("dt", { text: G.humanize(key) }), el("dd", {}, renderValue(value, key, ctx, 0)));
        } else {
          sections.push(el("section", { class: "generic-section", dataset: { key } }, el("h3", { text: G.humanize(key) }), renderValue(value, key, ctx, 0)));
        }
      }
      G.append(root, [el("div", { class: "generic" }, facts, sections)]);
    },
  };
})();
