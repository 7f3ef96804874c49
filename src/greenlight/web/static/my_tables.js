// "My tables": where it is this person's turn, from the seat links this browser holds (and, signed in, the account's
// kept seats, on any device), with each seat's time left counting down.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const box = document.getElementById("my-tables");
  let tables = [];
  let offset = 0;

  function leftWords(seconds, live) {
    const s = Math.max(0, Math.floor(seconds));
    if (live && s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const days = Math.floor(s / 86400);
    const hours = Math.floor((s % 86400) / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    if (days) return `${days} day${days > 1 ? "s" : ""}${hours ? ` ${hours} h` : ""}`;
    if (hours) return `${hours} h${minutes ? ` ${minutes} min` : ""}`;
    if (minutes) return `${minutes} min ${s % 60} s`;
    return `${s} s`;
  }

  function left(entry) {
    if (entry.left_seconds === null || entry.left_seconds === undefined) return null;
    if (!entry.running) return entry.left_seconds;
    return Math.max(0, entry.left_seconds - (Date.now() / 1000 + offset - entry.now));
  }

  function draw() {
    if (!tables.length) {
      G.clear(box).append(el("p", { class: "muted", text: "No tables yet: the seats you open in this browser are listed here." }));
      return;
    }
    const mine = tables.filter((entry) => entry.your_turn);
    const rest = tables.filter((entry) => !entry.your_turn);
    const row = (entry) => {
      const remaining = left(entry);
      const time = remaining !== null && (entry.running || entry.pace.kind === "live") ? leftWords(remaining, entry.pace.kind === "live") : null;
      const state =
        entry.status === "finished" ? "game over" : entry.status === "closed" ? "closed" : entry.your_turn ? "your turn" : entry.waiting_for.length ? `waiting for ${entry.waiting_for.join(", ")}` : "waiting";
      return el(
        "li",
        { class: ["my-table", entry.your_turn ? "your-turn" : ""].join(" "), dataset: { table: entry.table } },
        el("a", { href: entry.link }, `${entry.title}`),
        el("span", { class: "my-table-who", text: ` as ${entry.name}, with ${entry.others.join(", ")}` }),
        el("span", { class: "my-table-state", text: state }),
        time ? el("span", { class: "seat-clock", role: "timer", dataset: { running: entry.running ? "yes" : "no" }, text: `${time} left` }) : null,
        el("span", { class: "my-table-pace muted", text: entry.pace.words }),
        entry.asked ? el("span", { class: "my-table-asked", text: entry.asked }) : null
      );
    };
    G.append(G.clear(box), [
      el("h2", { text: mine.length ? `Your turn at ${mine.length} table${mine.length > 1 ? "s" : ""}` : "Nothing is waiting for you" }),
      mine.length ? el("ul", { class: "my-table-list" }, mine.map(row)) : null,
      rest.length ? el("h2", { text: "Waiting for others" }) : null,
      rest.length ? el("ul", { class: "my-table-list" }, rest.map(row)) : null,
    ]);
  }

  async function load() {
    const links = G.rememberedSeats().map((item) => item.link).filter(Boolean).slice(0, 50);
    try {
      const answer = await G.api("POST", "/api/my-tables", { links });
      tables = answer.tables;
      if (tables.length) offset = tables[0].now - Date.now() / 1000;
      draw();
    } catch (error) {
      G.clear(box).append(el("p", { class: "refusal", role: "alert", text: error.message }));
    }
  }

  load();
  window.setInterval(() => {
    if (tables.some((entry) => entry.running)) draw();
  }, 1000);
  window.setInterval(load, 60000);
})();
