// The replay page: steps through a finished game (or an uploaded record) as a spectator saw it.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const boot = G.boot();
  let replay = null;
  let step = 0;
  let renderer = G.genericRenderer;
  let table = null;
  const slider = document.getElementById("step-slider");

  // What renderers read from the page (a replay only watches: nothing is legal, nothing can be chosen).
  const ctx = {
    api: G.api,
    components: new Map(),
    component: (id) => ctx.components.get(id) || null,
    path: [],
    view: null,
    legalWith: () => [],
    words: (action) => action,
    why: async () => "This is a replay.",
    choose: () => {},
    setPath: () => {},
    announce: () => {},
  };

  async function loadRenderer(gameId) {
    const entry = boot.game || (boot.games || {})[gameId];
    if (!entry) return;
    ctx.game = entry;
    try {
      for (const component of await G.api("GET", `/api/games/${encodeURIComponent(gameId)}/components`)) ctx.components.set(component.id, component);
    } catch (error) {
      console.error(error); // the board still draws, with fewer words
    }
    if (entry.renderer && !G.renderers[gameId]) {
      // The upload page does not know the game in advance: load its renderer now (same origin, so the page's CSP allows it).
      if (entry.stylesheet) document.head.append(el("link", { rel: "stylesheet", href: `/games/${encodeURIComponent(gameId)}/web/table.css` }));
      await new Promise((resolve) => {
        const script = el("script", { src: `/games/${encodeURIComponent(gameId)}/web/table.js` });
        script.addEventListener("load", resolve);
        script.addEventListener("error", resolve);
        document.body.append(script);
      });
    }
    renderer = G.renderers[gameId] || G.genericRenderer;
    if (renderer.setup) {
      try {
        await renderer.setup(ctx);
      } catch (error) {
        console.error(error);
        renderer = G.genericRenderer;
      }
    }
  }

  function viewAt(index) {
    const item = replay.steps[index];
    const log = replay.steps.slice(0, index + 1).flatMap((s) => s.log);
    const over = index === replay.steps.length - 1 && replay.finished;
    return { type: "view", table, seat: null, version: index, decision: item.decision, observation: item.observation, legal_actions: [], log, outcome: over ? replay.outcome : null };
  }

  function draw() {
    const view = viewAt(step);
    const item = replay.steps[step];
    slider.value = String(step);
    document.body.dataset.step = String(step);
    document.getElementById("step-label").textContent = `step ${step} of ${replay.steps.length - 1}`;
    document.getElementById("step-action").textContent = item.action === null ? "The start of the game." : `${G.seatName(table, item.seat)}: ${item.words || item.action}`;
    const board = G.clear(document.getElementById("board"));
    ctx.view = view;
    try {
      renderer.render(board, view, ctx);
    } catch (error) {
      console.error(error);
      G.clear(board);
      G.genericRenderer.render(board, view, {});
    }
    // The board's own headings come under this one: the page's headings go in order.
    board.prepend(G.el("h2", { class: "visually-hidden", text: "The table at this step" }));
    const outcome = G.clear(document.getElementById("outcome"));
    if (view.outcome) outcome.append(G.outcomeTable(view.outcome, table));
    G.clear(document.getElementById("log")).append(...view.log.map((line, i) => el("li", { value: String(i + 1), text: line })).reverse());
  }

  function go(index) {
    step = Math.max(0, Math.min(replay.steps.length - 1, index));
    draw();
  }

  async function show(data, seats) {
    replay = data;
    await loadRenderer(data.game.id);
    const n = data.record.num_players;
    table = { id: boot.table_id, title: data.game.title, num_players: n, seats: seats || Array.from({ length: n }, (_, seat) => ({ seat, name: `seat ${seat}`, kind: "human" })) };
    slider.max = String(data.steps.length - 1);
    document.getElementById("replay").hidden = false;
    go(0);
  }

  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(step - 1));
  document.getElementById("next").addEventListener("click", () => go(step + 1));
  document.getElementById("last").addEventListener("click", () => go(replay.steps.length - 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (!replay || event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });

  async function start() {
    if (boot.table_id) {
      try {
        const [data, info] = await Promise.all([
          G.api("GET", `/api/tables/${encodeURIComponent(boot.table_id)}/replay`),
          G.api("GET", `/api/tables/${encodeURIComponent(boot.table_id)}`),
        ]);
        await show(data, info.seats);
      } catch (error) {
        const upload = document.getElementById("upload");
        upload.hidden = false;
        G.clear(upload).append(el("h1", { text: "No replay yet" }), el("p", { class: "refusal", role: "alert", text: error.message }), el("p", {}, el("a", { href: `/tables/${encodeURIComponent(boot.table_id)}`, text: "Back to the table" })));
      }
      return;
    }
    const upload = document.getElementById("upload");
    upload.hidden = false;
    document.getElementById("record-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      const problem = document.getElementById("upload-error");
      problem.hidden = true;
      if (!file) return;
      try {
        const response = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text() });
        const data = await response.json();
        if (!response.ok) throw new Error(data.detail || response.statusText);
        await show(data, null);
      } catch (error) {
        problem.hidden = false;
        G.clear(problem).append(el("strong", { text: "Cannot replay: " }), error.message);
      }
    });
  }

  start();
})();
