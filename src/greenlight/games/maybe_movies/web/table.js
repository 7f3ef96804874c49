// Maybe Movies table renderer: the market and the pitched row with its Budget and Profit, votes, movies made,
// each player's won and personal cards, and the seat's own hand. Card details come inside the observation ("cards").
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const ICON = { money: "$ money", actors: "actors", script: "script", setting: "setting", camera: "camera", microphone: "mic" };

  function icon(name, count) {
    return el("span", { class: `mm-icon icon-${name}`, title: name, text: count !== undefined ? `${count}× ${ICON[name] || name}` : ICON[name] || name });
  }

  /** Any card by id, drawn from the details the observation carries. */
  function card(view, id, extra) {
    const details = (view.observation.cards || {})[id];
    const cls = `mm-card ${(extra && extra.class) || ""}`;
    if (!details) return el("span", { class: `${cls} unknown`, text: id, dataset: { card: id } });
    if (details.type === "YES" || details.type === "NO") {
      return el(
        "span",
        { class: `${cls} vote vote-${details.type.toLowerCase()}`, title: `${details.type} vote: ${details.value} ${details.icon}`, dataset: { card: id } },
        el("span", { class: "mm-vote", text: details.type }),
        el("span", { class: "mm-value", text: details.value }),
        icon(details.icon)
      );
    }
    if (details.number !== undefined && details.title === undefined) {
      return el("span", { class: `${cls} change`, title: `CHANGE card ${details.number}`, dataset: { card: id } }, el("span", { class: "mm-vote", text: "CHANGE" }), el("span", { class: "mm-value", text: details.number }));
    }
    if (details.cost_key !== undefined) {
      const text = [details.cost_key, details.x ? `x=${details.x}` : null, details.n !== null && details.n !== undefined ? `n=${details.n}` : null, details.profit_key].filter(Boolean).join(" · ");
      return el("span", { class: `${cls} movie blockbuster`, title: `Blockbuster: ${text}`, dataset: { card: id } }, el("span", { class: "mm-title", text: `★ ${details.title || id}` }), el("span", { class: "mm-facts", text }));
    }
    return el(
      "span",
      { class: `${cls} movie`, title: `${details.title}: costs ${(details.cost || []).join(", ")}; profit ${details.profit}`, dataset: { card: id } },
      el("span", { class: "mm-title", text: details.title || id }),
      el("span", { class: "mm-facts" }, (details.cost || []).map((name) => icon(name)), el("span", { class: "mm-profit", text: `+${details.profit}` }))
    );
  }

  function cards(view, ids, extra) {
    return ids && ids.length ? ids.map((id) => card(view, id, extra)) : el("span", { class: "muted", text: "none" });
  }

  function pitchPanel(view) {
    const obs = view.observation;
    const pitch = obs.pitch || { cards: [], budget: {}, profit: 0, open_texts: [] };
    const budget = Object.entries(pitch.budget || {}).filter(([, n]) => n);
    return el(
      "section",
      { class: "mm-pitch" },
      el("h3", { text: `Pitch${obs.active !== null && obs.active !== undefined ? ` by ${G.seatName(view.table, obs.active)}` : ""}` }),
      el("div", { class: "mm-row" }, cards(view, obs.row)),
      el(
        "p",
        { class: "mm-preview" },
        el("strong", { text: "Budget needed: " }),
        budget.length ? budget.map(([name, n]) => icon(name, n)) : "nothing yet",
        el("strong", { text: " · Profit: " }),
        String(pitch.profit),
        pitch.open_texts && pitch.open_texts.length ? ` (+ ${pitch.open_texts.length} blockbuster text(s) evaluated after the vote)` : ""
      )
    );
  }

  function votesPanel(view) {
    const obs = view.observation;
    const parts = [];
    if ((obs.voters || []).length) {
      parts.push(el("p", {}, el("strong", { text: "Voting: " }), obs.voters.map((seat) => el("span", { class: `mm-voter${obs.committed.includes(seat) ? " done" : ""}`, text: `P${seat}${obs.committed.includes(seat) ? " ✓" : " …"}` }))));
    }
    (obs.reveals || []).forEach((votes, round) => {
      parts.push(el("p", { class: "mm-reveal" }, el("strong", { text: `Votes, round ${round + 1}: ` }), votes.map((id, seat) => (id ? [`P${seat} `, card(view, id, { class: "small" })] : el("span", { class: "muted", text: `P${seat} –` })))));
    });
    if (obs.check) parts.push(el("p", { class: "mm-check", text: `Result: ${G.formatValue(obs.check)}` }));
    return parts.length ? el("section", { class: "mm-votes" }, el("h3", { text: "Votes" }), parts) : null;
  }

  function playerPanel(view, seat) {
    const obs = view.observation;
    const mine = seat === view.seat;
    const score = obs.scores ? obs.scores[seat] : null;
    return el(
      "section",
      { class: `mm-player${mine ? " mine" : ""}${obs.active === seat ? " active" : ""}`, dataset: { seat: String(seat) } },
      el("h3", {}, G.seatName(view.table, seat), mine ? el("span", { class: "badge", text: "you" }) : null, obs.active === seat ? el("span", { class: "badge", text: "pitching" }) : null),
      el("p", { class: "muted", text: `${obs.hand_sizes[seat]} card(s) in hand${score !== null && score !== undefined ? ` · score ${G.formatValue(score)}` : ""}` }),
      (obs.known_in_hand[seat] || []).length && !mine ? el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Known in hand: " }), cards(view, obs.known_in_hand[seat], { class: "small" })) : null,
      el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Won: " }), cards(view, obs.won[seat], { class: "small" })),
      (obs.personal[seat] || []).length ? el("div", { class: "mm-row" }, el("span", { class: "muted", text: "Personal: " }), cards(view, obs.personal[seat], { class: "small" })) : null
    );
  }

  G.registerRenderer("maybe-movies", {
    status(view) {
      const obs = view.observation;
      if (obs.phase === "over") return "Game over.";
      return `Turn ${obs.turn} · ${G.humanize(obs.phase)} · draw pile ${obs.draw_pile_size}`;
    },

    render(root, view) {
      const obs = view.observation;
      const parts = [];
      if (view.seat !== null && view.seat !== undefined && obs.hand) {
        parts.push(
          el(
            "section",
            { class: "mm-hand" },
            el("h3", { text: "Your hand" }),
            el("div", { class: "mm-row" }, cards(view, obs.hand)),
            obs.my_vote ? el("p", {}, el("strong", { text: "Your secret vote: " }), card(view, obs.my_vote, { class: "small" })) : null
          )
        );
      }
      parts.push(el("section", {}, el("h3", { text: "Market" }), el("div", { class: "mm-row" }, cards(view, obs.market))));
      parts.push(pitchPanel(view));
      const votes = votesPanel(view);
      if (votes) parts.push(votes);
      if (obs.choice) parts.push(el("p", { class: "mm-choice" }, el("strong", { text: "Choice pending: " }), `${obs.choice.kind} for `, card(view, obs.choice.card, { class: "small" })));
      const made = obs.movies_made || [];
      parts.push(
        el(
          "section",
          { class: "mm-made" },
          el("h3", { text: `Movies made (${made.length})` }),
          el("p", { class: "mm-row" }, Object.entries(obs.movies_made_icons || {}).filter(([, n]) => n).map(([name, n]) => icon(name, n))),
          el("div", { class: "mm-row" }, made.map((stack) => el("span", { class: `mm-stack ${stack.result === "SUCCESS" ? "success" : "fail"}`, title: stack.result }, card(view, stack.top, { class: "small" }), el("span", { class: "mm-result", text: stack.result === "SUCCESS" ? "hit" : "flop" }))))
        )
      );
      parts.push(el("div", { class: "mm-players" }, obs.hand_sizes.map((_, seat) => playerPanel(view, seat))));
      G.append(root, [el("div", { class: "mm-board" }, parts)]);
    },

    label(path, token, view) {
      if (path.length === 0) return null;
      if ((view.observation.cards || {})[token]) return card(view, token, { class: "small" });
      if (path[0] === "icon" && ICON[token]) return icon(token);
      return null;
    },
  });
})();
