// Cinecitta 1937 table renderer: each seat's Studio and Office as a player board, your hand, wallet and folders,
// played from the table itself: a hand card and an amount stepper make an offer, the buttons beside the folder you
// received answer it, the cards to place (and the Studio card they push out) make the placement plan.
// Everything drawn comes from the observation (its figures and words are computed by the game's view layer in Python)
// and from the table's components (ctx.component(code): a card's name and its face in words). No rule is computed here:
// what can be clicked is what view.legal_actions allows (ctx.legalWith), and the engine explains the rest (ctx.why).
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const STEP_NAMES = { offer: "Step 1 of 3: offer", respond: "Step 2 of 3: respond", place: "Step 3 of 3: place", over: "Game over" };
  const VERBS = { offer: "Offer a card and money", respond: "Answer the folder", place: "Place your cards" };

  // -- icons (24x24, drawn in currentColor; holes in white) --------------------------------------------------------

  const HOLE = "#ffffff";
  const SHAPES = {
    Director: [
      ["path", { d: "M3 10h18v10H3z" }],
      ["path", { d: "M2.6 4.6l16.8-2.7.8 4.6L3.4 9.2z" }],
      ["path", { d: "M6.5 4l2.6 4M11.5 3.2l2.6 4M16.3 2.5l2.4 3.9", stroke: HOLE, "stroke-width": "1.3", fill: "none" }],
    ],
    Actor: [["path", { d: "M12 1.8l3 6.6 7.2.7-5.4 4.9 1.6 7.1L12 17.4l-6.4 3.7 1.6-7.1-5.4-4.9 7.2-.7z" }]],
    Cameraman: [
      ["rect", { x: "1.5", y: "8", width: "14", height: "10", rx: "2" }],
      ["path", { d: "M16.5 11.5l6-3.5v10l-6-3.5z" }],
      ["circle", { cx: "5.5", cy: "4.8", r: "3" }],
      ["circle", { cx: "11.8", cy: "4.8", r: "3" }],
    ],
    Scriptwriter: [
      ["path", { d: "M4 1.5h11l5 5v16H4z" }],
      ["path", { d: "M7 9h10M7 12.5h10M7 16h7", stroke: HOLE, "stroke-width": "1.5", fill: "none" }],
    ],
    Producer: [
      ["path", { d: "M7 2.5h10v12.5H7z" }],
      ["rect", { x: "2", y: "15.5", width: "20", height: "3.5", rx: "1.7" }],
      ["path", { d: "M7 11.5h10", stroke: HOLE, "stroke-width": "1.6" }],
    ],
    promotion: [["path", { d: "M12 2.5l9.5 17h-19z" }]],
    reel: [
      ["circle", { cx: "12", cy: "12", r: "10.5" }],
      ["circle", { cx: "12", cy: "6.2", r: "2.3", fill: HOLE }],
      ["circle", { cx: "12", cy: "17.8", r: "2.3", fill: HOLE }],
      ["circle", { cx: "6.2", cy: "12", r: "2.3", fill: HOLE }],
      ["circle", { cx: "17.8", cy: "12", r: "2.3", fill: HOLE }],
      ["circle", { cx: "12", cy: "12", r: "1.2", fill: HOLE }],
    ],
    pen: [
      ["path", { d: "M12 1.5l6.5 9.5-4 11.5h-5l-4-11.5z" }],
      ["path", { d: "M12 9v7", stroke: HOLE, "stroke-width": "1.4" }],
      ["circle", { cx: "12", cy: "9", r: "1.7", fill: HOLE }],
    ],
    folder: [["path", { d: "M1.5 5.5a1.5 1.5 0 011.5-1.5h6l2.2 2.5H21a1.5 1.5 0 011.5 1.5v11.5A1.5 1.5 0 0121 21H3a1.5 1.5 0 01-1.5-1.5z" }]],
    cards: [
      ["rect", { x: "3", y: "5", width: "11", height: "16", rx: "2", transform: "rotate(-12 8.5 13)" }],
      ["rect", { x: "10", y: "3", width: "11", height: "16", rx: "2", stroke: HOLE, "stroke-width": "1.2" }],
    ],
    arrow: [["path", { d: "M3 10.5h12V6l7 6-7 6v-4.5H3z" }]],
    wages: [
      ["circle", { cx: "12", cy: "7", r: "4.5" }],
      ["path", { d: "M3.5 21.5c.6-5 4-7.5 8.5-7.5s7.9 2.5 8.5 7.5z" }],
    ],
  };
  const SOFT = { Cameraman: "Camera\u00adman", Scriptwriter: "Script\u00adwriter" };
  const OCCUPATIONS = ["Director", "Actor", "Cameraman", "Scriptwriter", "Producer"];

  function icon(name, label, cls) {
    return G.icon(label || name, SHAPES[name] || SHAPES.folder, { decorative: !label, cls: cls || `cc-i-${name.toLowerCase()}` });
  }

  function hidden(text) {
    return el("span", { class: "visually-hidden", text });
  }

  // -- words ------------------------------------------------------------------------------------------------------

  /** A seat's name from the table (never a code such as P4, which is also a card). */
  function who(view, seat) {
    const seats = view.table && view.table.seats ? view.table.seats : [];
    const row = seats[seat];
    const name = row && row.name ? row.name : `Player ${seat + 1}`;
    // Two bots of one level share a name: the seat number tells them apart.
    return seats.some((other) => other.seat !== seat && other.name === name) ? `${name} at seat ${seat + 1}` : name;
  }

  function cardName(ctx, id) {
    const face = ctx.component(id);
    return face ? face.name : "a staff card";
  }

  function amountWords(amount) {
    return amount ? String(amount) : "no money";
  }

  /** A staff card's face read from its component words: "Director 6", "Promotion 1, 3 reels, pen. ..." */
  function faceOf(ctx, id) {
    const face = ctx.component(id);
    if (!face) return null;
    const words = face.name.split(" ");
    const icons = face.text.split(". ")[0];
    const promotion = /promotion (\d+)/i.exec(icons);
    const reels = /(\d+) reels?/i.exec(icons);
    return {
      name: face.name,
      text: face.text,
      icons,
      occupation: OCCUPATIONS.includes(words[0]) ? words[0] : null,
      number: words[1] || "",
      promotion: promotion ? Number(promotion[1]) : 0,
      reels: reels ? Number(reels[1]) : 0,
      pen: /(^|, )pen$/i.test(icons.trim()),
    };
  }

  // -- cards, coins, folders ----------------------------------------------------------------------------------------

  /** The Office icons of a card as small SVGs (the words stand beside them, hidden from the eye only). */
  function officeIcons(face) {
    const row = el("span", { class: "cc-icons", "aria-hidden": "true" });
    if (face.promotion) row.append(el("span", { class: "cc-ico promo" }, icon("promotion"), face.promotion > 1 ? String(face.promotion) : null));
    for (let i = 0; i < face.reels; i++) row.append(el("span", { class: "cc-ico reel" }, icon("reel")));
    if (face.pen) row.append(el("span", { class: "cc-ico pen" }, icon("pen")));
    if (!row.childNodes.length) row.append(el("span", { class: "cc-ico none", text: "–" }));
    return row;
  }

  /**
   * A staff card, framed in the colour of its occupation: the occupation's icon and the card's number (what counts
   * in the Studio) on top, its name, and the Office icons (promotion, reels, pen) at the bottom.
   */
  function card(ctx, id, options) {
    const opts = options || {};
    const face = faceOf(ctx, id);
    const classes = ["cc-card", opts.size || "", opts.class || ""];
    if (!face) return el("span", { class: classes.concat("unknown").join(" "), text: "a staff card" });
    if (face.occupation) classes.push(`occ-${face.occupation.toLowerCase()}`);
    return el(
      "span",
      { class: classes.filter(Boolean).join(" "), title: face.text, dataset: opts.arrive ? { card: id, arrive: opts.arrive } : { card: id } },
      el(
        "span",
        { class: "cc-top", "aria-hidden": "true" },
        face.occupation ? icon(face.occupation, null, "cc-occ") : null,
        el("span", { class: "cc-num", text: face.number })
      ),
      // The number is on top: the name line shows the occupation, with soft hyphens so long words break cleanly.
      el("span", { class: "cc-name", "aria-hidden": "true", text: face.occupation ? (SOFT[face.occupation] || face.occupation) : face.name }),
      officeIcons(face),
      hidden(`${face.name}: ${face.icons.charAt(0).toUpperCase()}${face.icons.slice(1)}`)
    );
  }

  /** Money as coins (a gold 50 and silver 10s), with the amount in words beside them. */
  function coins(amount, text) {
    const stack = el("span", { class: "cc-coins", "aria-hidden": "true" });
    let left = amount;
    let shown = 0;
    while (left >= 50 && shown < 8) {
      stack.append(el("span", { class: "cc-coin gold", text: "50" }));
      left -= 50;
      shown++;
    }
    while (left >= 10 && shown < 8) {
      stack.append(el("span", { class: "cc-coin", text: "10" }));
      left -= 10;
      shown++;
    }
    return el("span", { class: "cc-money" }, amount ? stack : null, el("span", { class: "cc-money-words", text: text || amountWords(amount) }));
  }

  /** A screen folder: the card inside and the money with it. */
  function folderGraphic(ctx, folder, caption, extra) {
    return el(
      "div",
      { class: `cc-folder-shape ${(extra && extra.class) || ""}`.trim(), dataset: { arrive: `folder:${folder.round}:${folder.sender}` } },
      el("span", { class: "cc-folder-tab" }, icon("folder"), caption),
      el("div", { class: "cc-folder-body" }, card(ctx, folder.card, { size: "small" }), coins(folder.amount, `with ${amountWords(folder.amount)}`))
    );
  }

  // -- the seats' boards ----------------------------------------------------------------------------------------------

  function qualityLine(figures) {
    if (figures.quality !== null) return `quality ${figures.quality}`;
    const missing = 3 - figures.studio_cards;
    return `${figures.studio_cards} of 3 cards: ${missing} more for a movie`;
  }

  function officeSummary(figures) {
    if (!figures.staff) return el("span", { class: "cc-office-sum", text: "no staff yet, so no wages" });
    const wages = figures.pen ? "a pen: no wages" : `wages due ${figures.wages_due} (${figures.staff} staff)`;
    const reels = `${figures.reels} ${figures.reels === 1 ? "reel" : "reels"}`;
    return el(
      "span",
      { class: "cc-office-sum" },
      el("span", { class: "cc-sum promo" }, icon("promotion"), `promotion +${figures.promotion}`),
      el("span", { class: "cc-sum reel" }, icon("reel"), reels),
      el("span", { class: `cc-sum wages${figures.pen ? " pen" : ""}` }, icon(figures.pen ? "pen" : "wages"), wages)
    );
  }

  function partnerNote(view, seat) {
    const obs = view.observation;
    const me = view.seat;
    if (me === null || me === undefined || seat === me || obs.target === undefined || obs.target === null) return null;
    if (seat === obs.target && seat === obs.source) return "you swap folders";
    if (seat === obs.target) return "gets your folder";
    if (seat === obs.source) return "sends you a folder";
    return null;
  }

  /** One seat's player board: its Studio (three places) and its Office, with what they add up to. */
  function seatBoard(view, ctx, seat, targets) {
    const obs = view.observation;
    const studio = obs.studios[seat];
    const office = obs.offices[seat];
    const figures = obs.tableaus[seat];
    const placedNow = new Set(obs.last_placements.filter((p) => p.seat === seat).map((p) => p.card));
    const slots = [];
    for (let i = 0; i < 3; i++) {
      const id = studio[i];
      if (!id) {
        slots.push(el("span", { class: "cc-slot", text: "free place" }));
        continue;
      }
      const node = card(ctx, id, { class: placedNow.has(id) ? "new" : "", arrive: `studio${seat}:${id}` });
      if (targets && targets.has(id)) G.playable(node, targets.get(id), ctx);
      slots.push(node);
    }
    const mine = seat === view.seat;
    const partner = partnerNote(view, seat);
    const sendsTo = obs.sends_to ? `sends to ${who(view, obs.sends_to[seat])}` : null;
    const hand = obs.hand_sizes[seat];
    const head = [
      el(
        "h3",
        {},
        el("span", { class: "cc-seat-name", text: who(view, seat) }),
        mine ? el("span", { class: "badge", text: "you" }) : null,
        partner ? el("span", { class: "badge partner", text: partner }) : null
      ),
      el(
        "p",
        { class: "cc-meta" },
        el("span", { class: "cc-meta-item" }, icon("cards"), `${hand} ${hand === 1 ? "card" : "cards"} in hand`),
        sendsTo ? el("span", { class: "cc-meta-item" }, icon("arrow"), sendsTo) : null
      ),
    ];
    const boards = el(
      "div",
      { class: "cc-boards" },
      el(
        "div",
        { class: "cc-area studio" },
        el("span", { class: "cc-area-name", text: "Studio" }),
        el("div", { class: "cc-row studio" }, slots),
        el("span", { class: `cc-quality${figures.quality !== null ? " done" : ""}`, text: qualityLine(figures) })
      ),
      el(
        "div",
        { class: "cc-area office" },
        el("span", { class: "cc-area-name", text: `Office (${office.length})` }),
        el(
          "div",
          { class: "cc-row office" },
          office.length ? office.map((id) => card(ctx, id, { size: "mini", arrive: `office${seat}:${id}` })) : el("span", { class: "muted cc-empty", text: "empty" })
        ),
        officeSummary(figures)
      )
    );
    const attrs = { class: `cc-seat${mine ? " mine" : ""}`, dataset: { seat: String(seat) }, "aria-label": `${who(view, seat)}'s studio` };
    // Your own studio is always open; the others fold to their name and hand on a phone (a tap opens them).
    if (mine || (targets && targets.size)) return el("section", attrs, head, boards);
    return el("section", attrs, G.collapsible(`cc-seat-${seat}`, head, boards));
  }

  // -- the seat's own panel (board) -----------------------------------------------------------------------------------

  function folderAnswer(view, folder) {
    const sent = folder.sender === view.seat;
    if (sent && folder.back) {
      if (folder.back.card) return "secured: the card came back to you to place";
      if (folder.back.money) return `headhunted: ${folder.back.money} came back to you`;
      return "headhunted for free: the folder came back empty";
    }
    if (!sent && folder.response) return folder.response === "headhunt" ? "you headhunted the card" : "you secured the funds and sent the card back";
    return null;
  }

  function folderLine(view, ctx, folder) {
    if (!folder) return null;
    const sent = folder.sender === view.seat;
    const answer = folderAnswer(view, folder);
    return el(
      "div",
      { class: "cc-folder", dataset: { role: sent ? "sent" : "received" } },
      folderGraphic(ctx, folder, sent ? `Your folder to ${who(view, folder.recipient)}:` : `Folder from ${who(view, folder.sender)}:`, { class: sent ? "sent" : "received" }),
      answer ? el("span", { class: "cc-answer", text: `— ${answer}` }) : null
    );
  }

  /**
   * G.playable, and for a target that is not legal now, the engine's reason also written in the dock's note
   * (a phone has no hover: a tap shows it there; the title shows it on hover).
   */
  function target(node, tokens, ctx) {
    G.playable(node, tokens, ctx);
    if (!node.classList.contains("unplayable")) return node;
    const explain = async (event) => {
      // G.playable keeps the engine's answer on the node once it has it: ask only the first time.
      const known = node.dataset.why && node.dataset.why !== "…" ? node.dataset.why : null;
      const reason = known || (await ctx.why(tokens.join(" ")));
      const note = local.dock && local.dock.querySelector(".cc-why");
      if (note) {
        note.hidden = false;
        note.textContent = `${cardOrThing(ctx, tokens)}: ${reason}`;
        // After a tap the note is brought into view (a scrolled dock may hold it out of sight); never under a
        // mouse, where scrolling would move the cards from under the pointer.
        if (event && event.type === "touchstart") note.scrollIntoView({ block: "nearest" });
      }
    };
    node.addEventListener("mouseenter", explain);
    node.addEventListener("focus", explain);
    node.addEventListener("touchstart", explain, { passive: true });
    return node;
  }

  function cardOrThing(ctx, tokens) {
    const face = tokens.length > 1 ? ctx.component(tokens[tokens.length - 1].split(":").pop()) : null;
    if (tokens[0] === "offer" && tokens[1]) return `Not now: ${cardName(ctx, tokens[1])}`;
    if (tokens[0] === "respond") return tokens[1] === "headhunt" ? "Headhunt not possible" : "Not possible";
    return face ? `Not now: ${face.name}` : "Not possible";
  }

  /**
   * A target chosen from the keyboard redraws the table (synchronously, in ctx.setPath): move the focus on to what comes
   * next (``selector`` in the dock) instead of losing it with the old node.
   */
  function keepFocus(node, selector) {
    node.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const next = local.dock && local.dock.querySelector(selector);
      if (next && next.isConnected) next.focus();
    });
  }

  /** The hand: in step 1 each card starts an offer; in the other steps hovering one says why not (the engine's words). */
  function handCards(view, ctx, playable) {
    const obs = view.observation;
    const hand = obs.hand || [];
    if (!hand.length) return el("span", { class: "muted", text: "empty" });
    const step = myStep(view);
    return hand.map((id) => {
      const node = card(ctx, id, { arrive: playable ? `hand:${id}` : null });
      if (playable && step === "offer") {
        G.playable(node, ["offer", id], ctx);
        keepFocus(node, ".cc-stepper .cc-offer-go");
      }
      else if (playable && step) target(node, ["offer", id, "0"], ctx);
      return node;
    });
  }

  function privatePanel(view, ctx) {
    const obs = view.observation;
    const forecast = obs.forecast;
    const over = obs.step === "over";
    return el(
      "section",
      { class: "cc-private", "aria-label": "your wallet and folders" },
      el("h3", {}, over ? "Your studio" : "Your desk", el("span", { class: "cc-wallet" }, coins(obs.wallet, over ? `wallet at the end ${obs.wallet}` : `wallet ${obs.wallet}`))),
      // On a phone the hand lives in the decision bar, which folds away while others choose: the board shows it then.
      over ? null : el("div", { class: "cc-board-hand" }, el("span", { class: "cc-area-name", text: "Your hand" }), el("div", { class: "cc-row hand" }, handCards(view, ctx, false))),
      forecast ? el("p", { class: `cc-forecast status-${forecast.status}`, text: forecast.words }) : null,
      obs.step !== "over" && obs.target !== null ? el("p", { class: "cc-partners", text: `This round you send your folder to ${who(view, obs.target)} and receive one from ${who(view, obs.source)}.` }) : null,
      el("div", { class: "cc-folders" }, folderLine(view, ctx, obs.folder_sent), folderLine(view, ctx, obs.folder_received)),
      obs.pending && obs.pending.length && !view.legal_actions.length
        ? el("div", { class: "cc-pending" }, el("strong", { text: "To place in your Studio:" }), obs.pending.map((id) => card(ctx, id, { size: "small" })))
        : null,
      obs.my_commitment_words ? el("p", { class: "cc-commitment" }, el("strong", { text: "Your choice, secret until everyone has chosen:" }), obs.my_commitment_words) : null,
      obs.folder_history && obs.folder_history.length
        ? el(
            "details",
            { class: "cc-history" },
            el("summary", { text: `Your folders in earlier rounds (${obs.folder_history.length})` }),
            el("ul", {}, obs.folder_history.map((f) => el("li", {}, el("span", { class: "cc-round", text: `Round ${f.round}` }), folderLine(view, ctx, f))))
          )
        : null
    );
  }

  function lastPlacements(view, ctx) {
    const obs = view.observation;
    if (!obs.last_placements.length) return null;
    return el(
      "div",
      { class: "cc-last" },
      el("strong", { text: obs.step === "over" ? "Last placements:" : "Placed last round:" }),
      el(
        "ul",
        {},
        obs.last_placements.map((p) =>
          el("li", { text: `${who(view, p.seat)} placed ${cardName(ctx, p.card)}` + (p.moved_out ? `, moving ${cardName(ctx, p.moved_out)} to the Office.` : ".") })
        )
      )
    );
  }

  function finalPanel(view) {
    const final = view.observation.final;
    if (!final) return null;
    return el(
      "section",
      { class: "cc-final" },
      el("h3", { text: "How each movie scored" }),
      el(
        "ul",
        {},
        final.words.map((text, seat) => el("li", { class: final.winners.includes(seat) ? "winner" : "" }, el("strong", { text: `${who(view, seat)}: ` }), text))
      )
    );
  }

  // -- playing from the table -----------------------------------------------------------------------------------------

  // Local choices that are not yet a path of the menu: the amount on the offer stepper, and a card to place that
  // waits for the Studio card it pushes out. Both are forgotten when the view moves on.
  const local = { version: null, amounts: {}, picking: null, pickingAt: null, dock: null };

  function resetLocal(view) {
    if (local.version === view.version) return;
    local.version = view.version;
    local.amounts = {};
    local.picking = null;
    local.pickingAt = null;
  }

  function myStep(view) {
    if (!view.legal_actions.length) return null;
    return view.legal_actions[0].split(" ")[0];
  }

  /** The menu path of the placement being built (the verb first, whatever the menu has taken for the person). */
  function placePath(ctx) {
    const path = ctx.path;
    return path[0] === "place" ? path : ["place"];
  }

  /** The next tokens of a legal placement after ``path``. */
  function nextTokens(view, path) {
    const node = G.treeNode(G.actionTree(view.legal_actions), path);
    return node ? [...node.children.keys()] : [];
  }

  /** Studio cards (and cards placed first) that the picked card may push out: card -> the menu path that does it. */
  function pushTargets(view, ctx) {
    const targets = new Map();
    if (!local.picking || local.pickingAt !== placePath(ctx).join(" ")) return targets;
    const path = placePath(ctx);
    for (const token of nextTokens(view, path)) {
      const [placed, out] = token.split(":");
      if (placed === local.picking && out) targets.set(out, [...path, token]);
    }
    return targets;
  }

  function redrawDock(view, ctx) {
    if (!local.dock) return;
    G.clear(local.dock);
    dockHand(local.dock, view, ctx);
  }

  function redrawAll(view, ctx) {
    if (local.board) {
      G.clear(local.board);
      render(local.board, view, ctx);
    }
    redrawDock(view, ctx);
  }

  /** Step 1: the amount stepper for the card chosen (minus and plus by 10 within the legal amounts). */
  function offerStepper(view, ctx) {
    const path = ctx.path;
    if (path[0] !== "offer" || path.length !== 2) return null;
    const id = path[1];
    const amounts = ctx
      .legalWith(path)
      .map((action) => Number(action.split(" ")[2]))
      .sort((a, b) => a - b);
    if (!amounts.length) return null;
    let amount = local.amounts[id];
    if (amount === undefined || !amounts.includes(amount)) amount = amounts[0];
    local.amounts[id] = amount;
    const index = amounts.indexOf(amount);
    const move = (by) => () => {
      local.amounts[id] = amounts[Math.min(amounts.length - 1, Math.max(0, index + by))];
      redrawDock(view, ctx);
      const again = local.dock && local.dock.querySelector(by < 0 ? ".cc-step-minus" : ".cc-step-plus");
      if (again && !again.disabled) again.focus();
    };
    const name = cardName(ctx, id);
    const offer = el("button", { type: "button", class: "cc-offer-go" }, `Offer ${name} for ${amountWords(amount)}`);
    G.playable(offer, ["offer", id, String(amount)], ctx);
    return el(
      "div",
      { class: "cc-stepper", role: "group", "aria-label": `money to go with ${name}` },
      el("span", { class: "cc-step-label", text: "Money in the folder:" }),
      el("button", { type: "button", class: "cc-step-minus", disabled: index === 0, "aria-label": "10 less", onclick: move(-1) }, "−10"),
      el("span", { class: "cc-step-amount", dataset: { amount: String(amount) } }, coins(amount), el("span", { class: "muted cc-keep", text: `you keep ${view.observation.wallet - amount}` })),
      el("button", { type: "button", class: "cc-step-plus", disabled: index === amounts.length - 1, "aria-label": "10 more", onclick: move(1) }, "+10"),
      offer
    );
  }

  /** Step 2: the folder received, with the two answers beside it (what each costs and what comes back). */
  function respondPanel(view, ctx) {
    const obs = view.observation;
    const folder = obs.folder_received;
    if (!folder) return null;
    const name = cardName(ctx, folder.card);
    const sender = who(view, folder.sender);
    const secure = el(
      "button",
      { type: "button", class: "cc-answer-btn secure" },
      el("strong", { text: "Secure the funds" }),
      el("span", { text: folder.amount ? `you keep the ${folder.amount}; ${name} goes back to ${sender}` : `${name} goes back to ${sender}; no money to keep` })
    );
    const headhunt = el(
      "button",
      { type: "button", class: "cc-answer-btn headhunt" },
      el("strong", { text: folder.amount ? "Headhunt" : "Headhunt for free" }),
      el("span", { text: folder.amount ? `you pay ${folder.amount} and keep ${name}; ${sender} gets back ${2 * folder.amount}` : `you keep ${name}; the folder goes back empty` })
    );
    G.playable(secure, ["respond", "secure"], ctx);
    target(headhunt, ["respond", "headhunt"], ctx);
    return el(
      "div",
      { class: "cc-respond" },
      folderGraphic(ctx, folder, `Folder from ${sender}:`, { class: "received" }),
      el("div", { class: "cc-answers" }, secure, headhunt)
    );
  }

  /** Step 3: the cards to place (in the order clicked), the Studio card a card pushes out, or "place as is". */
  function placePanel(view, ctx) {
    const obs = view.observation;
    const path = placePath(ctx);
    const chosen = path.slice(1).map((token) => token.split(":")[0]);
    const next = nextTokens(view, path);
    const parts = [];
    const pending = obs.pending || [];
    if (pending.length) {
      const cards = pending.map((id) => {
        const node = card(ctx, id, { arrive: `pending:${id}` });
        const at = chosen.indexOf(id);
        if (at >= 0) {
          node.classList.add("chosen");
          node.append(el("span", { class: "cc-order", text: at === 0 ? "placed first" : "placed second" }));
          return node;
        }
        if (next.includes(id)) {
          G.playable(node, [...path, id], ctx);
          keepFocus(node, ".cc-row.pending .playable");
        } else if (next.some((token) => token.startsWith(`${id}:`))) {
          // A full Studio without a card of its occupation: the card waits for the Studio card it pushes out.
          node.dataset.play = `${path.join(" ")} ${id}:`;
          node.classList.add("playable");
          if (local.picking === id && local.pickingAt === path.join(" ")) node.classList.add("selected");
          node.tabIndex = 0;
          node.setAttribute("role", "button");
          node.setAttribute("aria-label", `Place ${cardName(ctx, id)}, then choose the Studio card it moves to the Office`);
          node.title = `Place ${cardName(ctx, id)}: then click the Studio card it moves to the Office`;
          const pick = () => {
            local.picking = id;
            local.pickingAt = path.join(" ");
            redrawAll(view, ctx);
            const first = local.dock && local.dock.querySelector(".cc-push .playable");
            if (first) first.focus();
          };
          node.addEventListener("click", pick);
          node.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              pick();
            }
          });
        } else {
          G.playable(node, [...path, id], ctx);
        }
        return node;
      });
      parts.push(el("div", { class: "cc-dock-row" }, el("span", { class: "cc-area-name", text: "To place in your Studio" }), el("div", { class: "cc-row pending" }, cards)));
    }
    // Your Studio as it stands, in the dock too (on a phone the board is behind the bar): when a card waits for the
    // card it pushes out, the candidates are the targets (a card placed first may be one of them).
    const targets = pushTargets(view, ctx);
    if (pending.length) {
      const studio = obs.studios[view.seat];
      const ids = studio.concat([...targets.keys()].filter((id) => !studio.includes(id)));
      const row = ids.map((id) => {
        const node = card(ctx, id, {});
        if (targets.has(id)) G.playable(node, targets.get(id), ctx);
        else if (targets.size) target(node, [...path, `${local.picking}:${id}`], ctx);
        return node;
      });
      for (let i = ids.length; i < 3; i++) row.push(el("span", { class: "cc-slot", text: "free place" }));
      parts.push(
        el(
          "div",
          { class: `cc-dock-row cc-push${targets.size ? " picking" : ""}` },
          el("span", { class: "cc-area-name", text: targets.size ? `Which card does ${cardName(ctx, local.picking)} move to the Office?` : "Your Studio now" }),
          el("div", { class: "cc-row studio" }, row)
        )
      );
    }
    if (view.legal_actions.includes("place")) {
      const asIs = el("button", { type: "button", class: "cc-place-as-is" }, pending.length ? "Place as is" : "Nothing to place: keep the Studio as it is");
      G.playable(asIs, ["place"], ctx);
      parts.push(asIs);
    }
    return parts;
  }

  /** The docked hand (just above the decision; the bar at the bottom on a phone) and the step's things to click. */
  function dockHand(root, view, ctx) {
    const obs = view.observation;
    if (obs.step === "over" || obs.hand === undefined) return;
    resetLocal(view);
    local.dock = root;
    const step = myStep(view);
    const parts = [];
    if (step === "respond") parts.push(respondPanel(view, ctx));
    if (step === "place") parts.push(...placePanel(view, ctx));
    // The money for the card picked comes first, its Offer button in view on a phone; the hand below changes the card.
    const stepper = step === "offer" ? offerStepper(view, ctx) : null;
    if (stepper) parts.push(stepper);
    parts.push(
      el(
        "div",
        { class: `cc-dock-row cc-hand-row${step === "offer" ? " active" : ""}` },
        el("span", { class: "cc-area-name" }, "Your hand", el("span", { class: "cc-wallet" }, coins(obs.wallet, `wallet ${obs.wallet}`))),
        el("div", { class: "cc-row hand", tabindex: "0", role: "group", "aria-label": "your hand" }, handCards(view, ctx, true))
      )
    );
    // Why a target is not legal now (hover, focus or tap on it): the engine's words. With a mouse they come below
    // every target that shows them: above, a reason one line longer than the last pushed the hand down, the resting
    // pointer met another card whose shorter reason pulled it back up, and so on every frame (the hand, the note and
    // the "place as is" button shook under a still mouse). Without hover (a phone) they stay at the top, in view of
    // the tap that asked for them.
    if (step) {
      const note = el("p", { class: "cc-why", role: "status", hidden: true });
      if (window.matchMedia("(hover: hover)").matches) parts.push(note);
      else parts.unshift(note);
    }
    G.append(root, [el("div", { class: "cc-dock" }, parts.filter(Boolean))]);
    G.markArrivals(root, "cinecitta-dock");
  }

  function render(root, view, ctx) {
    resetLocal(view);
    local.board = root;
    const obs = view.observation;
    const parts = [];
    if (view.seat !== null && view.seat !== undefined && obs.hand !== undefined) parts.push(privatePanel(view, ctx));
    parts.push(finalPanel(view));
    const targets = myStep(view) === "place" ? pushTargets(view, ctx) : null;
    const seats = [];
    // Your own board first, then the others in seat order.
    const order = [];
    for (let seat = 0; seat < obs.num_players; seat++) order.push(seat);
    if (view.seat !== null && view.seat !== undefined) order.sort((a, b) => (a === view.seat ? -1 : b === view.seat ? 1 : a - b));
    for (const seat of order) seats.push(seatBoard(view, ctx, seat, seat === view.seat ? targets : null));
    parts.push(el("div", { class: "cc-seats" }, seats));
    parts.push(lastPlacements(view, ctx));
    G.append(root, [el("div", { class: "cc-board" }, parts.filter(Boolean))]);
    G.markArrivals(root, "cinecitta");
  }

  /** Whether choosing ``token`` after ``path`` completes one of the seat's legal actions. */
  function completes(view, path, token) {
    return view.legal_actions.includes([...path, token].join(" "));
  }

  G.registerRenderer("cinecitta", {
    status(view) {
      const obs = view.observation;
      if (obs.step === "over") return `Game over after ${obs.rounds} rounds.`;
      return `Round ${obs.round} of ${obs.rounds} · ${STEP_NAMES[obs.step] || obs.step} · folders go ${obs.direction} · money at the table: ${obs.money_total}`;
    },

    render,

    hand(root, view, ctx) {
      dockHand(root, view, ctx);
    },

    label(path, token, view, ctx) {
      const obs = view.observation;
      if (path.length === 0 && token === "place" && !(obs.pending || []).length) return "Nothing to place: keep the Studio as it is";
      if (path.length === 0) return VERBS[token] || null;
      if (path[0] === "offer" && path.length === 1) return card(ctx, token, { size: "small" });
      // The answer's big buttons in the dock say what each does; the choice list names them (keys 1 and 2).
      if (path[0] === "respond" && path.length === 1) return token === "secure" ? "Secure the funds" : "Headhunt the card";
      if (path[0] === "offer" && path.length === 2) {
        const amount = Number(token);
        return el("span", { class: "cc-amount" }, el("strong", { text: amountWords(amount) }), el("span", { class: "muted", text: ` · you keep ${obs.wallet - amount}` }));
      }
      if (path[0] === "place" && !completes(view, path, token)) {
        const [placed, out] = token.split(":");
        return el("span", { class: "cc-placement" }, card(ctx, placed, { size: "small" }), out ? ` first, moving ${cardName(ctx, out)} to the Office` : " first");
      }
      return null; // a complete choice is labelled with its words (what it costs, what it leaves)
    },

    /**
     * Steps whose every choice the dock shows as a thing to click: the folder's card (the hand), its money (the
     * stepper and its Offer button) and the answer to a folder (its two buttons). The choice list only names them.
     */
    choicesInDock(path, view) {
      const step = myStep(view);
      if (path[0] === "offer") return step === "offer" && (path.length === 1 || path.length === 2);
      return path[0] === "respond" && step === "respond";
    },

    prompt(path, view, ctx) {
      const obs = view.observation;
      if (path[0] === "offer" && path.length === 1) {
        return `Choose the card for your folder to ${who(view, obs.target)}: click it in your hand. If they secure the funds, it comes back to your Studio; if they headhunt, they keep it.`;
      }
      if (path[0] === "offer" && path.length === 2) {
        return `How much money goes with ${cardName(ctx, path[1])}? If ${who(view, obs.target)} secures the funds, they keep it; if they headhunt, you get it back doubled.`;
      }
      if (path[0] === "respond" && obs.folder_received) {
        const f = obs.folder_received;
        const offered = `${who(view, f.sender)} sent you ${cardName(ctx, f.card)} with ${f.amount || "no money"}.`;
        if (!view.legal_actions.includes("respond headhunt")) return `${offered} Headhunting it would take ${f.amount} of your own and your wallet holds ${obs.wallet}, so you can only secure the funds:`;
        return `${offered} Secure the funds, or headhunt the card:`;
      }
      if (path.length === 0 && view.legal_actions.includes("place") && !(obs.pending || []).length) {
        return "You have no card to place this round: your Studio stays as it is.";
      }
      if (path[0] === "place" && path.length === 1) return "Place your cards: click what goes in first (and, in a full Studio, the card that moves to the Office), or choose here.";
      if (path[0] === "place" && path.length === 2) return "Now the second card:";
      return null;
    },
  });
})();
