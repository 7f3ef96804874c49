// Cinecitta 1937 table renderer: Studios, Offices, the seat's hand, wallet and folders, and readable action choices.
// Card facts (occupation, number, promotion, reels, Pen) come from the game's own data file through the API.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const STEP_NAMES = { offer: "Step 1 · Offer", respond: "Step 2 · Respond", place: "Step 3 · Place", over: "Game over" };
  let cards = {};

  function info(id) {
    return cards[id] || null;
  }

  /** A staff card: occupation, number (a quality digit in the Studio) and its Office icons. */
  function card(id, extra) {
    const c = info(id);
    if (!c) return el("span", { class: "cc-card unknown", text: id, dataset: { card: id } });
    const icons = [];
    if (c.promotion) icons.push(el("span", { class: "cc-icon promo", title: `${c.promotion} promotion icon(s): +${10 * c.promotion} money at scoring (Office only)`, text: `▲${c.promotion}` }));
    if (c.reels) icons.push(el("span", { class: "cc-icon reels", title: `${c.reels} film reel(s): box office = money × reels (Office only)`, text: `◎${c.reels}` }));
    if (c.pen) icons.push(el("span", { class: "cc-icon pen", title: "Pen: no wages are paid if any Office card has one", text: "✒" }));
    const title = `${c.occupation} ${c.number}` + (c.promotion ? `, promotion ${c.promotion}` : "") + (c.reels ? `, ${c.reels} reel(s)` : "") + (c.pen ? ", Pen" : "");
    return el(
      "span",
      { class: `cc-card occ-${c.occupation.toLowerCase()} ${(extra && extra.class) || ""}`, title, dataset: { card: id } },
      el("span", { class: "cc-occ", text: c.occupation }),
      el("span", { class: "cc-num", text: c.number }),
      el("span", { class: "cc-icons" }, icons),
      el("span", { class: "cc-id", text: id })
    );
  }

  function money(amount) {
    return el("span", { class: "cc-money", text: `${amount} ₤` });
  }

  function quality(studio) {
    if (studio.length !== 3 || studio.some((id) => !info(id))) return null;
    const [a, b, c] = studio.map((id) => info(id).number).sort((x, y) => x - y);
    return 100 * a + 10 * b + c;
  }

  function officeSummary(office) {
    let promotion = 0;
    let reels = 0;
    let pen = false;
    for (const id of office) {
      const c = info(id);
      if (!c) continue;
      promotion += c.promotion;
      reels += c.reels;
      pen = pen || c.pen;
    }
    return `promotion +${10 * promotion} · reels ${reels} · ${pen ? "Pen: no wages" : "wages due"}`;
  }

  function seatPanel(view, seat) {
    const obs = view.observation;
    const studio = obs.studios[seat];
    const office = obs.offices[seat];
    const placedNow = new Set(obs.last_placements.filter((p) => p.seat === seat).map((p) => p.card));
    const slots = [];
    for (let i = 0; i < 3; i++) {
      const id = studio[i];
      slots.push(id ? card(id, { class: placedNow.has(id) ? "new" : "" }) : el("span", { class: "cc-slot", text: "empty" }));
    }
    const q = quality(studio);
    const mine = seat === view.seat;
    const partner = obs.partner_offset !== null && view.seat !== null && view.seat !== undefined ? partnerNote(obs, view.seat, seat) : null;
    return el(
      "section",
      { class: `cc-seat${mine ? " mine" : ""}`, dataset: { seat: String(seat) } },
      el("h3", {}, G.seatName(view.table, seat), mine ? el("span", { class: "badge", text: "you" }) : null, partner ? el("span", { class: "badge partner", text: partner }) : null),
      el("p", { class: "cc-meta", text: `${obs.hand_sizes[seat]} card(s) in hand` + (mine && obs.wallet !== undefined ? ` · wallet ${obs.wallet}` : "") }),
      el("div", { class: "cc-area" }, el("span", { class: "cc-area-name", text: "Studio" }), el("div", { class: "cc-row studio" }, slots), el("span", { class: "cc-quality", text: q === null ? "quality: needs 3 cards" : `quality ${q}` })),
      el(
        "div",
        { class: "cc-area" },
        el("span", { class: "cc-area-name", text: `Office (${office.length})` }),
        el("div", { class: "cc-row office" }, office.length ? office.map((id) => card(id, { class: "small" })) : el("span", { class: "muted", text: "empty" })),
        el("span", { class: "cc-office-sum", text: officeSummary(office) })
      )
    );
  }

  function partnerNote(obs, viewer, seat) {
    if (seat === viewer) return null;
    if (seat === obs.target && seat === obs.source) return "you trade folders";
    if (seat === obs.target) return "gets your folder";
    if (seat === obs.source) return "sends you a folder";
    return null;
  }

  function folderLine(folder, viewer) {
    if (!folder) return null;
    const sent = folder.sender === viewer;
    let answer = "";
    if (folder.response === "secure") answer = sent ? " → secured: your card comes back" : " → you secured the money";
    if (folder.response === "headhunt") answer = sent ? ` → headhunted: ${2 * folder.amount} comes back to you` : " → you headhunted the card";
    return el(
      "p",
      { class: "cc-folder", dataset: { role: sent ? "sent" : "received" } },
      el("strong", { text: sent ? `Your folder to P${folder.recipient}: ` : `Folder from P${folder.sender}: ` }),
      card(folder.card, { class: "small" }),
      " with ",
      money(folder.amount),
      answer
    );
  }

  function privatePanel(view) {
    const obs = view.observation;
    const hand = obs.hand || [];
    return el(
      "section",
      { class: "cc-private" },
      el("h3", {}, "Your hand ", el("span", { class: "cc-wallet", text: `wallet: ${obs.wallet}` })),
      el("div", { class: "cc-row hand" }, hand.length ? hand.map((id) => card(id)) : el("span", { class: "muted", text: "empty" })),
      obs.step !== "over" ? el("p", { class: "cc-partners", text: `This round you send your folder to P${obs.target} and receive one from P${obs.source}.` }) : null,
      folderLine(obs.folder_sent, view.seat),
      folderLine(obs.folder_received, view.seat),
      obs.pending && obs.pending.length ? el("p", { class: "cc-pending" }, el("strong", { text: "To place in your Studio: " }), obs.pending.map((id) => card(id, { class: "small" }))) : null,
      obs.my_commitment ? el("p", { class: "cc-commitment" }, el("strong", { text: "Your choice (secret until everyone has chosen): " }), obs.my_commitment) : null,
      obs.folder_history && obs.folder_history.length
        ? el(
            "details",
            { class: "cc-history" },
            el("summary", { text: `Your folders in earlier rounds (${obs.folder_history.length})` }),
            el("ul", {}, obs.folder_history.map((f) => el("li", {}, `Round ${f.round}: `, folderLine(f, view.seat))))
          )
        : null
    );
  }

  G.registerRenderer("cinecitta", {
    async setup(ctx) {
      const data = await G.api("GET", "/api/games/cinecitta/data/cards");
      cards = Object.fromEntries(data.card.map((c) => [c.id, c]));
    },

    status(view) {
      const obs = view.observation;
      if (obs.step === "over") return `Game over after ${obs.rounds} rounds.`;
      const where = obs.partner_offset === 1 ? "to the left neighbour" : `${obs.partner_offset} seats to the left`;
      return `Round ${obs.round} of ${obs.rounds} · ${STEP_NAMES[obs.step] || obs.step} · folders go ${where} · money at the table: ${obs.money_total}`;
    },

    render(root, view) {
      const obs = view.observation;
      const parts = [];
      if (view.seat !== null && view.seat !== undefined && obs.hand !== undefined) parts.push(privatePanel(view));
      if (obs.last_placements.length) {
        parts.push(
          el(
            "p",
            { class: "cc-last" },
            el("strong", { text: "Last placements: " }),
            obs.last_placements.map((p, i) => [i ? "; " : "", `P${p.seat} placed `, card(p.card, { class: "small" }), p.moved_out ? [" pushing ", card(p.moved_out, { class: "small" }), " to the Office"] : ""])
          )
        );
      }
      const order = [];
      for (let seat = 0; seat < obs.num_players; seat++) order.push(seat);
      parts.push(el("div", { class: "cc-seats" }, order.map((seat) => seatPanel(view, seat))));
      if (obs.final) parts.push(el("p", { class: "cc-final-wallets", text: `Final wallets: ${obs.final.wallets.map((w, s) => `P${s} ${w}`).join(", ")}` }));
      G.append(root, [el("div", { class: "cc-board" }, parts)]);
    },

    label(path, token, view) {
      const obs = view.observation;
      if (path.length === 0) return { offer: "Offer", respond: "Respond", place: "Place cards" }[token] || token;
      if (path[0] === "offer" && path.length === 1) return card(token);
      if (path[0] === "offer" && path.length === 2) return money(Number(token));
      if (path[0] === "respond") {
        const folder = obs.folder_received;
        const amount = folder ? folder.amount : 0;
        if (token === "secure") return el("span", {}, el("strong", { text: "Secure the funds" }), ` keep ${amount}, return ${folder ? folder.card : "the card"}`);
        if (token === "headhunt") return el("span", {}, el("strong", { text: "Headhunt" }), ` take ${folder ? folder.card : "the card"}, pay ${amount}`);
      }
      if (path[0] === "place") {
        const [placed, out] = token.split(":");
        return el("span", { class: "cc-placement" }, card(placed, { class: "small" }), out ? [" pushing ", card(out, { class: "small" }), " to the Office"] : "");
      }
      return null;
    },

    prompt(path, view) {
      const obs = view.observation;
      if (path[0] === "offer" && path.length === 1) return `Choose the staff card for your folder to P${obs.target}.`;
      if (path[0] === "offer" && path.length === 2) return `How much money goes with ${path[1]}? Your wallet holds ${obs.wallet}.`;
      if (path[0] === "respond" && obs.folder_received) {
        const f = obs.folder_received;
        return `P${f.sender} offers you ${f.card} with ${f.amount}. Secure the money (the card goes back), or headhunt the card (you add ${f.amount}).`;
      }
      if (path[0] === "place" && path.length === 1) return "Place your pending cards. Choose the first card (and, in a full Studio, which card it pushes to the Office).";
      if (path[0] === "place" && path.length === 2) return "Now place the second card.";
      return null;
    },
  });
})();
