// Movie Empire table renderer: the annual plan and trends, the board's spaces, each studio's production lines,
// money, PP and sympathy, the seat's own hand, and premieres. Card facts come from the game's data files via the API.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const GENRE = { A: "Action", C: "Comedy", D: "Drama" };
  const STAGE = { G: "green", B: "blue", Y: "yellow", R: "red" };
  const data = { production: {}, star: {}, script: {}, trend: {}, plan: {}, space: {} };

  function byId(rows) {
    return Object.fromEntries((rows || []).map((row) => [row.id, row]));
  }

  /** Which kind of card an id names (ids are the data files' own). */
  function kindOf(id) {
    for (const kind of ["production", "star", "script", "trend", "plan"]) if (data[kind][id]) return kind;
    return null;
  }

  function requirementText(script) {
    return ["G", "B", "Y", "R"].filter((s) => script[`req_${s}`]).map((s) => `${script[`req_${s}`]}${s}`).join(" ") || "none";
  }

  /** A card as a readable element: name, cost, PP and the facts that matter for its kind. */
  function card(id, extra) {
    const kind = kindOf(id);
    const c = kind ? data[kind][id] : null;
    const cls = `me-card ${kind || "unknown"} ${(extra && extra.class) || ""}`;
    if (!c) return el("span", { class: cls, text: id, dataset: { card: id } });
    if (kind === "production") {
      return el(
        "span",
        { class: `${cls} stage-${STAGE[c.stage] || c.stage}`, title: `${c.name}: ${STAGE[c.stage]} stage, cost ${c.cost}, ${c.pp} PP`, dataset: { card: id } },
        el("span", { class: "me-name", text: c.name }),
        el("span", { class: "me-facts" }, el("span", { class: "me-cost", text: `$${c.cost}` }), el("span", { class: "me-pp", text: `${c.pp} PP` }), el("span", { class: "me-stage", text: c.stage }))
      );
    }
    if (kind === "star") {
      const banned = (c.banned_genres || []).map((g) => GENRE[g] || g).join(", ");
      return el(
        "span",
        { class: cls, title: `${c.name}: star, cost ${c.cost}, ${c.pp} PP${banned ? `, never in ${banned}` : ""}${c.requirement && c.requirement !== "-" ? `, needs ${c.requirement}` : ""}`, dataset: { card: id } },
        el("span", { class: "me-name", text: `★ ${c.name}` }),
        el("span", { class: "me-facts" }, el("span", { class: "me-cost", text: `$${c.cost}` }), el("span", { class: "me-pp", text: `${c.pp} PP` }), banned ? el("span", { class: "me-ban", text: `no ${banned}` }) : null)
      );
    }
    if (kind === "script") {
      return el(
        "span",
        { class: `${cls} genre-${c.genre}`, title: `${c.title}: ${GENRE[c.genre] || c.genre} script, needs ${requirementText(c)}, ${c.pp} PP`, dataset: { card: id } },
        el("span", { class: "me-name", text: `“${c.title}”` }),
        el("span", { class: "me-facts" }, el("span", { class: "me-genre", text: GENRE[c.genre] || c.genre }), el("span", { text: `needs ${requirementText(c)}` }), el("span", { class: "me-pp", text: `${c.pp} PP` }))
      );
    }
    if (kind === "trend") {
      return el("span", { class: cls, title: `${c.name}: ${c.requirement}, ${c.market}; ${c.pp_with} PP with, ${c.pp_without} without`, dataset: { card: id } }, el("span", { class: "me-name", text: c.name }), el("span", { class: "me-facts", text: `${c.market} · ${c.requirement} · ${c.pp_with}/${c.pp_without} PP` }));
    }
    return el("span", { class: cls, title: c.text, dataset: { card: id } }, el("span", { class: "me-name", text: c.text }));
  }

  function seatLabel(view, seat) {
    return seat === null || seat === undefined ? "–" : G.seatName(view.table, seat);
  }

  function line(view, item) {
    if (!item) return el("div", { class: "me-line empty", text: "free line" });
    const counts = Object.entries(item.counts || {}).map(([stage, n]) => el("span", { class: `me-count stage-${STAGE[stage] || stage}`, text: `${n}${stage}` }));
    return el(
      "div",
      { class: `me-line${item.shut ? " shut" : ""}` },
      el("div", { class: "me-line-head" }, el("strong", { text: `Line ${item.slot}` }), item.script ? card(item.script, { class: "small" }) : el("span", { class: "muted", text: "no script" }), item.shut ? el("span", { class: "badge", text: "shut" }) : null, item.locked ? el("span", { class: "badge", text: "locked" }) : null),
      el("div", { class: "me-row" }, (item.cards || []).map((c) => card(c.card, { class: `small${c.stacked ? " stacked" : ""}` }))),
      item.stars && item.stars.length ? el("div", { class: "me-row" }, item.stars.map((s) => card(s, { class: "small" }))) : null,
      el("div", { class: "me-line-foot" }, counts, ` · ${item.period} period`, item.script ? (item.script_met ? " · script met" : " · script not met yet") : "")
    );
  }

  function playerPanel(view, p) {
    const obs = view.observation;
    const mine = p.seat === view.seat;
    const first = obs.first_player === p.seat;
    return el(
      "section",
      { class: `me-player${mine ? " mine" : ""}`, dataset: { seat: String(p.seat) } },
      el("h3", {}, seatLabel(view, p.seat), mine ? el("span", { class: "badge", text: "you" }) : null, first ? el("span", { class: "badge", text: "first player" }) : null, p.passed ? el("span", { class: "badge", text: "passed" }) : null),
      el(
        "dl",
        { class: "me-stats" },
        stat("Money", `$${p.money}`),
        stat("PP", p.pp),
        stat("Sympathy", `${p.sympathy} (budget ${p.budget}, ${p.lines_allowed} line${p.lines_allowed === 1 ? "" : "s"})`),
        stat("Hand", `${p.hand_size}: ${Object.entries(p.hand_counts || {}).map(([k, n]) => `${n} ${k}`).join(", ")}`),
        stat("Statues", p.statues),
        p.dossier_round != null ? stat("Black dossier", p.dossier_usable ? "usable" : "held") : null
      ),
      (p.known_cards || []).length ? el("div", { class: "me-row" }, el("span", { class: "muted", text: "Known in hand: " }), p.known_cards.map((c) => card(c, { class: "small" }))) : null,
      el("div", { class: "me-lines" }, (p.lines || []).map((item) => line(view, item))),
      (p.released || []).length ? el("p", { class: "muted", text: `Released: ${p.released.map(releasedText).join("; ")}` }) : null
    );
  }

  /** A released movie ([script, genre, market]) in words. */
  function releasedText(movie) {
    const [script, genre, market] = movie;
    const title = data.script[script] ? `“${data.script[script].title}”` : script;
    return [title, GENRE[genre] || genre, market].filter(Boolean).join(", ");
  }

  function stat(name, value) {
    return [el("dt", { text: name }), el("dd", { text: value })];
  }

  function space(view, s) {
    const info = data.space[s.id] || {};
    return el(
      "div",
      { class: `me-space task-${s.task}${s.assistant != null ? " taken" : ""}`, dataset: { space: s.id } },
      el("div", { class: "me-space-head" }, el("strong", { text: s.id }), el("span", { text: G.humanize(s.task) }), s.money ? el("span", { class: "me-cost", text: `${s.money > 0 ? "+" : ""}$${s.money}` }) : null),
      s.card ? card(s.card, { class: "small" }) : null,
      s.price != null ? el("span", { class: "muted", text: `price $${s.price}` }) : null,
      s.assistant != null ? el("span", { class: "me-assistant", text: `assistant: P${s.assistant}` }) : null,
      s.blocked_by != null ? el("span", { class: "me-blocked", text: `blocked by P${s.blocked_by}` }) : null,
      s.cut_by != null ? el("span", { class: "me-blocked", text: `cut by P${s.cut_by}` }) : null,
      s.line ? el("span", { class: "muted", text: `line ${s.line}` }) : null,
      info.dossier_space ? el("span", { class: "muted", text: "dossier" }) : null
    );
  }

  G.registerRenderer("movie-empire", {
    async setup() {
      const files = [
        ["production", "production_cards", "card"],
        ["star", "stars", "card"],
        ["script", "scripts", "card"],
        ["trend", "trends", "card"],
        ["plan", "annual_plans", "card"],
        ["space", "board_spaces", "space"],
      ];
      await Promise.all(
        files.map(async ([kind, file, key]) => {
          const answer = await G.api("GET", `/api/games/movie-empire/data/${file}`);
          data[kind] = byId(answer[key]);
        })
      );
    },

    status(view) {
      const obs = view.observation;
      if (obs.phase === "over") return `Game over after round ${obs.last_round}.`;
      const turn = obs.turn ? ` · P${obs.turn.seat} to work` : "";
      return `Round ${obs.round} of ${obs.last_round} · ${G.humanize(obs.phase)} phase${turn}`;
    },

    render(root, view) {
      const obs = view.observation;
      const parts = [];
      const plan = obs.plan || {};
      const trends = obs.trends || {};
      parts.push(
        el(
          "section",
          { class: "me-top" },
          el("div", {}, el("h3", { text: "Annual plan" }), plan.active ? card(plan.active) : el("span", { class: "muted", text: "none" }), plan.next ? el("p", { class: "muted" }, "Next: ", card(plan.next, { class: "small" })) : null),
          el("div", {}, el("h3", { text: "Trends" }), el("div", { class: "me-row" }, (trends.row || []).map((t) => (t ? card(t, { class: t === trends.active ? "active" : "small" }) : el("span", { class: "me-card empty", text: "no trend" })))), trends.hit ? el("p", { class: "muted", text: "The active trend has been hit." }) : null),
          el("div", {}, el("h3", { text: "Decks" }), el("p", { class: "muted", text: Object.entries(obs.piles || {}).map(([k, n]) => `${k} ${n}`).join(" · ") }))
        )
      );
      if (view.seat !== null && view.seat !== undefined && obs.hand) {
        parts.push(
          el(
            "section",
            { class: "me-hand" },
            el("h3", { text: "Your hand" }),
            el("div", { class: "me-row" }, obs.hand.length ? obs.hand.map((c) => card(c)) : el("span", { class: "muted", text: "empty" })),
            obs.my_commitment ? el("p", {}, el("strong", { text: "Your secret choice: " }), obs.my_commitment.join(" ")) : null
          )
        );
      }
      parts.push(el("section", {}, el("h3", { text: "Board" }), el("div", { class: "me-spaces" }, (obs.spaces || []).map((s) => space(view, s)))));
      parts.push(el("div", { class: "me-players" }, (obs.players || []).map((p) => playerPanel(view, p))));
      const premieres = obs.premieres || [];
      if (premieres.length) {
        parts.push(
          el(
            "details",
            { class: "me-premieres", open: premieres.length <= 4 },
            el("summary", { text: `Premieres (${premieres.length})` }),
            el(
              "ul",
              {},
              premieres
                .slice()
                .reverse()
                .map((p) => el("li", { text: `Round ${p.round}: P${p.seat} premiered ${data.script[p.script] ? data.script[p.script].title : p.script} in ${p.market}${p.hit ? " (trend hit)" : ""}${p.statue ? ", statue" : ""}: ${p.total} PP, $${p.money}, sympathy ${p.sympathy >= 0 ? "+" : ""}${p.sympathy}` }))
            )
          )
        );
      }
      G.append(root, [el("div", { class: "me-board" }, parts)]);
    },

    label(path, token) {
      if (path.length === 0) return null;
      if (kindOf(token)) return card(token, { class: "small" });
      if (data.space[token]) return `${token} (${G.humanize(data.space[token].task)})`;
      return null;
    },
  });
})();
