// Movie Empire table renderer. Everything it draws comes from the seat's observation and the table's components
// (ctx.components: each card, trend, plan, board space and market with its name and its face in words). It applies no
// rule of its own: prices, previews and what a line meets or misses are in the observation, worded by the game.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;

  /** A CSS-friendly form of a component kind: "post-production card" -> "post-production-card". */
  function slug(text) {
    return String(text || "unknown").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  }

  function component(ctx, id) {
    return (ctx && ctx.component(id)) || null;
  }

  /** A card (or any component) as a chip: its name, and with `full` its face in words. */
  function chip(ctx, id, options) {
    const opts = options || {};
    const c = component(ctx, id);
    if (!c) return el("span", { class: "me-card unknown", text: "a card" });
    return el(
      "span",
      { class: `me-card kind-${slug(c.kind)}${opts.class ? ` ${opts.class}` : ""}`, title: `${c.name}: ${c.text}`, dataset: { card: id } },
      el("span", { class: "me-name", text: c.name }),
      opts.kind ? el("span", { class: "me-kind", text: c.kind }) : null,
      opts.full ? el("span", { class: "me-text", text: c.text }) : null
    );
  }

  function seatLabel(view, seat) {
    return seat === null || seat === undefined ? "nobody" : G.seatName(view.table, seat);
  }

  function plural(count, word, words) {
    return `${count} ${count === 1 ? word : words || `${word}s`}`;
  }

  function signed(value) {
    return value > 0 ? `+${value}` : String(value);
  }

  // -- the studio of one player ---------------------------------------------------------------------

  function previewBlock(item) {
    const preview = item.preview;
    if (!preview || !preview.words) return null;
    const [first, ...rest] = preview.words;
    return el(
      "div",
      { class: "me-preview" },
      first ? el("p", { class: `me-preview-head ${first.mark}`, text: first.text }) : null,
      el("ul", {}, rest.map((note) => el("li", { class: note.mark || "plain", text: note.text })))
    );
  }

  function line(view, ctx, item, index) {
    if (!item) return el("div", { class: "me-line empty", text: `Line ${index + 1}: free` });
    const cells = (item.cards || []).map((cell, i) => {
      const card = component(ctx, cell.card);
      const joker = card && card.kind === "joker";
      return [
        i ? el("span", { class: "me-arrow", text: "→" }) : null,
        el(
          "span",
          { class: `me-cell stage-${cell.stage}` },
          chip(ctx, cell.card, { class: "small" }),
          cell.stacked ? el("span", { class: "me-stacked" }, "+ ", chip(ctx, cell.stacked, { class: "small" })) : null,
          joker ? el("span", { class: "me-as", text: `as ${cell.stage_words}` }) : null
        ),
      ];
    });
    return el(
      "div",
      { class: `me-line${item.shut ? " shut" : ""}${item.locked ? " locked" : ""}` },
      el(
        "div",
        { class: "me-line-head" },
        el("strong", { text: `Line ${item.slot}` }),
        chip(ctx, item.script, { kind: true }),
        item.shut ? el("span", { class: "badge", text: "shut down" }) : null,
        item.locked ? el("span", { class: "badge release", text: "released this round" }) : null
      ),
      el("div", { class: "me-row me-cells" }, cells.length ? cells : el("span", { class: "muted", text: "no production card yet" })),
      item.stars && item.stars.length ? el("div", { class: "me-row" }, el("span", { class: "muted", text: "Stars:" }), item.stars.map((s) => chip(ctx, s, { class: "small" }))) : null,
      previewBlock(item)
    );
  }

  function handWords(counts) {
    const parts = [];
    if (counts.production) parts.push(plural(counts.production, "production card"));
    if (counts.star) parts.push(plural(counts.star, "star"));
    if (counts.script) parts.push(plural(counts.script, "script"));
    return parts.length ? parts.join(", ") : "empty";
  }

  function releasedWords(ctx, movie) {
    const [script, , market] = movie;
    const title = component(ctx, script);
    const where = component(ctx, market);
    return `${title ? title.name : "a movie"} (${where ? where.name : "a market"})`;
  }

  function stat(name, value) {
    return [el("dt", { text: name }), el("dd", { text: value })];
  }

  function studio(view, ctx, p) {
    const obs = view.observation;
    const mine = p.seat === view.seat;
    const dossier = p.dossier_round != null ? (p.dossier_usable ? "held, usable now" : `held, usable from round ${p.dossier_round + 1}`) : null;
    return el(
      "section",
      { class: `me-player${mine ? " mine" : ""}`, dataset: { seat: String(p.seat) } },
      el(
        "h3",
        {},
        seatLabel(view, p.seat),
        mine ? el("span", { class: "badge", text: "you" }) : null,
        obs.first_player === p.seat ? el("span", { class: "badge", text: "first player" }) : null,
        p.passed ? el("span", { class: "badge", text: "passed" }) : null,
        p.exempt ? el("span", { class: "badge", text: "ignores the plan" }) : null
      ),
      el(
        "dl",
        { class: "me-stats" },
        stat("Points", p.pp),
        stat("Money", p.money),
        stat("Sympathy", `${signed(p.sympathy)}: budget ${p.budget} a round, ${plural(p.lines_allowed, "line")} open`),
        stat("Assistants", `${p.assistants_placed} of 4 placed`),
        stat("Hand", handWords(p.hand_counts || {})),
        p.statues ? stat("Golden statues", p.statues) : null,
        dossier ? stat("Black dossier", dossier) : null,
        (p.released || []).length ? stat("Released", p.released.map((movie) => releasedWords(ctx, movie)).join("; ")) : null
      ),
      !mine && (p.known_cards || []).length
        ? el("div", { class: "me-row" }, el("span", { class: "muted", text: "Known in hand:" }), p.known_cards.map((c) => chip(ctx, c, { class: "small" })))
        : null,
      el("div", { class: "me-lines" }, (p.lines || []).map((item, i) => line(view, ctx, item, i)))
    );
  }

  // -- the board ------------------------------------------------------------------------------------

  function occupant(view, s) {
    const parts = [];
    if (s.assistant != null) parts.push(`assistant of ${seatLabel(view, s.assistant)}`);
    if (s.blocked_by != null) parts.push(`blocked by ${seatLabel(view, s.blocked_by)}`);
    if (s.cut_by != null) parts.push(`cut by ${seatLabel(view, s.cut_by)}`);
    if (s.line) parts.push(`releases line ${s.line}`);
    return parts.length ? el("span", { class: "me-occupant", text: parts.join(" · ") }) : null;
  }

  function slot(view, ctx, s) {
    const name = component(ctx, s.id);
    return el(
      "div",
      { class: `me-slot${s.assistant != null || s.blocked_by != null ? " taken" : ""}`, dataset: { space: s.id } },
      el("div", { class: "me-slot-head" }, el("strong", { text: name ? name.name : "a slot" }), s.price != null ? el("span", { class: "me-price", text: `${s.price} money` }) : s.card ? el("span", { class: "me-price", text: "free" }) : null),
      s.card ? chip(ctx, s.card, { full: true }) : el("span", { class: "muted", text: "empty" }),
      occupant(view, s)
    );
  }

  function actionSpace(view, ctx, s) {
    const c = component(ctx, s.id);
    return el(
      "div",
      { class: `me-space task-${slug(s.task)}${s.assistant != null || s.blocked_by != null ? " taken" : ""}`, dataset: { space: s.id } },
      el("strong", { text: c ? c.name : "a space" }),
      c ? el("span", { class: "me-text", text: c.text }) : null,
      occupant(view, s)
    );
  }

  function board(view, ctx) {
    const spaces = view.observation.spaces || [];
    const group = (task) => spaces.filter((s) => s.task === task);
    const others = spaces.filter((s) => !["production", "script", "star"].includes(s.task));
    return el(
      "section",
      { class: "me-boardgrid" },
      el("h3", { text: "Production board" }),
      el("div", { class: "me-slots" }, group("production").map((s) => slot(view, ctx, s))),
      el("div", { class: "me-two" }, el("div", {}, el("h3", { text: "Scripts" }), el("div", { class: "me-slots" }, group("script").map((s) => slot(view, ctx, s)))), el("div", {}, el("h3", { text: "Stars" }), el("div", { class: "me-slots" }, group("star").map((s) => slot(view, ctx, s))))),
      el("h3", { text: "Action spaces" }),
      el("div", { class: "me-spaces" }, others.map((s) => actionSpace(view, ctx, s)))
    );
  }

  // -- plan and trends --------------------------------------------------------------------------------

  function top(view, ctx) {
    const obs = view.observation;
    const plan = obs.plan || {};
    const trends = obs.trends || {};
    const row = trends.row || [];
    const active = row[2];
    const planCard = plan.active ? component(ctx, plan.active) : null;
    const activeTrend = active ? component(ctx, active) : null;
    return el(
      "section",
      { class: "me-top" },
      el(
        "div",
        { class: "me-box plan" },
        el("h3", { text: "Annual plan" }),
        planCard ? [el("p", { class: "me-big", text: planCard.name }), el("p", { class: "me-text", text: planCard.text })] : el("p", { class: "muted", text: obs.options && obs.options.shoot_a_short ? "No annual plans in Shoot a Short." : "No plan in force this round." }),
        plan.next ? el("p", { class: "muted" }, "Next plan: ", chip(ctx, plan.next, { class: "small" })) : null
      ),
      el(
        "div",
        { class: "me-box trend" },
        el("h3", { text: "Trend this round" }),
        activeTrend ? [el("p", { class: "me-big", text: activeTrend.name }), el("p", { class: "me-text", text: activeTrend.text })] : el("p", { class: "muted", text: "No trend left." }),
        trends.hit ? el("p", { class: "badge hit", text: "already hit this round" }) : null
      ),
      el(
        "div",
        { class: "me-box coming" },
        el("h3", { text: "Coming trends" }),
        row[1] ? el("p", {}, "Next round: ", chip(ctx, row[1], { class: "small" })) : null,
        row[0] ? el("p", {}, "In two rounds: ", chip(ctx, row[0], { class: "small" })) : null,
        !row[0] && !row[1] ? el("p", { class: "muted", text: "None." }) : null
      )
    );
  }

  // -- the seat's own cards -----------------------------------------------------------------------------

  function own(view, ctx) {
    const obs = view.observation;
    if (view.seat === null || view.seat === undefined || !obs.hand) return null;
    const parts = [];
    const choosing = view.legal_actions.length > 0;
    if ((obs.dealt || []).length) {
      const keep = obs.options && obs.options.shoot_a_short ? 2 : 1;
      parts.push(
        el(
          "section",
          { class: "me-offer" },
          el("h3", { text: `Scripts dealt to you: keep ${keep}, the others go back` }),
          el("div", { class: "me-row" }, obs.dealt.map((c) => chip(ctx, c, { full: true })))
        )
      );
    }
    if ((obs.drawn || []).length) {
      parts.push(
        el(
          "section",
          { class: "me-offer" },
          el("h3", { text: "Your Sabotage draw: keep 2, the others are discarded" }),
          el("div", { class: "me-row" }, obs.drawn.map((c) => chip(ctx, c, { full: true })))
        )
      );
    }
    if (obs.my_commitment) {
      const names = obs.my_commitment.map((c) => (component(ctx, c) || { name: "a card" }).name);
      parts.push(el("p", { class: "me-commitment" }, el("strong", { text: "Your secret choice: " }), names.length ? names.join(", ") : "nothing", choosing ? "" : " (waiting for the others)"));
    }
    parts.push(
      el(
        "section",
        { class: "me-hand" },
        el("h3", { text: `Your hand (${obs.hand.length} of 4 cards)` }),
        el("div", { class: "me-row" }, obs.hand.length ? obs.hand.map((c) => chip(ctx, c, { full: true })) : el("span", { class: "muted", text: "empty" }))
      )
    );
    return parts;
  }

  // -- premieres and final scores ---------------------------------------------------------------------

  function premieres(view) {
    const items = view.observation.premieres || [];
    if (!items.length) return null;
    return el(
      "section",
      { class: "me-premieres" },
      el("h3", { text: "Premieres this round" }),
      el(
        "ul",
        {},
        items.map((p) => el("li", { text: `${seatLabel(view, p.seat)} premieres ${p.words}.` }))
      )
    );
  }

  function finalScores(view) {
    const obs = view.observation;
    const rows = obs.final_rows;
    if (!rows) return null;
    const seats = obs.players.map((p) => p.seat);
    const winners = (obs.final && obs.final.winners) || [];
    return el(
      "section",
      { class: "me-final" },
      el("h3", { text: "Final scores in detail" }),
      el(
        "table",
        { class: "me-final-table" },
        el("thead", {}, el("tr", {}, el("th", { text: "" }), seats.map((seat) => el("th", { class: winners.includes(seat) ? "winner" : null, text: seatLabel(view, seat) })))),
        el(
          "tbody",
          {},
          rows.map((row) => el("tr", { class: row.label === "Total" ? "total" : null }, el("th", { text: row.label }), row.values.map((value) => el("td", { text: value }))))
        )
      )
    );
  }

  // -- choices ----------------------------------------------------------------------------------------

  /** Words for the first token of a choice that more choices follow. */
  const VERBS = {
    place: "Place an assistant…",
    produce: "Produce: lay cards into a line…",
    lay: "Lay a production card…",
    stack: "Stack an upgrade…",
    star: "Cast a star in the line…",
    script: "Start the line with a script…",
    cut: "Say Cut! on a release…",
    block: "Block a space…",
    discard: "Discard a card…",
    keep: "Keep…",
    give: "Give…",
    exempt: "About the annual plan…",
    market: "Choose a market…",
    net: "The Internet…",
    swap: "Put a card on the board…",
    take: "Take a card…",
    release: "Release a line…",
    shut: "Shut down a line…",
  };
  const PROMPTS = {
    place: "Where does your assistant go?",
    produce: "Into which line?",
    lay: "Which card?",
    cut: "Which release do you cut?",
    block: "Which space do you block?",
    discard: "Which card do you discard?",
    market: "Where does the movie premiere?",
  };

  /** Whether ``path`` + ``token`` is a whole legal action with nothing after it (the page labels those with their words). */
  function isFinal(view, path, token) {
    const text = [...path, token].join(" ");
    return view.legal_actions.includes(text) && !view.legal_actions.some((action) => action.startsWith(`${text} `));
  }

  G.registerRenderer("movie-empire", {
    status(view) {
      const obs = view.observation;
      if (obs.phase === "over") return `Game over after round ${obs.last_round}.`;
      const turn = obs.turn ? ` · ${seatLabel(view, obs.turn.seat)} is working` : "";
      return `Round ${obs.round} of ${obs.last_round} · ${obs.phase_words}${turn}`;
    },

    render(root, view, ctx) {
      const obs = view.observation;
      // A choice among cards only this seat sees (the scripts dealt, a Sabotage draw) comes first.
      const offer = (obs.dealt || []).length > 0 || (obs.drawn || []).length > 0;
      const mine = view.seat != null && obs.players[view.seat] ? studio(view, ctx, obs.players[view.seat]) : null;
      const others = el("div", { class: "me-players" }, (obs.players || []).filter((p) => p.seat !== view.seat).map((p) => studio(view, ctx, p)));
      const parts = offer ? [own(view, ctx), top(view, ctx)] : [top(view, ctx), own(view, ctx)];
      G.append(root, [el("div", { class: "me-board" }, finalScores(view), parts, mine, premieres(view), board(view, ctx), others)]);
    },

    label(path, token, view, ctx) {
      if (isFinal(view, path, token)) return null;
      if (path.length === 0 && VERBS[token]) return VERBS[token];
      if (token === "left" || token === "right") return `At the ${token} end…`;
      const c = component(ctx, token);
      if (c) return chip(ctx, token, { class: "small" });
      return null;
    },

    prompt(path, view) {
      if (path.length === 1 && PROMPTS[path[0]]) return PROMPTS[path[0]];
      if (path.length === 2 && path[0] === "lay") return "Where does the card go in the line?";
      if (path.length === 3 && path[0] === "lay") return "Which stage does the joker take?";
      if (path.length === 2 && path[0] === "place") return "With or without your black dossier?";
      return null;
    },
  });
})();
