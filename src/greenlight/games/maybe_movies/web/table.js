// Maybe Movies table renderer. Everything it draws comes from the observation in words: each card's name, face
// and full text ride along in observation.cards (built by the game's view layer), previews and the success check
// come as sentences (observation.preview.words, observation.check_words), and seats are called by their names.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  /** The page's context (components by code, for each card's full text as a tooltip), set on every render. */
  let context = null;

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

  function details(view, id) {
    return (view.observation.cards || {})[id] || null;
  }

  function joinWords(items) {
    const parts = items.filter(Boolean);
    if (parts.length <= 1) return parts.join("");
    return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  }

  function iconChip(name, count) {
    return el("span", { class: `mm-icon icon-${name}`, text: count !== undefined ? `${count} ${name}` : name });
  }

  /** A card drawn from its words: a vote shows YES/NO, value and icon; a movie its name, cost icons and profit. */
  function card(view, id, small) {
    const info = details(view, id);
    const cls = `mm-card${small ? " small" : ""}`;
    if (!info) return el("span", { class: `${cls} unknown`, text: "a card" });
    if (info.type === "YES" || info.type === "NO") {
      return el(
        "span",
        { class: `${cls} vote vote-${info.type.toLowerCase()}`, title: fullText(id), dataset: { card: id } },
        el("span", { class: "mm-vote", text: info.type }),
        el("span", { class: "mm-value", text: String(info.value) }),
        iconChip(info.icon)
      );
    }
    if (info.type === "CHANGE") {
      return el("span", { class: `${cls} change`, title: fullText(id), dataset: { card: id } }, el("span", { class: "mm-vote", text: info.name }));
    }
    if (info.cost_words !== undefined) {
      return el(
        "span",
        { class: `${cls} movie blockbuster`, title: fullText(id), dataset: { card: id } },
        el("span", { class: "mm-title", text: `★ ${info.name}` }),
        el("span", { class: "mm-text cost", text: small ? info.cost_short : info.cost_words }),
        el("span", { class: "mm-text profit", text: small ? info.profit_short : info.profit_words })
      );
    }
    return el(
      "span",
      { class: `${cls} movie`, title: fullText(id), dataset: { card: id } },
      el("span", { class: "mm-title", text: info.name }),
      el("span", { class: "mm-facts" }, (info.cost || []).map((name) => iconChip(name)), el("span", { class: "mm-profit", text: `profit ${info.profit}` }))
    );
  }

  function cards(view, ids, small) {
    return ids && ids.length ? ids.map((id) => card(view, id, small)) : el("span", { class: "muted", text: "none" });
  }

  function names(view, ids) {
    return joinWords((ids || []).map((id) => (details(view, id) || { name: "a card" }).name)) || "nothing";
  }

  function sentences(lines, cls) {
    return (lines || []).map((line) => el("p", { class: cls || "mm-line", text: line }));
  }

  function countsWords(counts) {
    return joinWords(Object.entries(counts || {}).filter(([, n]) => n).map(([name, n]) => `${n} ${name}`)) || "none";
  }

  function settlementLines(view, settlement) {
    if (!settlement) return [];
    const won = settlement.won.map((ids, seat) => (ids.length ? `${who(view, seat)} wins ${names(view, ids)}` : null)).filter(Boolean);
    const pooled = settlement.to_pool.length ? `${settlement.to_pool.length} card${settlement.to_pool.length === 1 ? "" : "s"} go to the pool.` : "";
    if (settlement.result === "SUCCESS") {
      return [`Profit ${settlement.profit}: ${won.length ? won.join("; ") : "nobody wins a card"}.`, pooled];
    }
    if (settlement.all_no) return ["Every vote was NO: nobody gets anything.", pooled];
    return [`The pitch failed: ${won.length ? won.join("; ") : "no NO-voter wins anything"}.`, pooled];
  }

  function revealLines(view, votes) {
    const shown = votes.map((id, seat) => (id ? el("span", { class: "mm-who" }, `${who(view, seat)}: `, card(view, id, true)) : null)).filter(Boolean);
    return shown.length ? shown : [el("span", { class: "muted", text: "no votes" })];
  }

  function pitchPanel(view) {
    const obs = view.observation;
    const preview = obs.preview;
    return el(
      "section",
      { class: "mm-pitch" },
      el("h3", { text: `Pitch by ${who(view, obs.active)}` }),
      el("div", { class: "mm-row" }, cards(view, obs.row)),
      preview ? el("div", { class: "mm-preview" }, sentences(preview.words)) : null
    );
  }

  function votesPanel(view) {
    const obs = view.observation;
    const parts = [];
    if ((obs.voters || []).length) {
      parts.push(
        el(
          "p",
          { class: "mm-voters" },
          el("strong", { text: "Voting: " }),
          obs.voters.map((seat) => el("span", { class: `mm-voter${obs.committed.includes(seat) ? " done" : ""}`, text: `${who(view, seat)} ${obs.committed.includes(seat) ? "has voted" : "is choosing"}` }))
        )
      );
    }
    (obs.reveals || []).forEach((votes, round) => {
      parts.push(el("div", { class: "mm-reveal" }, el("strong", { text: obs.reveals.length > 1 ? `Votes, round ${round + 1}:` : "Votes:" }), revealLines(view, votes)));
    });
    (obs.changes || []).forEach((change) => {
      const edits = [change.removed ? `removed ${names(view, [change.removed])}` : null, change.added ? `added ${names(view, [change.added])}` : null].filter(Boolean);
      const drawn = change.replacement ? `; drew ${names(view, [change.replacement])} from the pool` : "";
      parts.push(el("p", { class: "mm-line", text: `${who(view, change.seat)} (${names(view, [change.change])}) ${edits.length ? joinWords(edits) : "changed nothing"}${drawn}.` }));
    });
    if (obs.edit) parts.push(el("p", { class: "mm-line", text: `${who(view, obs.edit.seat)} is changing the pitch with ${names(view, [obs.edit.change])}.` }));
    if (obs.check_words) parts.push(el("div", { class: "mm-check" }, sentences(obs.check_words)));
    if (obs.settlement) parts.push(el("div", { class: "mm-settlement" }, sentences(settlementLines(view, obs.settlement))));
    if (obs.choice) {
      const info = details(view, obs.choice.card);
      parts.push(el("p", { class: "mm-choice" }, el("strong", { text: `${who(view, obs.active)} decides ${info ? info.name : "a blockbuster"}: ` }), info ? info.face : ""));
    }
    return parts.length ? el("section", { class: "mm-votes" }, el("h3", { text: "Votes" }), parts) : null;
  }

  function lastTurnPanel(view) {
    const obs = view.observation;
    const last = (obs.history || [])[obs.history.length - 1];
    if (!last || obs.check) return null;
    const reveal = last.reveals.length ? last.reveals[last.reveals.length - 1] : [];
    return el(
      "section",
      { class: "mm-last" },
      el("h3", { text: `Last turn: ${who(view, last.active)} pitched ${names(view, last.row)}` }),
      el("div", { class: "mm-reveal" }, el("strong", { text: "Final votes:" }), revealLines(view, reveal)),
      el("div", { class: "mm-check" }, sentences(last.check_words)),
      sentences(settlementLines(view, last.settlement)),
      last.movie ? el("p", { class: "mm-line", text: `${names(view, [last.movie])} went into the movies made.` }) : null
    );
  }

  function madePanel(view) {
    const obs = view.observation;
    const made = obs.movies_made || [];
    return el(
      "section",
      { class: "mm-made" },
      el("h3", { text: `Movies made (${made.length})` }),
      el("p", { class: "mm-line", text: `Icons on the movies made: ${countsWords(obs.movies_made_icons)}. Each won vote card scores 1 point per movie made showing its icon.` }),
      el(
        "div",
        { class: "mm-row" },
        made.length
          ? made.map((stack) =>
              el(
                "span",
                { class: `mm-stack ${stack.result === "SUCCESS" ? "success" : "fail"}` },
                card(view, stack.top, true),
                obs.options.trendsetter_tricks ? el("span", { class: "mm-result", text: `${stack.result === "SUCCESS" ? "success" : "failure"}, ${stack.cards.length} card${stack.cards.length === 1 ? "" : "s"}` }) : null
              )
            )
          : el("span", { class: "muted", text: "none yet" })
      )
    );
  }

  function playerPanel(view, seat) {
    const obs = view.observation;
    const mine = seat === view.seat;
    const score = obs.scores ? obs.scores[seat] : 0;
    const hand = obs.hand_sizes[seat];
    return el(
      "section",
      { class: `mm-player${mine ? " mine" : ""}${obs.active === seat ? " active" : ""}`, dataset: { seat: String(seat) } },
      el("h3", {}, seatName(view, seat), mine ? el("span", { class: "badge", text: "you" }) : null, obs.active === seat ? el("span", { class: "badge", text: "pitching" }) : null),
      el("p", { class: "muted", text: `${score} point${score === 1 ? "" : "s"} · ${hand} card${hand === 1 ? "" : "s"} in hand` }),
      (obs.known_in_hand[seat] || []).length && !mine ? el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Known to hold:" }), cards(view, obs.known_in_hand[seat], true)) : null,
      el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Won:" }), cards(view, obs.won[seat], true)),
      (obs.personal[seat] || []).length ? el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Personal movie cards:" }), cards(view, obs.personal[seat], true)) : null
    );
  }

  function poolSummary(view) {
    const obs = view.observation;
    const counts = {};
    for (const icon of obs.icons) counts[icon] = 0;
    for (const id of obs.pool) {
      const info = details(view, id);
      if (info && info.icon) counts[info.icon] += 1;
    }
    return `Pool: ${obs.pool.length} vote card${obs.pool.length === 1 ? "" : "s"}${obs.pool.length ? ` (${countsWords(counts)})` : ""}.`;
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
      const parts = [];
      if (view.seat !== null && view.seat !== undefined && obs.hand && (obs.hand.length || obs.phase !== "over")) {
        parts.push(
          el(
            "section",
            { class: "mm-hand" },
            el("h3", { text: "Your hand" }),
            el("div", { class: "mm-row" }, cards(view, obs.hand)),
            obs.my_vote ? el("p", { class: "mm-line" }, el("strong", { text: "Your secret vote: " }), card(view, obs.my_vote, true)) : null
          )
        );
      }
      if (obs.row && obs.row.length) parts.push(pitchPanel(view));
      const votes = votesPanel(view);
      if (votes) parts.push(votes);
      const last = lastTurnPanel(view);
      if (last) parts.push(last);
      parts.push(el("section", { class: "mm-market" }, el("h3", { text: "Market" }), el("div", { class: "mm-row" }, cards(view, obs.market)), el("p", { class: "muted", text: poolSummary(view) })));
      parts.push(madePanel(view));
      parts.push(el("div", { class: "mm-players" }, obs.hand_sizes.map((_, seat) => playerPanel(view, seat))));
      G.append(root, [el("div", { class: "mm-board" }, parts)]);
    },

    /** Verbs in words; a final card choice shows the action's words without the card code the terminal types. */
    label(path, token, view, ctx) {
      const obs = view.observation;
      const action = [...path, token].join(" ");
      if (view.legal_actions.includes(action)) {
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
