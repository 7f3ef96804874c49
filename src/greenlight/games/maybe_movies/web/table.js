// Maybe Movies table renderer. Everything it draws comes from the observation in words: each card's name, face
// and full text ride along in observation.cards (built by the game's view layer), previews and the success check
// come as sentences (observation.preview.words, observation.check_words), and seats are called by their names.
//
// The table as it lies: the market row on top, the pitch row in the centre (with the Finish button, the slots of a
// CHANGE edit and the blockbuster choices), the votes, the Movies Made piles, then every seat with its points and
// its won vote cards as piles by icon. Your vote cards and personal movie cards are docked above the decision.
// Every move is played by clicking (tapping) the thing it names: a market card to add it, a vote card to vote it, a
// row card to remove, copy or pick it, a gap in the row to place a card, an icon or amount to choose it; a warned
// move (one that certainly loses) asks in the decision first, and a second click on the same thing confirms it.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  /** The page's context (components by code, for each card's full text as a tooltip), set on every render. */
  let context = null;

  // -- icons: 24x24 inline SVG, each read by its name ----------------------------------------------------------

  const LINE = { fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" };
  const SHAPES = {
    money: [
      ["circle", { cx: 12, cy: 12, r: 10 }],
      ["circle", { cx: 12, cy: 12, r: 7, fill: "none", stroke: "#fff", "stroke-width": "1.5", opacity: "0.8" }],
      ["path", { d: "M14.5 9.2c-.6-.8-1.5-1.2-2.5-1.2-1.5 0-2.5.8-2.5 1.9 0 2.6 5 1.4 5 4.1 0 1.1-1 2-2.5 2-1.1 0-2-.4-2.6-1.2M12 6.5v11", ...LINE, stroke: "#fff", "stroke-width": "1.6" }],
    ],
    actors: [
      ["path", { d: "M3 4h9v6.5a4.5 4.5 0 0 1-9 0z" }],
      ["path", { d: "M12.5 8.5h8.5v6a4.25 4.25 0 0 1-8.5 0z", opacity: "0.75" }],
      ["path", { d: "M5 8h1.6M8.4 8H10M5.6 11.6c.9.9 2.9.9 3.8 0", ...LINE, stroke: "#fff", "stroke-width": "1.4" }],
      ["path", { d: "M14.5 12h1.5M17.5 12H19M14.7 16.2c.9-.9 3.1-.9 4 0", ...LINE, stroke: "#fff", "stroke-width": "1.4" }],
    ],
    script: [
      ["path", { d: "M5 2h10l4 4v16H5z" }],
      ["path", { d: "M15 2v4h4", fill: "none", stroke: "#fff", "stroke-width": "1.2" }],
      ["path", { d: "M8 10h8M8 13.5h8M8 17h5", ...LINE, stroke: "#fff", "stroke-width": "1.5" }],
    ],
    setting: [
      ["path", { d: "M2 20 9 8l4 6 3-4 6 10z" }],
      ["circle", { cx: 17.5, cy: 5, r: 2.5 }],
    ],
    camera: [
      ["circle", { cx: 6.5, cy: 6, r: 3.5 }],
      ["circle", { cx: 13.5, cy: 6, r: 3.5 }],
      ["rect", { x: 2, y: 10, width: 15, height: 10, rx: 2 }],
      ["path", { d: "M17 13.5 22 11v8l-5-2.5z" }],
    ],
    microphone: [
      ["rect", { x: 8.5, y: 2, width: 7, height: 12, rx: 3.5 }],
      ["path", { d: "M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V22M8.5 22h7", ...LINE }],
    ],
    yes: [["path", { d: "M4 12.5 9.5 18 20 6", ...LINE, "stroke-width": "3" }]],
    no: [["path", { d: "M6 6l12 12M18 6 6 18", ...LINE, "stroke-width": "3" }]],
    change: [
      ["path", { d: "M4 10a8 8 0 0 1 14-4.5M20 14a8 8 0 0 1-14 4.5", ...LINE, "stroke-width": "2.2" }],
      ["path", { d: "M19 2v4.5h-4.5M5 22v-4.5h4.5", ...LINE, "stroke-width": "2.2" }],
    ],
    star: [["path", { d: "M12 2.5l2.9 6 6.6.8-4.9 4.5 1.3 6.6L12 17.2l-5.9 3.2 1.3-6.6L2.5 9.3l6.6-.8z" }]],
    cards: [
      ["rect", { x: 3, y: 5, width: 12, height: 16, rx: 2, opacity: "0.55" }],
      ["rect", { x: 8, y: 3, width: 12, height: 16, rx: 2 }],
    ],
    reel: [
      ["circle", { cx: 12, cy: 12, r: 10 }],
      ["circle", { cx: 12, cy: 7, r: 2, fill: "#fff" }],
      ["circle", { cx: 12, cy: 17, r: 2, fill: "#fff" }],
      ["circle", { cx: 7, cy: 12, r: 2, fill: "#fff" }],
      ["circle", { cx: 17, cy: 12, r: 2, fill: "#fff" }],
    ],
  };

  /** An icon by name, read as ``label`` (or hidden from screen readers when words stand beside it). */
  function icon(name, label, decorative) {
    return G.icon(label || name, SHAPES[name] || SHAPES.star, { decorative: Boolean(decorative), cls: `mm-i mm-i-${name}` });
  }

  /** An icon token: the icon in its colour, with a count beside it (a text pair readers and screen readers both get). */
  function iconToken(name, count, extra) {
    const words = count === undefined ? name : `${count} ${name}`;
    return el("span", { class: `mm-token icon-${name}${extra ? ` ${extra}` : ""}`, title: words }, icon(name, name, true), el("span", { class: "mm-token-n", text: count === undefined ? name : String(count) }), count === undefined ? null : el("span", { class: "visually-hidden", text: ` ${name}` }));
  }

  // -- words ---------------------------------------------------------------------------------------------------

  function fullText(id) {
    const component = context && context.component ? context.component(id) : null;
    return component ? component.text : null;
  }

  /** A seat's name from the table info ("Player 2" without one). */
  function seatName(view, seat) {
    const rows = view.table && view.table.seats ? view.table.seats : [];
    const row = rows[seat];
    if (!row || !row.name) return `Player ${seat + 1}`;
    // Two seats of the same name (three "Bot (medium)", say) are told apart by their seat.
    return rows.filter((other) => other.name === row.name).length > 1 ? `${row.name}, seat ${seat + 1}` : row.name;
  }

  function who(view, seat) {
    return seat === view.seat ? `${seatName(view, seat)} (you)` : seatName(view, seat);
  }

  /** The seat's legal actions (none on a replay). */
  function legalOf(view) {
    return view.legal_actions || [];
  }

  function details(view, id) {
    return (view.observation.cards || {})[id] || null;
  }

  function joinWords(items) {
    const parts = items.filter(Boolean);
    if (parts.length <= 1) return parts.join("");
    return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  }

  function plural(n, one, many) {
    return `${n} ${n === 1 ? one : many || `${one}s`}`;
  }

  /** "1 actor", "2 actors", "1 money": a count of one icon (its name is a plural only for actors). */
  function iconCount(n, name) {
    return name === "actors" ? plural(n, "actor") : `${n} ${name}`;
  }

  function names(view, ids) {
    return joinWords((ids || []).map((id) => (details(view, id) || { name: "a card" }).name)) || "nothing";
  }

  function sentences(lines, cls) {
    return (lines || []).filter(Boolean).map((line) => el("p", { class: cls || "mm-line", text: line }));
  }

  function countsWords(counts) {
    return joinWords(Object.entries(counts || {}).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`)) || "none";
  }

  /** The text a reader sees in ``node`` (not the icons' names, not what is hidden from screen readers). */
  function seenText(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI === "http://www.w3.org/2000/svg" || node.getAttribute("aria-hidden") === "true") return "";
    return [...node.childNodes].map(seenText).join("");
  }

  /**
   * Greenlight.playable, with an accessible name that starts with what the target shows (the card's face, the
   * button's words) and goes on with the action's words, so the name a reader hears contains the text they see.
   */
  function play(node, tokens, pctx) {
    G.playable(node, tokens, pctx);
    const words = node.getAttribute("aria-label");
    const shown = seenText(node).replace(/\s+/g, " ").trim();
    if (words && shown && !words.includes(shown)) node.setAttribute("aria-label", `${shown}: ${words}`);
    if (node.classList.contains("unplayable")) {
      // A tap (or click) on a target that cannot be played says why for a few seconds, on a phone too.
      node.addEventListener("click", async () => {
        const reason = node.dataset.why && node.dataset.why !== "…" ? node.dataset.why : await pctx.why(tokens.join(" "));
        node.dataset.why = reason;
        node.title = reason;
        showWhy(node, reason);
      });
    }
    return node;
  }

  /** Children with a space between them: the text reads "Jungle profit 2", not "Jungleprofit2" (flex and grid skip it). */
  function spaced(...children) {
    const items = children.flat().filter((child) => child !== null && child !== undefined && child !== false);
    return items.flatMap((child, i) => (i ? [" ", child] : [child]));
  }

  let whyTimer = null;
  /** A short note by the top of the screen: why the tapped target cannot be played now. */
  function showWhy(node, reason) {
    const board = node.closest(".mm-board, .mm-dock");
    if (!board) return;
    let note = document.getElementById("mm-why");
    if (!note || !board.contains(note)) {
      if (note) note.remove();
      note = el("p", { id: "mm-why", class: "mm-why", role: "status" });
      board.append(note);
    }
    note.textContent = reason;
    window.clearTimeout(whyTimer);
    whyTimer = window.setTimeout(() => note.remove(), 4000);
  }

  // -- cards ---------------------------------------------------------------------------------------------------

  /** A card drawn from its words: a vote shows YES/NO, value and icon; a movie its name, cost icons and profit. */
  function card(view, id, { small = false, arrive = null } = {}) {
    const info = details(view, id);
    const cls = `mm-card${small ? " small" : ""}`;
    const dataset = { card: id };
    if (arrive) dataset.arrive = `${arrive}:${id}`;
    if (!info) return el("span", { class: `${cls} unknown`, text: "a card" });
    if (info.type === "YES" || info.type === "NO") {
      const yes = info.type === "YES";
      return el(
        "span",
        { class: `${cls} vote vote-${info.type.toLowerCase()}`, title: fullText(id), dataset },
        spaced(
          el("span", { class: "mm-vote-head" }, icon(yes ? "yes" : "no", info.type, true), el("span", { class: "mm-vote", text: info.type })),
          el("span", { class: `mm-vote-icon icon-${info.icon}` }, icon(info.icon, info.icon, true), el("span", { class: "mm-vote-icon-name", text: info.icon })),
          el("span", { class: "mm-value", text: String(info.value) })
        )
      );
    }
    if (info.type === "CHANGE") {
      return el(
        "span",
        { class: `${cls} vote change`, title: fullText(id), dataset },
        spaced(
          el("span", { class: "mm-vote-head" }, el("span", { class: "mm-vote", text: "CHANGE" })),
          el("span", { class: "mm-value", text: String(info.number) }),
          el("span", { class: "mm-vote-icon" }, icon("change", "change the pitch", true))
        )
      );
    }
    if (info.cost_words !== undefined) {
      return el(
        "span",
        { class: `${cls} movie blockbuster`, title: fullText(id), dataset },
        spaced(
          el("span", { class: "mm-title" }, icon("star", "blockbuster"), el("span", { text: info.name })),
          el("span", { class: "mm-text cost", text: info.cost_short }),
          el("span", { class: "mm-text profit", text: info.profit_short })
        )
      );
    }
    return el(
      "span",
      { class: `${cls} movie`, title: fullText(id), dataset },
      spaced(
        el("span", { class: "mm-title", text: info.name }),
        el("span", { class: "mm-cost", title: `costs ${joinWords(info.cost || [])}` }, (info.cost || []).map((name) => el("span", { class: `mm-cost-icon icon-${name}` }, icon(name, name)))),
        el("span", { class: "mm-profit" }, spaced(el("span", { class: "mm-profit-w", text: "profit" }), el("span", { class: "mm-profit-n", text: String(info.profit) })))
      )
    );
  }

  function noneYet(text) {
    return el("span", { class: "muted mm-none", text });
  }

  // -- the payout and the last turn in sentences ---------------------------------------------------------------

  function settlementLines(view, settlement) {
    if (!settlement) return [];
    const won = settlement.won.map((ids, seat) => (ids.length ? `${who(view, seat)} wins ${names(view, ids)}` : null)).filter(Boolean);
    const pooled = settlement.to_pool.length ? `${plural(settlement.to_pool.length, "card")} ${settlement.to_pool.length === 1 ? "goes" : "go"} to the pool.` : "";
    if (settlement.result === "SUCCESS") {
      return [`Profit ${settlement.profit}: ${won.length ? won.join("; ") : "nobody wins a card"}.`, pooled];
    }
    if (settlement.all_no) return ["Every vote was NO: nobody gets anything.", pooled];
    return [`The pitch failed: ${won.length ? won.join("; ") : "no NO-voter wins anything"}.`, pooled];
  }

  function revealLines(view, votes, key) {
    const shown = votes.map((id, seat) => (id ? el("span", { class: "mm-who" }, el("span", { class: "mm-who-name", text: who(view, seat) }), card(view, id, { small: true, arrive: `${key}${seat}` })) : null)).filter(Boolean);
    return shown.length ? shown : [noneYet("no votes")];
  }

  // -- areas of the table --------------------------------------------------------------------------------------

  function marketArea(view, pctx) {
    const obs = view.observation;
    const pitching = obs.phase === "pitch" && view.seat === obs.active;
    const cards = obs.market.map((id) => {
      const node = card(view, id, { arrive: "market" });
      if (pitching) play(node, ["add", id], pctx);
      return node;
    });
    return el(
      "section",
      { class: "mm-area mm-market", "aria-label": "market" },
      el("h3", {}, "Market", el("span", { class: "mm-sub", text: ` · ${plural(obs.draw_pile_size, "movie card")} in the draw pile` })),
      el("div", { class: "mm-row mm-market-row" }, el("span", { class: "mm-deck", title: `${plural(obs.draw_pile_size, "movie card")} in the draw pile` }, icon("cards", "draw pile"), el("span", { text: String(obs.draw_pile_size) })), cards.length ? cards : noneYet("the market is empty")),
      pitching && !obs.options.blockbuster_budgets && obs.row.length ? el("p", { class: "muted mm-hint", text: "Add cards from left to right: only cards to the right of the last one added." }) : null
    );
  }

  /** The row, with gaps to click when a CHANGE edit places its card (Blockbuster Budgets). */
  function pitchRow(view, pctx, verbs) {
    const obs = view.observation;
    const row = obs.row || [];
    const rowVerb = ["remove", "copy", "pick"].find((verb) => verbs.has(verb)) || (obs.phase === "change_edit" && legalOf(view).length ? "remove" : null);
    const slots = verbs.has("slot");
    const items = [];
    const added = obs.edit && obs.edit.added ? details(view, obs.edit.added) : null;
    const gap = (index) => {
      const node = el("span", { class: "mm-slot", dataset: { slot: String(index) } }, el("span", { class: "mm-slot-mark", "aria-hidden": "true", text: "+" }), el("span", { class: "visually-hidden", text: `place ${added ? added.name : "the card"} here` }));
      play(node, ["slot", String(index)], pctx);
      return node;
    };
    row.forEach((id, index) => {
      if (slots) items.push(gap(index));
      const node = card(view, id, { arrive: "row" });
      const doubled = obs.pitch && obs.pitch.cards ? obs.pitch.cards.find((entry) => entry.card === id) : null;
      if (doubled && (doubled.cost_doubles || doubled.profit_doubles)) {
        node.append(" ", el("span", { class: "mm-doubles" }, [doubled.cost_doubles ? "costs double" : null, doubled.profit_doubles ? "pays double" : null].filter(Boolean).join(", ")));
      }
      if (rowVerb) play(node, [rowVerb, id], pctx);
      items.push(node);
    });
    if (slots) items.push(gap(row.length));
    return el("div", { class: "mm-row mm-pitch-row" }, items.length ? items : noneYet(obs.phase === "pitch" && view.seat === obs.active ? (obs.options.blockbuster_budgets ? "Click market cards to add them to your pitch, in the order they are read." : "Click market cards to add them to your pitch, from left to right.") : "No card pitched yet."));
  }

  function needTokens(view) {
    const obs = view.observation;
    const preview = obs.preview;
    const budget = preview ? preview.need : obs.pitch ? obs.pitch.budget : null;
    if (!budget) return null;
    const profit = preview ? preview.profit : obs.pitch.profit;
    const tokens = Object.entries(budget).filter(([, n]) => n).map(([name, n]) => iconToken(name, n));
    return el(
      "div",
      { class: "mm-need" },
      el("span", { class: "mm-need-label", text: "Needs" }),
      tokens.length ? tokens : el("span", { class: "muted", text: "no icons" }),
      el("span", { class: "mm-need-label", text: "Profit" }),
      el("span", { class: "mm-token profit-token", title: `profit ${profit}` }, icon("reel", "profit", true), el("span", { class: "mm-token-n", text: String(profit) }))
    );
  }

  /** Board buttons for the moves that have no card: Finish, the icon of a copycat, a profit amount. */
  function boardButtons(view, pctx, verbs) {
    const obs = view.observation;
    if (!legalOf(view).length) return null;
    const buttons = [];
    if (obs.phase === "pitch" || obs.phase === "change_edit") {
      const warning = view.action_warnings ? view.action_warnings.finish : null;
      const text = obs.phase === "pitch" ? "Finish the pitch" : "Finish the edit";
      const button = el("button", { type: "button", class: `mm-finish${warning ? " warned" : ""}` }, icon("yes", "finish", true), text);
      play(button, ["finish"], pctx);
      if (!verbs.has("finish")) button.setAttribute("aria-disabled", "true");
      buttons.push(button);
      if (warning && verbs.has("finish")) buttons.push(el("p", { class: "mm-warning", text: `${warning} Click Finish again to confirm.` }));
    }
    for (const action of legalOf(view)) {
      const [verb, value] = action.split(" ");
      if (verb === "icon") {
        buttons.push(play(el("button", { type: "button", class: `mm-pick-icon icon-${value}` }, icon(value, value, true), value), ["icon", value], pctx));
      } else if (verb === "profit") {
        buttons.push(play(el("button", { type: "button", class: "mm-pick-profit" }, icon("reel", "profit", true), `profit ${value}`), ["profit", value], pctx));
      }
    }
    return buttons.length ? el("div", { class: "mm-buttons" }, buttons) : null;
  }

  function pitchArea(view, pctx, verbs) {
    const obs = view.observation;
    const preview = obs.preview;
    const over = obs.phase === "over";
    if (over) return null;
    const prompt = {
      remove: "Click a row card to remove it, or one of your personal cards to add it.",
      copy: "Click the neighbour whose cost the copycat takes.",
      pick: obs.options.trendsetter_tricks ? "Click the card that tops this stack in Movies Made." : "Click the card that goes into Movies Made.",
      slot: "Click a gap in the row to place your card.",
      icon: "Click the icon the copycat costs.",
      profit: "Click the profit the wildcard yields.",
    };
    const hint = legalOf(view).length ? Object.keys(prompt).find((verb) => verbs.has(verb)) : null;
    // The card a CHANGE edit is placing, beside the question of where it goes (it is in no row or hand meanwhile).
    const placing = hint === "slot" && obs.edit && obs.edit.added ? obs.edit.added : null;
    if (placing && details(view, placing)) prompt.slot = `Click a gap in the row to place ${details(view, placing).name}:`;
    let choice = null;
    if (obs.choice) {
      const info = details(view, obs.choice.card);
      choice = el("p", { class: "mm-choice" }, el("strong", { text: `${who(view, obs.active)} decides ${info ? info.name : "a blockbuster"}: ` }), info ? info.face : "");
    }
    return el(
      "section",
      { class: `mm-area mm-pitch${view.seat === obs.active ? " mine" : ""}`, "aria-label": "the pitch" },
      el("h3", { text: `Pitch by ${who(view, obs.active)} · turn ${obs.turn}` }),
      // Placing a card: the card and the question come first, above the row and its gaps.
      placing ? el("p", { class: "mm-hint", text: prompt[hint] }) : null,
      placing ? el("div", { class: "mm-row mm-placing" }, card(view, placing, {})) : null,
      pitchRow(view, pctx, verbs),
      hint && !placing ? el("p", { class: "mm-hint", text: prompt[hint] }) : null,
      needTokens(view),
      boardButtons(view, pctx, verbs),
      choice,
      preview ? el("div", { class: "mm-preview" }, sentences(preview.words)) : null
    );
  }

  function votesPanel(view) {
    const obs = view.observation;
    const parts = [];
    if ((obs.voters || []).length) {
      parts.push(
        el(
          "div",
          { class: "mm-voters" },
          obs.voters.map((seat) => {
            const done = obs.committed.includes(seat);
            return el("span", { class: `mm-voter${done ? " done" : ""}` }, el("span", { class: "mm-card-back", "aria-hidden": "true" }, done ? icon("cards", "", true) : null), `${who(view, seat)} ${done ? "has voted" : "is choosing"}`);
          })
        )
      );
    }
    (obs.reveals || []).forEach((votes, round) => {
      parts.push(el("div", { class: "mm-reveal" }, el("strong", { text: obs.reveals.length > 1 ? `Round ${round + 1}:` : "Votes:" }), revealLines(view, votes, `reveal${round}-`)));
    });
    (obs.changes || []).forEach((change) => {
      const edits = [change.removed ? `removed ${names(view, [change.removed])}` : null, change.added ? `added ${names(view, [change.added])}` : null].filter(Boolean);
      const drawn = change.replacement ? `; drew ${names(view, [change.replacement])} from the pool` : "";
      parts.push(el("p", { class: "mm-line", text: `${who(view, change.seat)} (${names(view, [change.change])}) ${edits.length ? joinWords(edits) : "changed nothing"}${drawn}.` }));
    });
    if (obs.edit) parts.push(el("p", { class: "mm-line mm-edit", text: `${who(view, obs.edit.seat)} is changing the pitch with ${names(view, [obs.edit.change])}.` }));
    if (obs.check_words) parts.push(el("div", { class: "mm-check" }, sentences(obs.check_words)));
    if (obs.settlement) parts.push(el("div", { class: `mm-settlement ${obs.settlement.result === "SUCCESS" ? "success" : "fail"}` }, sentences(settlementLines(view, obs.settlement))));
    return parts.length ? el("section", { class: "mm-area mm-votes", "aria-label": "votes" }, el("h3", { text: "Votes" }), parts) : null;
  }

  function lastTurnPanel(view) {
    const obs = view.observation;
    const last = (obs.history || [])[obs.history.length - 1];
    if (!last || obs.check) return null;
    const reveal = last.reveals.length ? last.reveals[last.reveals.length - 1] : [];
    return el(
      "details",
      { class: "mm-area mm-last", open: obs.row.length === 0 ? true : null },
      el("summary", {}, el("strong", { text: `Last turn: ${who(view, last.active)} pitched ${names(view, last.row)}` }), el("span", { class: `mm-result-badge ${last.settlement.result === "SUCCESS" ? "success" : "fail"}`, text: last.settlement.result === "SUCCESS" ? "made" : "failed" })),
      el("div", { class: "mm-reveal" }, el("strong", { text: "Final votes:" }), revealLines(view, reveal, "last")),
      el("div", { class: "mm-check" }, sentences(last.check_words)),
      sentences(settlementLines(view, last.settlement)),
      last.movie ? el("p", { class: "mm-line", text: `${names(view, [last.movie])} went into the movies made.` }) : null
    );
  }

  function madeArea(view) {
    const obs = view.observation;
    const made = obs.movies_made || [];
    const tally = Object.entries(obs.movies_made_icons || {}).map(([name, n]) => iconToken(name, n, n ? "" : "zero"));
    return el(
      "section",
      { class: "mm-area mm-made", "aria-label": "movies made" },
      el("h3", { text: `Movies made (${made.length})` }),
      el("div", { class: "mm-tally", title: `Icons on the movies made: ${countsWords(obs.movies_made_icons)}` }, el("span", { class: "mm-need-label", text: "Icons shown" }), tally),
      el("p", { class: "muted mm-hint", text: "Each won vote card scores 1 point per movie made showing its icon." }),
      el(
        "div",
        { class: "mm-row mm-piles" },
        made.length
          ? made.map((stack) =>
              el(
                "span",
                { class: `mm-stack ${stack.result === "SUCCESS" ? "success" : "fail"}${stack.cards.length > 1 ? " deep" : ""}`, dataset: { arrive: `made:${stack.top}` } },
                card(view, stack.top, { small: true }),
                obs.options.trendsetter_tricks ? el("span", { class: "mm-result", text: `${stack.result === "SUCCESS" ? "success" : "failure"}, ${plural(stack.cards.length, "card")}` }) : null
              )
            )
          : noneYet("none yet")
      )
    );
  }

  /** Won vote cards as piles by icon (each card scores its icon's count on the movies made). */
  function wonPiles(view, ids, seat) {
    const obs = view.observation;
    const byIcon = new Map();
    for (const id of ids) {
      const info = details(view, id);
      const key = info && info.icon ? info.icon : "other";
      if (!byIcon.has(key)) byIcon.set(key, []);
      byIcon.get(key).push(id);
    }
    if (!byIcon.size) return noneYet("no vote cards won yet");
    return [...byIcon.entries()].map(([name, cards]) => {
      const each = (obs.movies_made_icons || {})[name] || 0;
      return el(
        "span",
        { class: `mm-pile icon-${name}${cards.length > 1 ? " deep" : ""}`, title: `${names(view, cards)}: ${plural(each, "point")} each`, dataset: { arrive: `won${seat}:${name}:${cards.length}` } },
        SHAPES[name] ? icon(name, name, true) : null,
        el("span", { class: "mm-pile-n", text: iconCount(cards.length, name) })
      );
    });
  }

  function playerPanel(view, seat) {
    const obs = view.observation;
    const mine = seat === view.seat;
    const over = obs.phase === "over";
    const score = obs.scores ? obs.scores[seat] : 0;
    const hand = obs.hand_sizes[seat];
    const known = obs.known_in_hand[seat] || [];
    const personal = obs.personal[seat] || [];
    return el(
      "section",
      { class: `mm-player${mine ? " mine" : ""}${obs.active === seat && !over ? " active" : ""}`, dataset: { seat: String(seat) }, "aria-label": seatName(view, seat) },
      el(
        "div",
        { class: "mm-player-head" },
        el("span", { class: "mm-player-name", text: seatName(view, seat) }),
        mine ? el("span", { class: "badge", text: "you" }) : null,
        obs.active === seat && !over ? el("span", { class: "badge pitching", text: "pitching" }) : null,
        el("span", { class: "mm-score", title: plural(score, "point") }, icon("star", "points", true), el("span", { text: plural(score, "point") })),
        el("span", { class: "mm-handsize", title: `${plural(hand, "card")} in hand` }, icon("cards", "cards in hand", true), el("span", { text: `${hand} in hand` }))
      ),
      el("div", { class: "mm-row mm-won" }, el("span", { class: "mm-label", text: "Won:" }), wonPiles(view, obs.won[seat], seat)),
      known.length && !mine ? el("div", { class: "mm-row" }, el("span", { class: "mm-label", text: "Known to hold:" }), known.map((id) => card(view, id, { small: true }))) : null,
      personal.length ? el("div", { class: "mm-row" }, el("span", { class: "mm-label", text: "Personal movie cards:" }), personal.map((id) => card(view, id, { small: true }))) : null
    );
  }

  function poolArea(view) {
    const obs = view.observation;
    const counts = {};
    for (const name of obs.icons) counts[name] = 0;
    for (const id of obs.pool) {
      const info = details(view, id);
      if (info && info.icon) counts[info.icon] += 1;
    }
    return el(
      "div",
      { class: "mm-pool", title: `Pool: ${plural(obs.pool.length, "vote card")} (${countsWords(counts)})` },
      el("span", { class: "mm-need-label", text: `Pool: ${plural(obs.pool.length, "vote card")}` }),
      Object.entries(counts).filter(([, n]) => n).map(([name, n]) => iconToken(name, n))
    );
  }

  /** Once the game is over: how each seat's score adds up, one sentence per seat, the winners first. */
  function finalPanel(view) {
    const final = view.observation.final;
    if (!final || !final.words) return null;
    const order = final.scores.map((_, seat) => seat).sort((a, b) => final.ranks[a] - final.ranks[b] || a - b);
    return el(
      "section",
      { class: "mm-area mm-final", "aria-label": "how each seat scored" },
      el("h3", { text: "How each seat scored" }),
      el("p", { class: "muted mm-hint", text: "Each won vote card scores 1 point per movie made showing its icon." }),
      el(
        "ul",
        { class: "mm-final-lines" },
        order.map((seat) => el("li", { class: final.winners.includes(seat) ? "winner" : "" }, el("strong", { text: `${who(view, seat)}: ` }), final.words[seat]))
      )
    );
  }

  G.registerRenderer("maybe-movies", {
    status(view) {
      const obs = view.observation;
      if (obs.phase === "over") return "The game is over.";
      return `Turn ${obs.turn} · ${seatName(view, obs.active)} pitches · ${obs.draw_pile_size} movie cards in the draw pile`;
    },

    render(root, view, ctx) {
      context = ctx || null;
      const obs = view.observation;
      const pctx = ctx || {};
      const verbs = new Set(legalOf(view).map((action) => action.split(" ")[0]));
      const parts = [];
      parts.push(finalPanel(view));
      parts.push(marketArea(view, pctx));
      parts.push(pitchArea(view, pctx, verbs));
      parts.push(votesPanel(view));
      parts.push(lastTurnPanel(view));
      parts.push(madeArea(view));
      parts.push(el("div", { class: "mm-area mm-players", "aria-label": "players" }, el("h3", { text: "Players" }), poolArea(view), el("div", { class: "mm-player-grid" }, obs.hand_sizes.map((_, seat) => playerPanel(view, seat)))));
      G.append(root, [el("div", { class: "mm-board" }, parts)]);
      G.markArrivals(root, "maybe-movies");
    },

    /** What the decision is about: the pitch while it is voted on or changed, the market while it is pitched. */
    subject(root, view) {
      const phase = view.observation.phase;
      if (["vote", "change_edit", "cost_choice", "profit_choice", "movie_pick"].includes(phase)) return root.querySelector(".mm-pitch");
      if (phase === "pitch") return root.querySelector(".mm-market");
      return null;
    },

    /** Your vote cards and personal movie cards, docked above the decision: click one to vote it or add it. */
    hand(root, view, ctx) {
      const obs = view.observation;
      // In one order all game long (YES, NO, then CHANGE cards): cards back from a CHANGE re-vote went to the end.
      const kindOrder = { Y: 0, N: 1, C: 2 };
      const hand = [...(obs.hand || [])].sort((a, b) => (kindOrder[a[0]] ?? 3) - (kindOrder[b[0]] ?? 3) || a.localeCompare(b));
      const personal = obs.personal && view.seat !== null ? obs.personal[view.seat] || [] : [];
      const pctx = ctx;
      const voting = obs.phase === "vote" && legalOf(view).length > 0;
      const editing = obs.phase === "change_edit" && legalOf(view).length > 0;
      if (!hand.length && !(editing && personal.length) && !obs.my_vote) return;
      const cards = hand.map((id) => {
        const node = card(view, id, { small: true, arrive: "hand" });
        if (voting) play(node, ["vote", id], pctx);
        return node;
      });
      // Personal cards lie face up by your seat on the board; they come into the dock while a CHANGE edit can add one.
      const mine = (editing ? personal : []).map((id) => {
        const node = card(view, id, { small: true, arrive: "personal" });
        if (editing) play(node, ["add", id], pctx);
        return node;
      });
      G.append(root, [
        el(
          "div",
          { class: "mm-dock" },
          el("h3", {}, `Your hand (${hand.length})`, voting ? el("span", { class: "mm-sub", text: " · click a card to vote it" }) : null),
          el("div", { class: "mm-row mm-hand" }, cards.length ? cards : noneYet("no cards")),
          obs.my_vote ? el("div", { class: "mm-row mm-my-vote" }, el("span", { class: "mm-label", text: "Your secret vote:" }), card(view, obs.my_vote, { small: true })) : null,
          mine.length ? el("p", { class: "mm-label mm-personal-label", text: "Your personal movie cards: click one to add it to the pitch." }) : null,
          mine.length ? el("div", { class: "mm-row mm-personal" }, mine) : null
        ),
      ]);
      G.markArrivals(root, "maybe-movies-hand");
    },

    /** Verbs in words; a final card choice shows the action's words without the card code the terminal types. */
    label(path, token, view, ctx) {
      const obs = view.observation;
      const action = [...path, token].join(" ");
      if (legalOf(view).includes(action)) {
        const words = ctx && ctx.words ? ctx.words(action) : action;
        return details(view, token) ? words.replace(` (${token})`, "") : words;
      }
      if (path.length === 0) {
        if (token === "add") return obs.phase === "pitch" ? "Add a market card to the pitch…" : "Add one of your personal cards…";
        if (token === "remove") return "Remove a card from the pitch…";
        if (token === "slot") return "Choose where the card goes…";
      }
      const info = details(view, token);
      return info ? info.name : null;
    },
  });
})();
