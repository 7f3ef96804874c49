// Movie Empire table renderer. Everything it draws comes from the seat's observation and the table's components
// (ctx.components: each card, trend, plan, board space and market with its name and its face in words). It applies no
// rule of its own: prices, previews and what a line meets or misses are in the observation, worded by the game.
//
// Playing on the board: on this seat's turn every legal action can be made by clicking or tapping what it is about:
// a space of the board (place an assistant, Cut!, Block, take a card after a Sabotage swap), a line of the seat's
// studio (produce into it, release it, shut it, put it on the Internet) or a free line slot (a new line), a card in
// the docked hand (lay, stack, cast, start a line with it, swap, discard; two cards for an AP12 gift), then a line
// end and, for a joker, its stage; a dealt script or a Sabotage draw (keep); a market (premiere). Moves with no
// component of their own (pass, end the turn, done, Purge, the exemptions, stop discarding, skip the Internet) are
// buttons on the board next to what they concern. Each target is made with Greenlight.playable (data-play holds
// its tokens); cards picked two at a time carry data-pick and are confirmed with a button (data-play = the action).
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;

  const STAGE_WORDS = { G: "pre-production", B: "shooting", Y: "post-production", R: "marketing" };
  const STAGE_OF_KIND = { "pre-production card": "G", "shooting card": "B", "post-production card": "Y", "marketing card": "R" };

  // -- icons (24x24, drawn with the current colour unless a shape says otherwise) ---------------------
  const SHAPES = {
    money: [
      ["circle", { cx: 12, cy: 12, r: 10, fill: "#d9a520", stroke: "#8a6300", "stroke-width": 1.5 }],
      ["circle", { cx: 12, cy: 12, r: 6.5, fill: "none", stroke: "#8a6300", "stroke-width": 1.2 }],
      ["path", { d: "M12 8.2v7.6M10 10h3.2a1.3 1.3 0 0 1 0 2.6h-2.4a1.3 1.3 0 0 0 0 2.6H14", fill: "none", stroke: "#5a3f00", "stroke-width": 1.3 }],
    ],
    points: [["path", { d: "M12 2l2.9 6.2 6.8.8-5 4.7 1.3 6.8L12 17.1l-6 3.4 1.3-6.8-5-4.7 6.8-.8z", fill: "#2a6ab0", stroke: "#173f6e", "stroke-width": 1 }]],
    sympathy: [["path", { d: "M12 21s-8-5.2-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.8-8 11-8 11z", fill: "#c0392b" }]],
    assistant: [["path", { d: "M12 2.5a3.2 3.2 0 1 1 0 6.4 3.2 3.2 0 0 1 0-6.4zM5 21.5l1.6-7.2L3 12.6l1.2-2.6h15.6l1.2 2.6-3.6 1.7 1.6 7.2h-5.5L12 17l-1.5 4.5z" }]],
    dossier: [["path", { d: "M2 5h7l2 2.2h11V20H2z", fill: "#222" }], ["rect", { x: 6, y: 11, width: 12, height: 1.6, fill: "#bbb" }]],
    statue: [["path", { d: "M12 2a2.4 2.4 0 1 1 0 4.8A2.4 2.4 0 0 1 12 2zM9.6 7.6h4.8l-.9 8h-3zM7 17h10v2H7zM5.5 19.6h13V22h-13z", fill: "#c89b2c", stroke: "#7a5a10", "stroke-width": 0.6 }]],
    film: [["rect", { x: 3, y: 4, width: 18, height: 16, rx: 2, fill: "#333" }], ["path", { d: "M5 6h2v2H5zM5 11h2v2H5zM5 16h2v2H5zM17 6h2v2h-2zM17 11h2v2h-2zM17 16h2v2h-2z", fill: "#eee" }]],
    left: [["path", { d: "M15 4l-8 8 8 8", fill: "none", stroke: "currentColor", "stroke-width": 3 }]],
    right: [["path", { d: "M9 4l8 8-8 8", fill: "none", stroke: "currentColor", "stroke-width": 3 }]],
    star: [["path", { d: "M12 2l2.9 6.2 6.8.8-5 4.7 1.3 6.8L12 17.1l-6 3.4 1.3-6.8-5-4.7 6.8-.8z", fill: "#f2c230", stroke: "#8a6300", "stroke-width": 1 }]],
    cut: [["path", { d: "M6 3l12 13M18 3L6 16", fill: "none", stroke: "currentColor", "stroke-width": 2 }], ["circle", { cx: 6, cy: 18.5, r: 2.6, fill: "none", stroke: "currentColor", "stroke-width": 2 }], ["circle", { cx: 18, cy: 18.5, r: 2.6, fill: "none", stroke: "currentColor", "stroke-width": 2 }]],
    block: [["circle", { cx: 12, cy: 12, r: 9, fill: "none", stroke: "#a23b2a", "stroke-width": 3 }], ["path", { d: "M5.6 5.6l12.8 12.8", stroke: "#a23b2a", "stroke-width": 3 }]],
  };
  const SEAT_COLOURS = ["#d35400", "#6c3fa0", "#0f7c7c", "#4a5568"];

  function icon(name, label, opts) {
    return G.icon(label, SHAPES[name], opts || {});
  }

  function meeple(seat, label) {
    const node = icon("assistant", label, { cls: "me-meeple" });
    node.style.color = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    return node;
  }

  /** A token: an icon read as its words, then the number. */
  function token(kind, value, label) {
    return el("span", { class: `me-token ${kind}` }, icon(kind, label), el("span", { class: "me-token-value", text: value }));
  }

  /** A CSS-friendly form of a component kind: "post-production card" -> "post-production-card". */
  function slug(text) {
    return String(text || "unknown").toLowerCase().replace(/[^a-z0-9]+/g, "-");
  }

  /** A component's words (the replay page passes no components: then null, and cards say "a card"). */
  function component(ctx, id) {
    return ctx && typeof ctx.component === "function" ? ctx.component(id) || null : null;
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

  function myTurn(view) {
    return view.seat !== null && view.seat !== undefined && view.legal_actions.length > 0;
  }

  function kindOf(view) {
    return (view.observation.decision || {}).kind || "";
  }

  /** The legal actions whose first token is ``verb`` and second ``code``. */
  function actionsOn(view, code, verbs) {
    return view.legal_actions.filter((action) => {
      const parts = action.split(" ");
      return parts[1] === code && (!verbs || verbs.includes(parts[0]));
    });
  }

  // -- cards ----------------------------------------------------------------------------------------

  /** The band at the top of a card: its stage or kind in words. */
  function band(c) {
    if (STAGE_OF_KIND[c.kind]) return STAGE_WORDS[STAGE_OF_KIND[c.kind]];
    if (c.kind.endsWith(" script")) return c.kind.replace(" script", "");
    return c.kind;
  }

  // The printed numbers of the bundled cards (cost, points, a script's needs), read once from the game's data files
  // (GET /api/games/movie-empire/data/...) to draw them in the corners as on the physical cards. A table with its own
  // data files (the data option) shows only the words of its components, which always come from the table.
  const printed = new Map();
  let bundled = true;

  function face(id) {
    return bundled ? printed.get(id) || null : null;
  }

  /** The corner marks of a card: its cost in money and its points (words for screen readers in the card's text). */
  function corners(id) {
    const f = face(id);
    if (!f) return null;
    const marks = [];
    if (typeof f.cost === "number") marks.push(el("span", { class: "me-corner cost", "aria-hidden": "true" }, icon("money", "cost", { decorative: true }), String(f.cost)));
    if (typeof f.pp === "number" && f.pp > 0) marks.push(el("span", { class: "me-corner pp", "aria-hidden": "true" }, icon("points", "points", { decorative: true }), String(f.pp)));
    return marks.length ? el("span", { class: "me-corners" }, marks) : null;
  }

  const PIP_WORDS = { G: "pre-production (green)", B: "shooting (blue)", Y: "post-production (yellow)", R: "marketing (red)" };

  /** A script's needs as pips in the stage colours (the card's text says the same in words). */
  function needs(id) {
    const f = face(id);
    if (!f || !("req_G" in f)) return null;
    const pips = [];
    const words = [];
    for (const stage of ["G", "B", "Y", "R"]) {
      const count = f[`req_${stage}`] || 0;
      for (let i = 0; i < count; i++) pips.push(el("span", { class: `me-pip stage-${stage}` }));
      if (count) words.push(`${count} ${PIP_WORDS[stage]}`);
    }
    // The pips' meaning on hover too: a dot per card the movie needs, in its stage's colour.
    return pips.length ? el("span", { class: "me-needs", "aria-hidden": "true", title: `Needs ${words.join(", ")}` }, pips) : null;
  }

  /** A card as it lies on the table: a frame in its stage's colour (scripts as film scripts, stars as star cards). */
  function card(ctx, id, options) {
    const opts = options || {};
    const c = component(ctx, id);
    if (!c) return el("span", { class: "me-card unknown", text: "a card" });
    const stage = STAGE_OF_KIND[c.kind];
    const script = c.kind.endsWith(" script");
    const cls = ["me-card", `kind-${slug(c.kind)}`, stage ? `stage-${stage}` : "", script ? "me-script" : "", c.kind === "star" ? "me-star" : "", opts.small ? "small" : "", opts.class || ""];
    return el(
      "span",
      { class: cls.filter(Boolean).join(" "), title: opts.full ? null : `${c.name}: ${c.text}`, dataset: { card: id, arrive: opts.arrive || null } },
      el("span", { class: "me-band" }, c.kind === "star" ? icon("star", "star", { decorative: true }) : null, script ? el("span", { class: "me-fasteners", "aria-hidden": "true" }) : null, el("span", { class: "me-band-word", text: band(c) }), corners(id)),
      el("span", { class: "me-name", text: c.name }),
      script ? needs(id) : null,
      opts.full ? el("span", { class: "me-text", text: c.text }) : null
    );
  }

  // -- picking two cards (keep 2 scripts, keep 2 of a Sabotage draw, give 2 under AP12) -----------------

  let picked = { key: "", indexes: [] };

  function pairActions(view, verb) {
    return view.legal_actions.filter((action) => action.startsWith(`${verb} `) && action.split(" ")[1].includes(","));
  }

  /** Picks last while the seat's choices stay the same (other seats' moves bring new views meanwhile). */
  function pickKey(view, verb) {
    return `${verb}:${view.legal_actions.join("|")}`;
  }

  function pickedIndexes(view, verb) {
    return picked.key === pickKey(view, verb) ? picked.indexes : [];
  }

  /** The legal pair action for two codes (in either order), or null. */
  function pairAction(view, verb, a, b) {
    return view.legal_actions.find((action) => action === `${verb} ${a},${b}`) || view.legal_actions.find((action) => action === `${verb} ${b},${a}`) || null;
  }

  /** A card of ``codes`` (index ``index``) that is picked as one of two; clicking toggles it. */
  function pickable(node, view, ctx, verb, codes, index) {
    const pairs = pairActions(view, verb);
    const code = codes[index];
    const usable = pairs.some((action) => action.split(" ")[1].split(",").includes(code));
    node.dataset.pick = `${verb} ${code}`;
    if (!usable) return node;
    const chosen = pickedIndexes(view, verb).includes(index);
    const c = component(ctx, code);
    node.classList.add("playable");
    if (chosen) node.classList.add("selected");
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", chosen ? "true" : "false");
    node.setAttribute("aria-label", `${verb === "give" ? "Give" : "Keep"} ${c ? c.name : "this card"} (one of two)`);
    const toggle = () => {
      const now = pickedIndexes(view, verb).slice();
      const at = now.indexOf(index);
      if (at >= 0) now.splice(at, 1);
      else {
        now.push(index);
        if (now.length > 2) now.shift();
      }
      picked = { key: pickKey(view, verb), indexes: now };
      ctx.setPath(ctx.path.length ? ctx.path : []);
    };
    node.addEventListener("click", toggle);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        toggle();
      }
    });
    return node;
  }

  /** The button that confirms the two picked cards (or says how many are still to pick). */
  function pickBar(view, ctx, verb, codes) {
    if (!pairActions(view, verb).length) return null;
    const chosen = pickedIndexes(view, verb);
    const action = chosen.length === 2 ? pairAction(view, verb, codes[chosen[0]], codes[chosen[1]]) : null;
    const names = chosen.map((i) => (component(ctx, codes[i]) || { name: "a card" }).name);
    if (!action) {
      const left = 2 - chosen.length;
      const text = chosen.length === 2 ? "These two cannot go together: pick another." : `Pick ${plural(left, "more card")}${names.length ? ` (picked: ${names.join(", ")})` : ""}.`;
      return el("p", { class: "me-pickbar muted", text });
    }
    return el("div", { class: "me-pickbar" }, finalButton(view, ctx, action, ctx.words(action)));
  }

  /** A board button that plays a whole action at once (also when it is the start of a longer one). */
  function finalButton(view, ctx, action, text, extra) {
    const button = el("button", { type: "button", class: `me-button${extra ? ` ${extra}` : ""}`, dataset: { play: action, final: "yes" }, title: ctx.words(action), onclick: () => ctx.choose(action) }, text);
    button.classList.add("playable");
    return button;
  }

  /** A board button for a move with no component of its own (pass, done, ...): G.playable on its tokens. */
  function moveButton(view, ctx, action, text) {
    const button = el("button", { type: "button", class: "me-button" }, text);
    G.playable(button, action.split(" "), ctx);
    if (view.action_warnings && view.action_warnings[action]) button.classList.add("warned");
    return button;
  }

  /** Explain on hover, focus or long press why ``action`` is not legal (the engine's words). */
  function explainWhy(node, ctx, action) {
    node.classList.add("unplayable");
    node.dataset.whyAction = action;
    const explain = async () => {
      if (node.dataset.why) return;
      node.dataset.why = "…";
      const reason = await ctx.why(action);
      node.dataset.why = reason;
      node.title = reason;
    };
    node.addEventListener("mouseenter", explain, { once: true });
    node.addEventListener("touchstart", explain, { once: true, passive: true });
    node.addEventListener("focus", explain, { once: true });
  }

  /**
   * Make ``node`` a target for whichever of ``verbs`` is legal on ``code`` now: one verb makes the node itself
   * playable; several put a small button per verb in it; none explains ``whyVerb`` (if given) on hover.
   */
  function target(node, view, ctx, code, verbs, labels, whyTokens) {
    if (!myTurn(view)) return node;
    const legal = [...new Set(actionsOn(view, code, verbs).map((action) => action.split(" ")[0]))];
    if (legal.length === 1) {
      G.playable(node, [legal[0], code], ctx);
      if (sameTokens(walkedPath(view, ctx).slice(0, 2), [legal[0], code])) node.classList.add("selected");
      return node;
    }
    if (legal.length > 1) {
      node.classList.add("me-multi");
      node.append(el("span", { class: "me-verbs" }, legal.map((verb) => G.playable(el("button", { type: "button", class: "me-button small" }, labels[verb] || verb), [verb, code], ctx))));
      return node;
    }
    if (whyTokens) {
      node.dataset.play = whyTokens.join(" ");
      explainWhy(node, ctx, whyTokens.join(" "));
    }
    return node;
  }

  /**
   * A target's accessible name is its own visible words plus what choosing it does: the action's words go into a
   * visually hidden text at its start instead of an aria-label that would hide the card's face from screen readers.
   */
  function nameFromContent(root) {
    for (const node of root.querySelectorAll(".playable[aria-label]")) {
      const words = node.getAttribute("aria-label");
      node.removeAttribute("aria-label");
      node.prepend(el("span", { class: "visually-hidden", text: `${words}. ` }));
    }
  }

  /**
   * The path as the decision shows it: the page takes single steps forward for the person when it draws the menu
   * (after the board), so the board follows them too (one card to lay: its line ends show at once).
   */
  function walkedPath(view, ctx) {
    const tree = G.actionTree(view.legal_actions);
    let path = ctx.path;
    let node = G.treeNode(tree, path);
    if (!node) {
      path = [];
      node = tree;
    }
    while (!node.action && node.children.size === 1 && node.children.values().next().value.action === null) {
      const [step, child] = node.children.entries().next().value;
      path.push(step);
      node = child;
    }
    return path;
  }

  function sameTokens(a, b) {
    return a.length === b.length && a.every((t, i) => t === b[i]);
  }

  /** Buttons under a target chosen on the board whose action goes on (a dossier, a joker's stage). */
  function continuations(view, ctx, tokens, render) {
    if (!myTurn(view) || !sameTokens(walkedPath(view, ctx), tokens)) return null;
    const prefix = tokens.join(" ");
    const buttons = [];
    if (view.legal_actions.includes(prefix)) buttons.push(finalButton(view, ctx, prefix, render(null), "small"));
    for (const action of ctx.legalWith(tokens)) {
      if (action === prefix) continue;
      const next = action.split(" ")[tokens.length];
      const button = el("button", { type: "button", class: `me-button small${STAGE_WORDS[next] ? ` stage-${next}` : ""}` }, render(next));
      buttons.push(G.playable(button, [...tokens, next], ctx));
    }
    return buttons.length ? el("span", { class: "me-continue" }, buttons) : null;
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

  /** A line end to lay the chosen card at (shown once a hand card is chosen for this line). */
  function lineEnd(view, ctx, side) {
    if (!myTurn(view)) return null;
    const path = walkedPath(view, ctx);
    if (path[0] !== "lay" || path.length < 2) return null;
    const tokens = ["lay", path[1], side];
    if (!ctx.legalWith(tokens).length) return null;
    const node = el("span", { class: `me-end ${side}` }, icon(side, `${side} end`, { decorative: true }), el("span", { text: side === "left" ? "left end" : "right end" }));
    G.playable(node, tokens, ctx);
    if (sameTokens(path.slice(0, 3), tokens)) node.classList.add("selected");
    const stages = continuations(view, ctx, tokens, (next) => (next ? STAGE_WORDS[next] || next : "as it is"));
    return el("span", { class: `me-end-wrap ${side}` }, node, stages);
  }

  function lineVerbs(view) {
    return { turn: "produce", release: "release", shut: "shut", internet: "net" }[kindOf(view)] || null;
  }

  function line(view, ctx, p, item, index) {
    const mine = p.seat === view.seat;
    const turn = view.observation.turn;
    const target = mine && turn && turn.seat === view.seat && kindOf(view) === "produce" && turn.target === index + 1;
    if (!item) {
      const free = el("div", { class: `me-line empty${target ? " target" : ""}`, dataset: { line: String(index + 1) } }, el("span", { class: "me-line-label", text: `Line ${index + 1}` }), el("span", { text: target ? "new line: start it with a script from your hand" : "free line slot" }));
      const firstFree = p.lines.findIndex((x) => x === null) === index;
      if (mine && firstFree && myTurn(view) && kindOf(view) === "turn") {
        if (ctx.legalWith(["produce", "new"]).length) G.playable(free, ["produce", "new"], ctx);
        else if (index < p.lines_allowed) explainWhy(free, ctx, "produce new");
      }
      return free;
    }
    const slot = String(item.slot);
    const counts = new Map();
    const cells = (item.cards || []).map((cell) => {
      const n = (counts.get(cell.card) || 0) + 1;
      counts.set(cell.card, n);
      const c = component(ctx, cell.card);
      const joker = c && c.kind === "joker";
      return el(
        "span",
        { class: `me-cell stage-${cell.stage}`, dataset: { arrive: `line${p.seat}.${slot}:${cell.card}#${n}` } },
        card(ctx, cell.card, { small: true }),
        cell.stacked ? el("span", { class: "me-stacked" }, "upgraded: ", card(ctx, cell.stacked, { small: true })) : null,
        joker ? el("span", { class: "me-as", text: `as ${cell.stage_words}` }) : null
      );
    });
    const node = el(
      "div",
      { class: `me-line${item.shut ? " shut" : ""}${item.locked ? " locked" : ""}${target ? " target" : ""}`, dataset: { line: slot } },
      el(
        "div",
        { class: "me-line-head" },
        el("span", { class: "me-line-label", text: `Line ${item.slot}` }),
        item.shut ? el("span", { class: "badge", text: "shut down" }) : null,
        item.locked ? el("span", { class: "badge release", text: "released this round" }) : null
      ),
      el(
        "div",
        { class: "me-strip" },
        card(ctx, item.script, { small: true, class: "me-line-script", arrive: `line${p.seat}.${slot}:${item.script}` }),
        target ? lineEnd(view, ctx, "left") : null,
        el("span", { class: "me-cells" }, cells.length ? cells : el("span", { class: "muted me-nocards", text: "no production card yet" })),
        target ? lineEnd(view, ctx, "right") : null
      ),
      item.stars && item.stars.length ? el("div", { class: "me-row me-stars" }, el("span", { class: "muted", text: "Stars:" }), item.stars.map((s) => card(ctx, s, { small: true, arrive: `line${p.seat}.${slot}:${s}` }))) : null,
      previewBlock(item)
    );
    const verb = lineVerbs(view);
    if (mine && verb) {
      const legal = ctx.legalWith([verb, slot]);
      if (legal.length) G.playable(node, [verb, slot], ctx);
      else if (verb !== "produce" || !item.shut) explainWhy(node, ctx, `${verb} ${slot}`);
    }
    return node;
  }

  function releasedWords(ctx, movie) {
    const [script, , market] = movie;
    const title = component(ctx, script);
    const where = component(ctx, market);
    return `${title ? title.name : "a movie"} (${where ? where.name : "a market"})`;
  }

  function handWords(counts) {
    const parts = [];
    if (counts.production) parts.push(plural(counts.production, "production card"));
    if (counts.star) parts.push(plural(counts.star, "star"));
    if (counts.script) parts.push(plural(counts.script, "script"));
    return parts.length ? parts.join(", ") : "empty";
  }

  /** Moves of this seat with no component of their own, as buttons in its studio. */
  function studioMoves(view, ctx) {
    if (!myTurn(view)) return null;
    const words = { pass: "Pass", end: "End my turn", done: "Done producing", stop: "Stop discarding" };
    const buttons = [];
    for (const action of view.legal_actions) {
      if (words[action]) buttons.push(moveButton(view, ctx, action, words[action]));
      else if (action === "net skip") buttons.push(moveButton(view, ctx, action, "Skip the Internet"));
    }
    return buttons.length ? el("div", { class: "me-moves", role: "group", "aria-label": "moves on the board" }, buttons) : null;
  }

  function studio(view, ctx, p) {
    const obs = view.observation;
    const mine = p.seat === view.seat;
    const dossier = p.dossier_round != null ? (p.dossier_usable ? "black dossier, usable now" : `black dossier, usable from round ${p.dossier_round + 1}`) : null;
    const name = seatLabel(view, p.seat);
    const helpers = [0, 1, 2, 3].map((i) => {
      const node = meeple(p.seat, i < p.assistants_placed ? `assistant placed` : `assistant at home`);
      if (i < p.assistants_placed) node.classList.add("away");
      return node;
    });
    const attrs = { class: `me-player${mine ? " mine" : ""}`, dataset: { seat: String(p.seat) }, "aria-label": `studio of ${name}` };
    const head = el(
      "div",
      { class: "me-player-head" },
      el("h3", {}, meeple(p.seat, `colour of ${name}`), name, mine ? el("span", { class: "badge", text: "you" }) : null, obs.first_player === p.seat ? el("span", { class: "badge", text: "first player" }) : null, p.passed ? el("span", { class: "badge", text: "passed" }) : null, p.exempt ? el("span", { class: "badge", text: "ignores the plan" }) : null),
      el(
        "div",
        { class: "me-tokens" },
        token("points", p.pp, "points"),
        token("money", p.money, "money"),
        el("span", { class: "me-token sympathy", title: `Sympathy ${signed(p.sympathy)}: budget ${p.budget} a round, ${plural(p.lines_allowed, "line")} open` }, icon("sympathy", "sympathy"), el("span", { class: "me-token-value", text: signed(p.sympathy) })),
        el("span", { class: "me-helpers", "aria-label": `${p.assistants_placed} of 4 assistants placed`, role: "img" }, helpers),
        p.statues ? token("statue", p.statues, "golden statues") : null,
        dossier ? el("span", { class: "me-token dossier" }, icon("dossier", "black dossier"), el("span", { class: "me-token-value small", text: dossier.replace("black dossier, ", "") })) : null
      )
    );
    const body = [
      mine ? studioMoves(view, ctx) : null,
      el("p", { class: "me-facts" }, `Sympathy ${signed(p.sympathy)}: budget ${p.budget} a round, ${plural(p.lines_allowed, "line")} open · Hand: ${handWords(p.hand_counts || {})}`),
      (p.released || []).length ? el("p", { class: "me-facts" }, icon("film", "released movies"), ` Released: ${p.released.map((movie) => releasedWords(ctx, movie)).join("; ")}`) : null,
      !mine && (p.known_cards || []).length ? el("div", { class: "me-row" }, el("span", { class: "muted", text: "Known in hand:" }), p.known_cards.map((c) => card(ctx, c, { small: true }))) : null,
      el("div", { class: "me-lines" }, (p.lines || []).map((item, i) => line(view, ctx, p, item, i)))
    ];
    // Your own studio is always open; the others fold to their name and tokens on a phone (a tap opens them).
    if (mine) return el("section", attrs, head, body);
    return el("section", attrs, G.collapsible(`me-player-${p.seat}`, head, body));
  }

  // -- the board ------------------------------------------------------------------------------------

  function occupant(view, s) {
    const parts = [];
    if (s.assistant != null) parts.push(el("span", { class: "me-occ" }, meeple(s.assistant, `assistant of ${seatLabel(view, s.assistant)}`), seatLabel(view, s.assistant)));
    if (s.blocked_by != null) parts.push(el("span", { class: "me-occ" }, icon("block", "blocked"), `blocked by ${seatLabel(view, s.blocked_by)}`));
    if (s.cut_by != null) parts.push(el("span", { class: "me-occ" }, icon("cut", "Cut!"), `cut by ${seatLabel(view, s.cut_by)}`));
    if (s.line) parts.push(el("span", { class: "me-occ", text: `releases line ${s.line}` }));
    return parts.length ? el("span", { class: "me-occupant", dataset: { arrive: `space:${s.id}:${s.assistant}:${s.blocked_by}:${s.cut_by}` } }, parts) : null;
  }

  const SPACE_VERBS = { place: "Place an assistant", cut: "Say Cut!", block: "Block it", take: "Take this card" };

  /** The verbs a space answers to, and the action whose refusal explains it when none is legal. */
  function spaceTarget(node, view, ctx, s) {
    const kind = kindOf(view);
    const why = kind === "turn" ? ["place", s.id] : kind === "take" && s.task === "production" ? ["take", s.id] : null;
    target(node, view, ctx, s.id, ["place", "cut", "block", "take"], SPACE_VERBS, why);
    const more = continuations(view, ctx, ["place", s.id], (next) => (next === "dossier" ? "spend my black dossier" : next ? next : "without the dossier"));
    if (more) node.append(more);
    return node;
  }

  function slot(view, ctx, s) {
    const name = component(ctx, s.id);
    const node = el(
      "div",
      { class: `me-slot task-${slug(s.task)}${s.assistant != null || s.blocked_by != null ? " taken" : ""}`, dataset: { space: s.id } },
      el("div", { class: "me-slot-head" }, el("span", { class: "me-space-name", text: name ? name.name : "a slot" }), s.price != null ? token("money", s.price, "price in money") : s.card ? el("span", { class: "me-price", text: "free" }) : null),
      s.card ? card(ctx, s.card, { full: true, arrive: `slot:${s.id}:${s.card}` }) : el("span", { class: "muted me-emptyslot", text: "empty" }),
      occupant(view, s)
    );
    return spaceTarget(node, view, ctx, s);
  }

  function actionSpace(view, ctx, s) {
    const c = component(ctx, s.id);
    const node = el(
      "div",
      { class: `me-space task-${slug(s.task)}${s.assistant != null || s.blocked_by != null ? " taken" : ""}`, dataset: { space: s.id } },
      el("div", { class: "me-slot-head" }, el("span", { class: "me-space-name", text: c ? c.name : "a space" }), s.money ? token("money", signed(s.money), s.money > 0 ? "money gained" : "money paid") : null),
      c ? el("span", { class: "me-text", text: c.text }) : null,
      occupant(view, s)
    );
    return spaceTarget(node, view, ctx, s);
  }

  function board(view, ctx) {
    const spaces = view.observation.spaces || [];
    const group = (task) => spaces.filter((s) => s.task === task);
    const others = spaces.filter((s) => !["production", "script", "star", "release"].includes(s.task));
    const purge = myTurn(view) && view.legal_actions.includes("purge") ? moveButton(view, ctx, "purge", "Purge: new cards here") : null;
    return el(
      "section",
      { class: "me-boardgrid", "aria-label": "the board" },
      el(
        "div",
        { class: "me-slots-row" },
        el("div", { class: "me-area production" }, el("h3", {}, "Production board", purge), el("div", { class: "me-slots" }, group("production").map((s) => slot(view, ctx, s)))),
        el("div", { class: "me-area scripts" }, el("h3", { text: "Scripts" }), el("div", { class: "me-slots" }, group("script").map((s) => slot(view, ctx, s)))),
        el("div", { class: "me-area stars" }, el("h3", { text: "Stars" }), el("div", { class: "me-slots" }, group("star").map((s) => slot(view, ctx, s))))
      ),
      el("h3", { text: "Action spaces" }),
      el("div", { class: "me-spaces" }, others.map((s) => actionSpace(view, ctx, s))),
      el("h3", { text: "Release spaces" }),
      el("div", { class: "me-spaces releases" }, group("release").map((s) => actionSpace(view, ctx, s)))
    );
  }

  // -- plan, trends and markets ----------------------------------------------------------------------

  function markets(view, ctx) {
    const used = view.observation.markets_used || [];
    const items = ctx.components ? [...ctx.components.values()].filter((c) => c.kind === "market") : [];
    return el(
      "div",
      { class: "me-box markets" },
      el("h3", { text: "Markets" }),
      el(
        "div",
        { class: "me-market-row" },
        items.map((m) => {
          const node = el("div", { class: `me-market${used.includes(m.id) ? " used" : ""}`, dataset: { market: m.id }, title: m.text }, el("span", { class: "me-name", text: m.name }), used.includes(m.id) ? el("span", { class: "me-used", text: "taken this round" }) : null);
          if (kindOf(view) === "market") target(node, view, ctx, m.id, ["market"], {}, ["market", m.id]);
          return node;
        })
      )
    );
  }

  function top(view, ctx) {
    const obs = view.observation;
    const plan = obs.plan || {};
    const trends = obs.trends || {};
    const row = trends.row || [];
    const active = row[2];
    const planCard = plan.active ? component(ctx, plan.active) : null;
    const activeTrend = active ? component(ctx, active) : null;
    const exemptions = myTurn(view) ? view.legal_actions.filter((a) => a.startsWith("exempt ")) : [];
    // Paying to ignore the plan says what it costs (the action's own words: "Pay 4 money to ignore the annual plan ...").
    const ways = { decline: "Follow the plan", free: "Ignore it (free)", dossier: "Ignore it: spend my dossier" };
    return el(
      "section",
      { class: "me-top" },
      el(
        "div",
        { class: "me-box plan" },
        el("h3", { text: "Annual plan" }),
        planCard ? [el("p", { class: "me-big", text: planCard.name }), el("p", { class: "me-text", text: planCard.text })] : el("p", { class: "muted", text: obs.options && obs.options.shoot_a_short ? "No annual plans in Shoot a Short." : "No plan in force this round." }),
        exemptions.length ? el("div", { class: "me-moves" }, exemptions.map((a) => moveButton(view, ctx, a, ways[a.split(" ")[1]] || ctx.words(a)))) : null,
        plan.next ? el("p", { class: "muted" }, "Next plan: ", card(ctx, plan.next, { small: true })) : null
      ),
      el(
        "div",
        { class: "me-box trend" },
        el("h3", { text: "Trend this round" }),
        activeTrend ? [el("p", { class: "me-big", text: activeTrend.name }), el("p", { class: "me-text", text: activeTrend.text })] : el("p", { class: "muted", text: "No trend left." }),
        trends.hit ? el("p", { class: "badge hit", text: "already hit this round" }) : null,
        row[1] || row[0] ? el("p", { class: "me-coming" }, "Coming: ", row[1] ? card(ctx, row[1], { small: true }) : null, row[0] ? card(ctx, row[0], { small: true }) : null) : null
      ),
      markets(view, ctx)
    );
  }

  // -- the seat's own cards -----------------------------------------------------------------------------

  function offers(view, ctx) {
    const obs = view.observation;
    if (view.seat === null || view.seat === undefined || !obs.hand) return null;
    const parts = [];
    const offer = (codes, verb, heading) => {
      const cards = codes.map((code, i) => {
        const node = card(ctx, code, { full: true, arrive: `offer:${code}#${i}` });
        if (pairActions(view, verb).length) return pickable(node, view, ctx, verb, codes, i);
        if (kindOf(view) === "keep" || kindOf(view) === "sabotage_keep") target(node, view, ctx, code, [verb], {}, null);
        return node;
      });
      return el("section", { class: "me-offer" }, el("h3", { text: heading }), el("div", { class: "me-row me-offer-cards" }, cards), pickBar(view, ctx, verb, codes));
    };
    if ((obs.dealt || []).length) {
      const keep = obs.options && obs.options.shoot_a_short ? 2 : 1;
      parts.push(offer(obs.dealt, "keep", `Scripts dealt to you: keep ${keep}, the others go back`));
    }
    if ((obs.drawn || []).length) parts.push(offer(obs.drawn, "keep", "Your Sabotage draw: keep 2, the others are discarded"));
    if (obs.my_commitment) {
      const names = obs.my_commitment.map((c) => (component(ctx, c) || { name: "a card" }).name);
      parts.push(el("p", { class: "me-commitment" }, el("strong", { text: "Your secret choice: " }), names.length ? names.join(", ") : "nothing", myTurn(view) ? "" : " (waiting for the others)"));
    }
    return parts;
  }

  /** Which hand verbs a decision offers, and the action whose refusal explains a card that cannot be used. */
  function handWhy(view, ctx, code) {
    const c = component(ctx, code);
    if (!c || !myTurn(view)) return null;
    const kind = kindOf(view);
    if (kind === "produce") {
      if (c.kind.endsWith(" script")) return ["script", code];
      if (c.kind === "star") return ["star", code];
      return ["lay", code, "right"];
    }
    if (kind === "swap") return ["swap", code];
    if (kind === "discard") return ["discard", code];
    return null;
  }

  function hand(view, ctx) {
    const obs = view.observation;
    const codes = obs.hand || [];
    const counts = new Map();
    const giving = pairActions(view, "give").length > 0;
    const cards = codes.map((code, i) => {
      const n = (counts.get(code) || 0) + 1;
      counts.set(code, n);
      const node = card(ctx, code, { full: true, arrive: `hand:${code}#${n}` });
      if (giving) return pickable(node, view, ctx, "give", codes, i);
      return target(node, view, ctx, code, ["lay", "stack", "star", "script", "swap", "discard"], { lay: "Lay", stack: "Stack" }, handWhy(view, ctx, code));
    });
    return el(
      "section",
      { class: "me-hand", "aria-label": "your hand" },
      el("h3", { text: `Your hand: ${codes.length} card${codes.length === 1 ? "" : "s"}, limit ${handLimit(view)}` }),
      el("div", { class: "me-hand-cards" }, cards.length ? cards : el("span", { class: "muted", text: "empty" })),
      giving ? pickBar(view, ctx, "give", codes) : null
    );
  }

  /** The cards a hand may hold (the rulebook's 4, unless the table changed the hand_limit parameter). */
  function handLimit(view) {
    const options = view.observation.options || {};
    return options.hand_limit || 4;
  }

  // -- premieres and final scores ---------------------------------------------------------------------

  function premieres(view) {
    const items = view.observation.premieres || [];
    if (!items.length) return null;
    return el("section", { class: "me-premieres" }, el("h3", { text: "Premieres this round" }), el("ul", {}, items.map((p) => el("li", {}, icon("film", "premiere", { decorative: true }), ` ${seatLabel(view, p.seat)} premieres ${p.words}.`))));
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
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: "Scoring" })), seats.map((seat) => el("th", { class: winners.includes(seat) ? "winner" : null, text: seatLabel(view, seat) })))),
        el("tbody", {}, rows.map((row) => el("tr", { class: row.label === "Total" ? "total" : null }, el("th", { text: row.label }), row.values.map((value) => el("td", { text: value })))))
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
    place: "Where does your assistant go? (click a space on the board)",
    produce: "Into which line? (click one of your lines)",
    lay: "Which card? (click it in your hand)",
    cut: "Which release do you cut?",
    block: "Which space do you block?",
    discard: "Which card do you discard? (click it in your hand)",
    market: "Where does the movie premiere? (click a market)",
  };

  /** Whether ``path`` + ``token`` is a whole legal action with nothing after it (the page labels those with their words). */
  function isFinal(view, path, token) {
    const text = [...path, token].join(" ");
    return view.legal_actions.includes(text) && !view.legal_actions.some((action) => action.startsWith(`${text} `));
  }

  G.registerRenderer("movie-empire", {
    async setup(ctx) {
      for (const name of ["production_cards", "stars", "scripts"]) {
        try {
          const data = await ctx.api("GET", `/api/games/movie-empire/data/${name}`);
          for (const item of (data && data.card) || []) printed.set(item.id, item);
        } catch (error) {
          console.error(error);
        }
      }
    },

    status(view) {
      const obs = view.observation;
      if (obs.phase === "over") return `Game over after round ${obs.last_round}.`;
      const turn = obs.turn ? ` · ${seatLabel(view, obs.turn.seat)} is working` : "";
      return `Round ${obs.round} of ${obs.last_round} · ${obs.phase_words}${turn}`;
    },

    render(root, view, ctx) {
      const obs = view.observation;
      bundled = !(obs.options && obs.options.data);
      const me = view.seat != null ? obs.players[view.seat] : null;
      const others = el("div", { class: "me-players" }, (obs.players || []).filter((p) => p.seat !== view.seat).map((p) => studio(view, ctx, p)));
      // Once the game is over, the round's trend and plan are gone from the table: the scores and the studios stay.
      const over = obs.phase === "over";
      const table = el("div", { class: "me-table" }, board(view, ctx), over ? null : top(view, ctx));
      const page = el("div", { class: "me-board" }, finalScores(view), offers(view, ctx), me ? studio(view, ctx, me) : null, premieres(view), table, others);
      root.append(page);
      nameFromContent(root);
      G.markArrivals(root, "movie-empire-board");
    },

    hand(root, view, ctx) {
      if (!view.observation.hand || view.observation.phase === "over") return;
      root.append(hand(view, ctx));
      nameFromContent(root);
      G.markArrivals(root, "movie-empire-hand");
    },

    label(path, token, view, ctx) {
      if (isFinal(view, path, token)) return null;
      if (path.length === 0 && VERBS[token]) return VERBS[token];
      if (token === "left" || token === "right") return `At the ${token} end…`;
      const c = component(ctx, token);
      if (c) return card(ctx, token, { small: true });
      return null;
    },

    prompt(path, view) {
      if (path.length === 1 && PROMPTS[path[0]]) return PROMPTS[path[0]];
      if (path.length === 2 && path[0] === "lay") return "Where does the card go in the line? (click a line end)";
      if (path.length === 3 && path[0] === "lay") return "Which stage does the joker take?";
      if (path.length === 2 && path[0] === "place") return "With or without your black dossier?";
      return null;
    },
  });
})();
