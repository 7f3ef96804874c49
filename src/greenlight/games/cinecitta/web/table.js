// Cinecitta 1937 table renderer: Studios, Offices, the seat's hand, wallet, forecast and folders, and the choices in words.
// Everything drawn comes from the observation (its figures and words are computed by the game's view layer in Python)
// and from the table's components (ctx.component(code): a card's name and its face in words). No rule is computed here.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const STEP_NAMES = { offer: "Step 1 of 3: offer", respond: "Step 2 of 3: respond", place: "Step 3 of 3: place", over: "Game over" };
  const VERBS = { offer: "Offer a card and money", respond: "Answer the folder", place: "Place your cards" };

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

  /** The icons of a card, in words: the first sentence of its face ("Promotion 1, 3 reels, pen"). */
  function cardIcons(face) {
    return face.text.split(". ")[0];
  }

  /** A staff card: its name, and the icons that count once it is in the Office. */
  function card(ctx, id, extra) {
    const face = ctx.component(id);
    const classes = ["cc-card", (extra && extra.class) || ""];
    if (!face) return el("span", { class: classes.concat("unknown").join(" "), text: "a staff card" });
    classes.push(`occ-${face.name.split(" ")[0].toLowerCase()}`);
    return el(
      "span",
      { class: classes.join(" "), title: face.text, dataset: { card: id } },
      el("span", { class: "cc-name", text: face.name }),
      el("span", { class: "cc-icons", text: cardIcons(face) })
    );
  }

  function money(amount) {
    return el("span", { class: "cc-money", text: amount ? String(amount) : "no money" });
  }

  function qualityLine(figures) {
    if (figures.quality !== null) return `quality ${figures.quality}`;
    const missing = 3 - figures.studio_cards;
    return `${figures.studio_cards} of 3 cards: ${missing} more for a movie`;
  }

  function officeLine(figures) {
    if (!figures.staff) return "no staff yet, so no wages";
    if (figures.staff === figures.studio_cards) return `wages due ${figures.wages_due} (${figures.staff} staff)`;
    const reels = `${figures.reels} ${figures.reels === 1 ? "reel" : "reels"}`;
    const wages = figures.pen ? "a pen: no wages" : `wages due ${figures.wages_due} (${figures.staff} staff)`;
    return `promotion +${figures.promotion} · ${reels} · ${wages}`;
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

  function seatPanel(view, ctx, seat) {
    const obs = view.observation;
    const studio = obs.studios[seat];
    const office = obs.offices[seat];
    const figures = obs.tableaus[seat];
    const placedNow = new Set(obs.last_placements.filter((p) => p.seat === seat).map((p) => p.card));
    const slots = [];
    for (let i = 0; i < 3; i++) {
      const id = studio[i];
      slots.push(id ? card(ctx, id, { class: placedNow.has(id) ? "small new" : "small" }) : el("span", { class: "cc-slot", text: "empty" }));
    }
    const mine = seat === view.seat;
    const partner = partnerNote(view, seat);
    const sendsTo = obs.sends_to ? `sends to ${who(view, obs.sends_to[seat])}` : null;
    return el(
      "section",
      { class: `cc-seat${mine ? " mine" : ""}`, dataset: { seat: String(seat) } },
      el(
        "h3",
        {},
        el("span", { class: "cc-seat-name", text: who(view, seat) }),
        mine ? el("span", { class: "badge", text: "you" }) : null,
        partner ? el("span", { class: "badge partner", text: partner }) : null
      ),
      el("p", { class: "cc-meta", text: [`${obs.hand_sizes[seat]} ${obs.hand_sizes[seat] === 1 ? "card" : "cards"} in hand`, sendsTo].filter(Boolean).join(" · ") }),
      el(
        "div",
        { class: "cc-area" },
        el("span", { class: "cc-area-name", text: "Studio" }),
        el("div", { class: "cc-row studio" }, slots),
        el("span", { class: "cc-quality", text: qualityLine(figures) })
      ),
      el(
        "div",
        { class: "cc-area" },
        el("span", { class: "cc-area-name", text: `Office (${office.length})` }),
        el("div", { class: "cc-row office" }, office.length ? office.map((id) => card(ctx, id, { class: "small" })) : el("span", { class: "muted", text: "empty" })),
        el("span", { class: "cc-office-sum", text: officeLine(figures) })
      )
    );
  }

  function folderLine(view, ctx, folder) {
    if (!folder) return null;
    const sent = folder.sender === view.seat;
    let answer = null;
    if (sent && folder.back) {
      if (folder.back.card) answer = "secured: the card came back to you to place";
      else if (folder.back.money) answer = `headhunted: ${folder.back.money} came back to you`;
      else answer = "headhunted for free: the folder came back empty";
    } else if (!sent && folder.response) {
      answer = folder.response === "headhunt" ? "you headhunted the card" : "you secured the funds and sent the card back";
    }
    return el(
      "p",
      { class: "cc-folder", dataset: { role: sent ? "sent" : "received" } },
      el("strong", { text: sent ? `Your folder to ${who(view, folder.recipient)}:` : `Folder from ${who(view, folder.sender)}:` }),
      card(ctx, folder.card, { class: "small" }),
      el("span", {}, "with ", money(folder.amount)),
      answer ? el("span", { class: "cc-answer", text: `— ${answer}` }) : null
    );
  }

  function privatePanel(view, ctx) {
    const obs = view.observation;
    const hand = obs.hand || [];
    const forecast = obs.forecast;
    const over = obs.step === "over";
    return el(
      "section",
      { class: "cc-private" },
      el("h3", {}, over ? "Your studio " : "Your hand ", el("span", { class: "cc-wallet", text: over ? `wallet at the end ${obs.wallet}` : `wallet ${obs.wallet}` })),
      over ? null : el("div", { class: "cc-row hand" }, hand.length ? hand.map((id) => card(ctx, id)) : el("span", { class: "muted", text: "empty" })),
      forecast ? el("p", { class: `cc-forecast status-${forecast.status}`, text: forecast.words }) : null,
      obs.step !== "over" && obs.target !== null ? el("p", { class: "cc-partners", text: `This round you send your folder to ${who(view, obs.target)} and receive one from ${who(view, obs.source)}.` }) : null,
      folderLine(view, ctx, obs.folder_sent),
      folderLine(view, ctx, obs.folder_received),
      obs.pending && obs.pending.length ? el("p", { class: "cc-pending" }, el("strong", { text: "To place in your Studio:" }), obs.pending.map((id) => card(ctx, id, { class: "small" }))) : null,
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

    render(root, view, ctx) {
      const parts = [];
      if (view.seat !== null && view.seat !== undefined && view.observation.hand !== undefined) parts.push(privatePanel(view, ctx));
      parts.push(finalPanel(view));
      parts.push(lastPlacements(view, ctx));
      const seats = [];
      for (let seat = 0; seat < view.observation.num_players; seat++) seats.push(seatPanel(view, ctx, seat));
      parts.push(el("div", { class: "cc-seats" }, seats));
      G.append(root, [el("div", { class: "cc-board" }, parts.filter(Boolean))]);
    },

    label(path, token, view, ctx) {
      const obs = view.observation;
      if (path.length === 0) return VERBS[token] || null;
      if (path[0] === "offer" && path.length === 1) return card(ctx, token);
      if (path[0] === "offer" && path.length === 2) {
        const amount = Number(token);
        return el("span", { class: "cc-amount" }, el("strong", { text: amount ? String(amount) : "no money" }), el("span", { class: "muted", text: ` · you keep ${obs.wallet - amount}` }));
      }
      if (path[0] === "place" && !completes(view, path, token)) {
        const [placed, out] = token.split(":");
        return el("span", { class: "cc-placement" }, card(ctx, placed, { class: "small" }), out ? ` first, moving ${cardName(ctx, out)} to the Office` : " first");
      }
      return null; // a complete choice is labelled with its words (what it costs, what it leaves)
    },

    prompt(path, view, ctx) {
      const obs = view.observation;
      if (path[0] === "offer" && path.length === 1) {
        return `Choose the card for your folder to ${who(view, obs.target)}. If they secure the funds, it comes back to your Studio; if they headhunt, they keep it.`;
      }
      if (path[0] === "offer" && path.length === 2) {
        return `How much money goes with ${cardName(ctx, path[1])}? Your wallet holds ${obs.wallet}. If ${who(view, obs.target)} secures the funds, they keep it; if they headhunt, you get it back doubled.`;
      }
      if (path[0] === "respond" && obs.folder_received) {
        const f = obs.folder_received;
        const offered = `${who(view, f.sender)} sent you ${cardName(ctx, f.card)} with ${f.amount || "no money"}.`;
        if (!view.legal_actions.includes("respond headhunt")) return `${offered} Headhunting it would take ${f.amount} of your own and your wallet holds ${obs.wallet}, so you can only secure the funds:`;
        return `${offered} Secure the funds, or headhunt the card:`;
      }
      if (path[0] === "place" && path.length === 1) return "Place your cards: choose what goes in first (and, in a full Studio, which card moves to the Office).";
      if (path[0] === "place" && path.length === 2) return "Now the second card:";
      return null;
    },
  });
})();
