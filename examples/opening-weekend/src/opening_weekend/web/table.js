// Opening Weekend table renderer: the weekend at stake, the release calendar, each studio's score, weekends won and
// films released, and your hand of buzz cards, played by clicking a card. Everything comes from the observation and
// the legal actions (no rule is computed here); the generic renderer would draw the same facts as a list.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;

  const buzzOf = (id) => Number(id.slice(1));

  function weekendCard(weekend, note) {
    return el(
      "div",
      { class: "ow-weekend" },
      el("span", { class: "ow-weekend-name", text: weekend.name }),
      el("span", { class: "ow-weekend-value", text: `worth ${weekend.value}` }),
      note ? el("span", { class: "ow-note", text: note }) : null
    );
  }

  function buzzCard(number, extra) {
    return el("span", { class: `ow-buzz${extra ? " " + extra : ""}` }, el("strong", { text: String(number) }), el("small", { text: "buzz" }));
  }

  function seatPanel(view, seat) {
    const obs = view.observation;
    const won = obs.won[seat].map((weekend) => weekend.name).join(", ") || "no weekend yet";
    const status = obs.committed.includes(seat) ? "has released, face down" : obs.waiting.includes(seat) ? "choosing…" : "";
    return el(
      "section",
      { class: `ow-seat${seat === view.seat ? " mine" : ""}`, "aria-label": G.seatName(view.table, seat) },
      el("h3", {}, G.seatName(view.table, seat), el("span", { class: "ow-score", text: `${obs.scores[seat]} points` })),
      el("p", { class: "muted", text: `Weekends won: ${won}` }),
      el(
        "div",
        { class: "ow-row", "aria-label": "films released" },
        obs.played[seat].length ? obs.played[seat].map((number) => buzzCard(number, "played")) : [el("span", { class: "muted", text: "no film released yet" })]
      ),
      el("p", { class: "ow-status", text: `${obs.hand_sizes[seat]} buzz cards in hand${status ? " · " + status : ""}` })
    );
  }

  function render(root, view, ctx) {
    const obs = view.observation;
    const parts = [];
    if (obs.weekend) parts.push(el("div", { class: "ow-stake" }, el("h2", { text: `Round ${obs.round} of ${obs.rounds}: at stake` }), weekendCard(obs.weekend)));
    const coming = obs.calendar.slice(obs.round);
    if (coming.length) parts.push(el("div", { class: "ow-stake" }, el("h2", { text: "Sneak preview: next round" }), coming.map((weekend) => weekendCard(weekend))));
    if (view.outcome) {
      const winners = view.outcome.winners.map((seat) => G.seatName(view.table, seat)).join(" and ");
      parts.push(el("p", { class: "ow-final", text: `Game over: ${winners} ${view.outcome.winners.length > 1 ? "share the win" : "wins"}.` }));
    }
    const order = [...Array(obs.num_players).keys()];
    if (view.seat !== null && view.seat !== undefined) order.sort((a, b) => (a === view.seat ? -1 : b === view.seat ? 1 : a - b));
    parts.push(el("div", { class: "ow-seats" }, order.map((seat) => seatPanel(view, seat))));
    G.append(root, [el("div", { class: "ow-board" }, parts)]);
    G.markArrivals(root, "opening-weekend");
  }

  function hand(root, view, ctx) {
    const obs = view.observation;
    if (obs.hand === undefined || view.outcome) return;
    const cards = obs.hand.map((id) => G.playable(buzzCard(buzzOf(id)), ["release", id], ctx));
    const mine = obs.my_release ? el("p", { class: "muted", text: `You released with Buzz ${buzzOf(obs.my_release)}; waiting for the others.` }) : null;
    G.append(root, [el("div", { class: "ow-dock" }, el("span", { class: "ow-area", text: "Your hand: click a card to release a film with it" }), el("div", { class: "ow-row" }, cards), mine)]);
  }

  G.registerRenderer("opening-weekend", {
    status(view) {
      const obs = view.observation;
      return view.outcome ? `Game over after ${obs.rounds} weekends.` : `Round ${obs.round} of ${obs.rounds} · ${obs.weekend.name}, worth ${obs.weekend.value}`;
    },
    render,
    hand,
    label(path, token) {
      if (path.length === 0 && token === "release") return "Release a film";
      return null; // a complete choice is labelled with its words: the weekend at stake and the odds of the card
    },
    prompt(path, view) {
      if (path[0] === "release") return `Which buzz card do you release for ${view.observation.weekend.name}? The loudest card takes its ${view.observation.weekend.value} points.`;
      return null;
    },
  });
})();
