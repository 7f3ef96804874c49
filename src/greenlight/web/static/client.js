// The table page: connects to the table's WebSocket with the seat token from the link (#token=...),
// draws each view it receives (board by the game's renderer, seats, legal actions as choices, log, final scores)
// and sends the chosen action. The server is the authority: it checks every action and sends each seat its own view.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const boot = G.boot();
  const tableId = boot.table_id;
  const game = boot.game;
  const token = G.tokenFromHash();
  // ?view=generic shows the raw observation through the generic renderer (the view every new game gets).
  const forceGeneric = new URLSearchParams(window.location.search).get("view") === "generic";
  let renderer = (!forceGeneric && G.renderers[game.id]) || G.genericRenderer;
  // ctx.components: the table's printed components by code ({kind, id, name, text}), loaded before the first view.
  const ctx = { game, api: G.api, tableId, token, components: new Map(), words: wordsFor, component: (id) => ctx.components.get(id) || null };
  const dom = {
    connection: document.getElementById("connection"),
    status: document.getElementById("status"),
    seats: document.getElementById("seats"),
    board: document.getElementById("board"),
    controls: document.getElementById("controls"),
    refusal: document.getElementById("refusal"),
    outcome: document.getElementById("outcome"),
    log: document.getElementById("log"),
  };

  let view = null;
  let path = [];
  let socket = null;
  let retries = 0;
  let nextId = 1;
  let sending = null;
  let refused = false;
  let confirming = null;

  // -- connection -------------------------------------------------------------------------------

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(tableId)}`);
    socket.addEventListener("open", () => {
      retries = 0;
      socket.send(JSON.stringify({ type: "hello", token: token || null }));
      setConnection("live", "connected");
    });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (event.code >= 4400 && event.code < 4500) {
        refused = true;
        setConnection("refused", "not connected");
        return;
      }
      setConnection("down", "reconnecting…");
      window.setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function setConnection(state, text) {
    dom.connection.dataset.state = state;
    dom.connection.textContent = text;
  }

  function handle(message) {
    if (message.type === "view") {
      update(message);
    } else if (message.type === "presence") {
      if (view) {
        view.table = message.table;
        drawSeats();
      }
    } else if (message.type === "ack") {
      sending = null;
      path = [];
      hideRefusal();
      if (view) drawControls();
    } else if (message.type === "error") {
      sending = null;
      showRefusal(message.message);
      if (view) drawControls();
    }
  }

  /** The words of one of this seat's legal actions ("Offer Director 2 with 30"), or its text if it has none. */
  function wordsFor(action) {
    const index = view ? view.legal_actions.indexOf(action) : -1;
    return index >= 0 && view.action_words && view.action_words[index] ? view.action_words[index] : action;
  }

  /** Send an action, after asking first if the game says it cannot be undone and scores nothing or drops you out. */
  function choose(action) {
    const warning = view && view.action_warnings ? view.action_warnings[action] : null;
    if (warning && confirming !== action) {
      confirming = action;
      drawControls();
      return;
    }
    confirming = null;
    send(action);
  }

  function send(action) {
    if (sending) return;
    hideRefusal();
    sending = action;
    drawControls();
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "act", action, id: nextId++ }));
      return;
    }
    // No live connection: the HTTP API does the same job.
    G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/actions`, { action }, token)
      .then((answer) => {
        sending = null;
        path = [];
        update(answer.view);
      })
      .catch((error) => {
        sending = null;
        showRefusal(error.message);
        drawControls();
      });
  }

  function showRefusal(text) {
    dom.refusal.hidden = false;
    G.clear(dom.refusal).append(el("strong", { text: "Refused: " }), text);
  }

  function hideRefusal() {
    dom.refusal.hidden = true;
    G.clear(dom.refusal);
  }

  // -- drawing ------------------------------------------------------------------------------------

  function update(next) {
    const first = view === null;
    view = next;
    if (first && view.seat !== null && token) {
      G.rememberSeat({ link: window.location.href, table: tableId, title: game.title, seat: view.seat, name: view.table.seats[view.seat].name });
    }
    if (!G.treeNode(G.actionTree(view.legal_actions), path)) path = [];
    draw();
  }

  function draw() {
    document.body.dataset.version = String(view.version);
    document.body.dataset.over = view.outcome ? "yes" : "no";
    drawStatus();
    drawSeats();
    drawBoard();
    drawControls();
    drawOutcome();
    drawHelp();
    drawLog();
  }

  function drawStatus() {
    const who = view.seat === null ? "You are watching: only public information is shown." : `You are ${G.seatName(view.table, view.seat)}.`;
    let line = null;
    if (renderer.status) {
      try {
        line = renderer.status(view, ctx);
      } catch (error) {
        console.error(error);
      }
    }
    const notices = [];
    if (view.table.seed_chosen) {
      notices.push(el("p", { class: "notice", text: "The creator of this table chose its seed, so they can know every hidden card." }));
    }
    if (view.table.closed) {
      notices.push(el("p", { class: "notice", text: `This table was closed (${view.table.closed}) before the game ended.` }));
    }
    G.append(G.clear(dom.status), [el("p", { class: "who", text: who }), line ? el("p", { class: "game-status", text: line }) : null, ...notices]);
  }

  function drawSeats() {
    const decision = view.decision;
    G.clear(dom.seats).append(
      ...view.table.seats.map((row) => {
        const toAct = decision.players.includes(row.seat);
        const committed = decision.simultaneous && decision.committed.includes(row.seat);
        let state = "";
        if (view.outcome) state = view.outcome.winners.includes(row.seat) ? "winner" : "";
        else if (committed) state = "committed ✓";
        else if (toAct) state = decision.simultaneous ? "choosing…" : "to act";
        return el(
          "li",
          { class: ["seat", toAct ? "to-act" : "", committed ? "committed" : "", row.seat === view.seat ? "mine" : ""].join(" "), dataset: { seat: String(row.seat) } },
          el("span", { class: "seat-name", text: G.seatName(view.table, row.seat) }),
          el("span", { class: "seat-kind", text: row.kind === "bot" ? `bot: ${row.bot}` : row.connected ? "online" : row.joined ? "away" : "not joined yet" }),
          el("span", { class: "seat-state", text: state })
        );
      })
    );
  }

  function drawBoard() {
    G.clear(dom.board);
    try {
      renderer.render(dom.board, view, ctx);
    } catch (error) {
      // A broken game renderer must not lock a person out of the game: fall back to the generic one.
      console.error(error);
      G.clear(dom.board);
      renderer = G.genericRenderer;
      renderer.render(dom.board, view, ctx);
    }
  }

  /** A choice's label: the renderer's, else the whole action's words for a final choice, else a component's name for a code. */
  function label(prefix, token, action) {
    if (renderer.label) {
      try {
        const custom = renderer.label(prefix, token, view, ctx);
        if (custom !== null && custom !== undefined) return custom;
      } catch (error) {
        console.error(error);
      }
    }
    if (action) return wordsFor(action);
    const component = ctx.components.get(token);
    return component ? component.name : token;
  }

  function drawControls() {
    const root = G.clear(dom.controls);
    if (view.outcome) return;
    if (view.seat === null) {
      root.append(el("p", { class: "muted", text: "Spectators see the table but cannot act." }));
      return;
    }
    const decision = view.decision;
    if (!view.legal_actions.length) {
      const waiting = decision.players.map((seat) => G.seatName(view.table, seat)).join(", ");
      const mine = decision.simultaneous && decision.committed.includes(view.seat) ? "Your choice is in. " : "";
      root.append(el("p", { class: "waiting", text: `${mine}Waiting for ${waiting || "the table"}.` }));
      return;
    }
    const tree = G.actionTree(view.legal_actions);
    let node = G.treeNode(tree, path) || tree;
    // Steps with a single way forward (say, the only verb this step allows) are taken for the person.
    // (A step that would complete the action is always left to the person to click.)
    while (!node.action && node.children.size === 1 && node.children.values().next().value.action === null) {
      const [token, child] = node.children.entries().next().value;
      path.push(token);
      node = child;
    }
    let prompt = null;
    if (renderer.prompt) {
      try {
        prompt = renderer.prompt(path, view, ctx);
      } catch (error) {
        console.error(error);
      }
    }
    root.append(el("h2", { text: "Your move" }), el("p", { class: "prompt", text: prompt || decision.prompt || "Choose an action." }));
    if (confirming) {
      root.append(
        el(
          "div",
          { class: "confirm", role: "alertdialog", "aria-label": "confirm your move" },
          el("p", { text: view.action_warnings[confirming] }),
          el("p", { class: "muted", text: wordsFor(confirming) }),
          el("button", { type: "button", class: "choice final danger", onclick: () => choose(confirming) }, "Do it anyway"),
          el("button", { type: "button", class: "choice", onclick: () => { confirming = null; drawControls(); } }, "Think again")
        )
      );
      return;
    }
    if (path.some((_, i) => hasChoice(G.treeNode(tree, path.slice(0, i))))) {
      root.append(
        el(
          "div",
          { class: "breadcrumb" },
          el("span", { class: "muted", text: "So far: " }),
          path.map((token, i) => el("span", { class: "crumb" }, label(path.slice(0, i), token))),
          el("button", { type: "button", class: "back", onclick: goBack, disabled: sending !== null }, "Back")
        )
      );
    }
    const choices = el("div", { class: "choices", role: "group" });
    for (const [token, child] of node.children) {
      const complete = child.action !== null && child.children.size === 0;
      choices.append(
        el(
          "button",
          {
            type: "button",
            class: complete ? "choice final" : "choice",
            dataset: { token, action: complete ? child.action : "" },
            title: complete ? wordsFor(child.action) : "more choices follow",
            disabled: sending !== null,
            onclick: () => {
              if (complete) choose(child.action);
              else {
                path.push(token);
                drawControls();
              }
            },
          },
          label(path, token, complete ? child.action : null)
        )
      );
    }
    if (node.action && node.children.size) {
      choices.append(
        el("button", { type: "button", class: "choice final", dataset: { action: node.action }, disabled: sending !== null, onclick: () => choose(node.action) }, wordsFor(node.action))
      );
    }
    root.append(choices);
    if (sending) root.append(el("p", { class: "muted", text: `Sending: ${wordsFor(sending)}…` }));
    root.append(typedActionForm());
  }

  /** Whether a person had a real choice at this node (more than one way forward). */
  function hasChoice(node) {
    if (node === null) return false;
    const only = node.children.size === 1 ? node.children.values().next().value : null;
    return node.children.size > 1 || node.action !== null || (only !== null && only.action !== null);
  }

  function goBack() {
    const tree = G.actionTree(view.legal_actions);
    // Undo the last token the person chose, skipping steps that were taken for them (a single way forward).
    let cut = path.length - 1;
    while (cut > 0 && !hasChoice(G.treeNode(tree, path.slice(0, cut)))) cut--;
    path = path.slice(0, Math.max(cut, 0));
    drawControls();
  }

  function typedActionForm() {
    const input = el("input", { type: "text", name: "action", autocomplete: "off", placeholder: view.legal_actions[0] || "", "aria-label": "action text" });
    const form = el(
      "form",
      {
        class: "typed",
        onsubmit: (event) => {
          event.preventDefault();
          if (input.value.trim()) send(input.value.trim());
        },
      },
      input,
      el("button", { type: "submit", disabled: sending !== null }, "Send")
    );
    return el("details", { class: "typed-action" }, el("summary", { text: "Type an action" }), form);
  }

  function drawOutcome() {
    const root = G.clear(dom.outcome);
    if (!view.outcome) return;
    root.append(
      G.outcomeTable(view.outcome, view.table),
      el(
        "p",
        { class: "after-game" },
        el("a", { href: `/tables/${encodeURIComponent(tableId)}/replay`, text: "Replay this game step by step" }),
        " · ",
        el("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: "", text: "Download the record" }),
        " · ",
        el("a", { href: "/", text: "Back to the lobby" })
      )
    );
  }

  function drawHelp() {
    const box = document.getElementById("step-help");
    const text = document.getElementById("step-help-text");
    if (!box || !text) return;
    box.hidden = !view.help;
    G.clear(text).append(...(view.help || "").split("\n\n").map((part) => el("p", { text: part })));
  }

  function drawLog() {
    const lines = view.log;
    G.clear(dom.log).append(...lines.map((line, i) => el("li", { value: String(i + 1), text: line })).reverse());
  }

  // -- start ----------------------------------------------------------------------------------------

  async function start() {
    setConnection("down", "connecting…");
    try {
      for (const component of await G.api("GET", `/api/tables/${encodeURIComponent(tableId)}/components`)) ctx.components.set(component.id, component);
    } catch (error) {
      console.error(error);
    }
    if (renderer.setup) {
      try {
        await renderer.setup(ctx);
      } catch (error) {
        console.error(error);
        renderer = G.genericRenderer;
      }
    }
    connect();
  }

  window.addEventListener("hashchange", () => window.location.reload());
  start();
  // Read-only handles for tests and browser consoles.
  G.tablePage = {
    get view() {
      return view;
    },
    get path() {
      return path.slice();
    },
    get refused() {
      return refused;
    },
  };
})();
