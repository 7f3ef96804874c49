// The table page: connects to the table's WebSocket with the seat token from the link (#token=..., #host=...),
// draws each view it receives (the board by the game's renderer, seats, the decision, log, chat, final scores)
// and sends the chosen action. The server is the authority: it checks every action and sends each seat its own view.
//
// Renderers (docs/api.md, "Game renderers") draw the board and may play from it: ctx.choose(action) sends an action
// (asking first if the game warns about it), ctx.setPath(tokens) walks the compound-choice menu from the board,
// ctx.legalWith(tokens) lists the legal actions that start so, ctx.why(action) explains why something is not legal,
// ctx.words(action) gives an action's words and ctx.component(code) a component's words.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const boot = G.boot();
  const tableId = boot.table_id;
  const game = boot.game;
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = fragment.get("token");
  const hostToken = fragment.get("host");
  // ?view=generic shows the raw observation through the generic renderer (the view every new game gets).
  const forceGeneric = new URLSearchParams(window.location.search).get("view") === "generic";
  let renderer = (!forceGeneric && G.renderers[game.id]) || G.genericRenderer;
  const ctx = {
    game,
    api: G.api,
    tableId,
    token,
    components: new Map(),
    component: (id) => ctx.components.get(id) || null,
    words: wordsFor,
    choose: (action) => choose(action),
    setPath: (tokens) => setPath(tokens),
    legalWith: (tokens) => legalWith(tokens),
    why: (action) => why(action),
    announce: (text) => announce(text),
    get view() {
      return view;
    },
    get path() {
      return path.slice();
    },
  };
  const dom = {
    connection: document.getElementById("connection"),
    status: document.getElementById("status"),
    seats: document.getElementById("seats"),
    board: document.getElementById("board"),
    decision: document.getElementById("decision"),
    dock: document.getElementById("dock"),
    controls: document.getElementById("controls"),
    refusal: document.getElementById("refusal"),
    outcome: document.getElementById("outcome"),
    log: document.getElementById("log"),
    chat: document.getElementById("chat"),
    chatForm: document.getElementById("chat-form"),
    chatText: document.getElementById("chat-text"),
    chatReadonly: document.getElementById("chat-readonly"),
    chatUnread: document.getElementById("chat-unread"),
    announce: document.getElementById("announce"),
    help: document.getElementById("step-help-text"),
    links: document.getElementById("table-links"),
    seatControls: document.getElementById("seat-controls"),
    hostControls: document.getElementById("host-controls"),
    sound: document.getElementById("sound-on"),
    notify: document.getElementById("notify-on"),
    offline: document.getElementById("offline"),
    gone: document.getElementById("gone"),
    tableNotes: document.getElementById("table-notes"),
    chatToast: document.getElementById("chat-toast"),
    fold: document.getElementById("decision-fold"),
  };

  let view = null;
  let path = [];
  let socket = null;
  let retries = 0;
  let nextId = 1;
  let sending = null;
  let refused = false;
  let confirming = null;
  /** The question the decision was last scrolled for (see keptScroll). */
  let scrolledFor = "";
  // The last hint and whether one is being thought out.
  let hint = null;
  let hintPending = false;
  // Each seat's review once asked about: {status: "done" | "running" | "failed", ...}.
  const reviews = {};
  let reviewsChecked = false;
  let chatLines = [];
  let unread = 0;
  let announcedLog = 0;
  let wasMyTurn = false;
  let hostNewLink = null;
  // Whether the socket is open now; while it is not, nobody's presence is known and no move can be sent.
  let live = false;
  let reconnectTimer = null;
  // The refusal on show came from a lost connection (cleared once it is back), not from the game.
  let refusalFromNetwork = false;
  // A host action waiting for its confirmation: {seat, what, body, row, text}; the bot level chosen per seat.
  let hostConfirm = null;
  const hostLevels = {};
  let toastTimer = null;

  // -- connection -------------------------------------------------------------------------------

  function connect() {
    window.clearTimeout(reconnectTimer);
    reconnectTimer = null;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${encodeURIComponent(tableId)}`);
    socket.addEventListener("open", () => {
      retries = 0;
      socket.send(JSON.stringify({ type: "hello", token: token || null, host: hostToken || null }));
      setConnection("live", "connected");
    });
    socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      if (event.code >= 4400 && event.code < 4500) {
        refused = true;
        setConnection("refused", "not connected");
        if (event.code === 4403) showGone();
        return;
      }
      setConnection("down", retries ? `connection lost: retry ${retries}…` : "connection lost: reconnecting…");
      reconnectTimer = window.setTimeout(connect, Math.min(5000, 250 * 2 ** retries++));
    });
  }

  function setConnection(state, text) {
    dom.connection.dataset.state = state;
    dom.connection.textContent = text;
    document.body.dataset.connection = state;
    const wasLive = live;
    live = state === "live";
    if (live && refusalFromNetwork) hideRefusal();
    drawOffline();
    if (view && wasLive !== live) {
      drawSeats();
      drawControls();
    }
  }

  /** While the connection is down: say so where moves are made, and offer to try at once. */
  function drawOffline() {
    const down = !live && !refused && view !== null;
    dom.offline.hidden = !down;
    if (!down) return G.clear(dom.offline);
    G.clear(dom.offline).append(
      el("strong", { text: "Connection lost. " }),
      "Reconnecting… Moves can be made again as soon as it is back; nothing you did is lost. ",
      el("button", { type: "button", class: "retry", onclick: () => (socket && socket.readyState === WebSocket.CONNECTING ? null : connect()) }, "Try now")
    );
  }

  /** A link that no longer opens a seat (a fresh link was made, or the seat went to a bot or to someone else): say so and what to do. */
  function showGone() {
    if (token) G.forgetSeat(window.location.href);
    const watch = `${window.location.origin}/tables/${encodeURIComponent(tableId)}`;
    const what = token ? "This seat link no longer works" : "This host link no longer works";
    G.clear(dom.gone).append(
      el("h2", { id: "gone-title", text: what }),
      el("p", {
        text: token
          ? "The host made a new link for this seat, or gave it to a bot or to someone else. Your moves so far are kept. Ask the host for the seat's new link, or watch the game."
          : "This table has another host link now. Ask whoever created the table, or watch the game.",
      }),
      el("p", { class: "gone-next" }, el("a", { href: watch, class: "button-link primary", text: "Watch this table" }), " ", el("a", { href: "/", class: "button-link", text: "Back to the lobby" }))
    );
    dom.gone.hidden = false;
    hideRefusal();
    document.title = `${what} · ${game.title} · Greenlight`;
  }

  function handle(message) {
    if (message.type === "view") {
      update(message);
    } else if (message.type === "presence") {
      if (view) {
        view.table = message.table;
        drawSeats();
        drawTablePanel();
      }
    } else if (message.type === "ack") {
      sending = null;
      path = [];
      hideRefusal();
      if (view) drawControls();
    } else if (message.type === "error") {
      sending = null;
      if (message.status === 403 && !view) return; // a hello refused: the close that follows says what to do
      showRefusal(message.message);
      if (view) drawControls();
    } else if (message.type === "chat_history") {
      chatLines = message.lines;
      drawChat();
    } else if (message.type === "chat") {
      chatLines.push(message.line);
      const mine = view && message.line.seat !== null && message.line.seat === view.seat;
      if (document.getElementById("panel-chat").hidden && !mine) {
        unread++;
        showToast(message.line);
      }
      drawChat();
    } else if (message.type === "revoked") {
      showRefusal(message.message);
      announce(message.message);
    }
  }

  /** The words of one of this seat's legal actions ("Offer Director 6 with 30"), or its text if it has none. */
  function wordsFor(action) {
    const index = view ? view.legal_actions.indexOf(action) : -1;
    return index >= 0 && view.action_words && view.action_words[index] ? view.action_words[index] : action;
  }

  function legalWith(tokens) {
    const prefix = tokens.join(" ");
    return view ? view.legal_actions.filter((action) => action === prefix || action.startsWith(`${prefix} `)) : [];
  }

  async function why(action) {
    if (!token) return "Spectators cannot act.";
    try {
      const answer = await G.api("GET", `/api/tables/${encodeURIComponent(tableId)}/why?action=${encodeURIComponent(action)}`, undefined, token);
      return answer.legal ? answer.words : answer.reason;
    } catch (error) {
      return error.message;
    }
  }

  /** Walk the choice menu to ``tokens`` (from the board); a complete action is chosen at once. */
  function setPath(tokens) {
    if (!view) return;
    const tree = G.actionTree(view.legal_actions);
    const node = G.treeNode(tree, tokens);
    if (!node) return;
    if (node.action && node.children.size === 0) {
      choose(node.action);
      return;
    }
    path = tokens.slice();
    confirming = null;
    drawControls();
    drawBoard();
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
    // No live connection: the HTTP API does the same job (it may reach the server when the socket cannot).
    G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/actions`, { action }, token)
      .then((answer) => {
        sending = null;
        path = [];
        update(answer.view);
      })
      .catch((error) => {
        sending = null;
        if (error.status === undefined) showNotSent();
        else showRefusal(error.message);
        drawControls();
      });
  }

  function showRefusal(text) {
    refusalFromNetwork = false;
    dom.refusal.hidden = false;
    G.clear(dom.refusal).append(el("strong", { text: "Refused: " }), text);
  }

  /** The server could not be reached: the move was not played (no refusal by the game), and may be made again once it is back. */
  function showNotSent() {
    refusalFromNetwork = true;
    dom.refusal.hidden = false;
    G.clear(dom.refusal).append(el("strong", { text: "Not sent: " }), "the server cannot be reached, so your move was not played. Make it again once the connection is back.");
  }

  function hideRefusal() {
    refusalFromNetwork = false;
    dom.refusal.hidden = true;
    G.clear(dom.refusal);
  }

  // -- turn signals: title, sound, notification, screen reader ---------------------------------------

  function announce(text) {
    // A fresh node each time, so screen readers read every announcement.
    dom.announce.append(el("p", { text }));
    while (dom.announce.childNodes.length > 5) dom.announce.removeChild(dom.announce.firstChild);
  }

  function signalTurn() {
    const mine = Boolean(view && !view.outcome && view.legal_actions.length);
    document.title = `${mine ? "● Your turn · " : ""}${game.title} · Greenlight`;
    document.body.dataset.myTurn = mine ? "yes" : "no";
    if (mine && !wasMyTurn) {
      announce(`Your turn: ${view.decision.prompt || "choose an action"}`);
      if (dom.sound.checked) beep();
      if (document.hidden && "Notification" in window && Notification.permission === "granted") {
        new Notification(`${game.title}: your turn`, { body: view.decision.prompt || "" });
      }
    }
    wasMyTurn = mine;
  }

  function beep() {
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (error) {
      /* no sound here */
    }
  }

  // -- drawing ------------------------------------------------------------------------------------

  function update(next) {
    const first = view === null;
    view = next;
    if (first && view.seat !== null && token) {
      G.rememberSeat({ link: window.location.href, table: tableId, title: game.title, seat: view.seat, name: view.table.seats[view.seat].name });
    }
    if (first) announcedLog = view.log.length;
    if (!G.treeNode(G.actionTree(view.legal_actions), path)) path = [];
    if (confirming && !view.legal_actions.includes(confirming)) confirming = null;
    draw();
    for (const line of view.log.slice(announcedLog)) announce(line);
    announcedLog = view.log.length;
    signalTurn();
  }

  function draw() {
    document.body.dataset.version = String(view.version);
    document.body.dataset.over = view.outcome ? "yes" : "no";
    drawStatus();
    drawSeats();
    drawBoard();
    drawControls();
    drawOutcome();
    drawLog();
    drawHelp();
    drawTablePanel();
    drawChat();
  }

  function drawStatus() {
    const who = view.seat === null ? "You are watching: only public information is shown." : `You are ${view.table.seats[view.seat].name}.`;
    let line = null;
    if (renderer.status) {
      try {
        line = renderer.status(view, ctx);
      } catch (error) {
        console.error(error);
      }
    }
    const notices = [];
    if (view.table.from_position) {
      notices.push(el("p", { class: "notice", text: "This table was set up from a position: its creator knows every hidden card in it." }));
    } else if (view.table.seed_chosen) {
      notices.push(el("p", { class: "notice", text: "The creator of this table chose its seed, so they can know every hidden card." }));
    }
    if (view.table.closed) {
      notices.push(el("p", { class: "notice", text: `This table was closed (${view.table.closed}) before the game ended.` }));
    }
    // What just happened, under the status (shown on a phone, where the log panel is far down the page).
    const latest = view.log && view.log.length ? view.log[view.log.length - 1] : null;
    const lastMove = typeof latest === "string" && !view.outcome ? el("p", { class: "last-move", text: `Last move: ${latest}` }) : null;
    G.append(G.clear(dom.status), [el("p", { class: "who", text: who }), line ? el("p", { class: "game-status", text: line }) : null, lastMove, ...notices]);
  }

  function seatState(row) {
    const decision = view.decision;
    const toAct = decision.players.includes(row.seat);
    const committed = decision.simultaneous && decision.committed.includes(row.seat);
    if (view.outcome) return view.outcome.winners.includes(row.seat) ? "winner" : "";
    if (view.table.thinking === row.seat) return "thinking…";
    if (committed) return "has chosen ✓";
    if (toAct) return decision.simultaneous ? "choosing…" : "to play";
    return "";
  }

  function drawSeats() {
    const decision = view.decision;
    G.clear(dom.seats).append(
      ...view.table.seats.map((row) => {
        const toAct = decision.players.includes(row.seat);
        const committed = decision.simultaneous && decision.committed.includes(row.seat);
        // While this page is not connected, nobody's presence is known: no seat is shown online.
        // This page's own seat is online as soon as its socket is (the server's presence list arrives a moment later:
        // the first view said "not joined yet" of the person looking at it).
        const online = row.connected || (row.seat === view.seat && view.seat !== null && view.seat !== undefined);
        const presence = !live ? "not known (reconnecting)" : online ? "online" : row.joined ? "away" : "not joined yet";
        // A registered policy's level is "policy:NAME": said in words, as the table's own names say it.
        const level = String(row.bot || "").replace(/^policy:/, "policy ");
        const kind = row.kind === "bot" ? (row.stands_in_for ? `bot, ${level}, playing for ${row.stands_in_for}` : `bot, ${level}`) : row.open ? "open seat" : presence;
        const state = seatState(row);
        return el(
          "li",
          {
            class: ["seat", toAct ? "to-act" : "", committed ? "committed" : "", row.seat === view.seat ? "mine" : "", view.table.thinking === row.seat ? "thinking" : ""].join(" "),
            dataset: { seat: String(row.seat) },
            "aria-label": `${row.name}, ${kind}${state ? `, ${state}` : ""}`,
          },
          el("span", { class: "seat-name", text: row.seat === view.seat ? `${row.name} (you)` : row.name }),
          el("span", { class: "seat-kind" }, el("span", { class: `dot ${!live && row.kind !== "bot" ? "unknown" : row.kind === "bot" || online ? "on" : "off"}`, "aria-hidden": "true" }), kind),
          el("span", { class: "seat-state", text: state })
        );
      })
    );
  }

  /** What the decision asks now: a new question opens at its top, the same one redrawn stays where it was scrolled. */
  function questionKey() {
    return JSON.stringify([view ? view.legal_actions : [], path, confirming]);
  }

  /** The decision's scroll to keep: none for a new question (its words would open scrolled out of view). */
  function keptScroll() {
    const key = questionKey();
    if (key === scrolledFor) return dom.decision.scrollTop;
    scrolledFor = key;
    return 0;
  }

  function drawBoard() {
    // Redrawing the hand must not scroll the decision back to its top (a bar that scrolls on its own).
    const kept = keptScroll();
    G.clear(dom.board);
    G.clear(dom.dock);
    try {
      renderer.render(dom.board, view, ctx);
      if (renderer.hand && view.seat !== null) renderer.hand(dom.dock, view, ctx);
      // The board's own headings (its areas) come under this one: the page's headings go in order, 1, 2, 3.
      dom.board.prepend(el("h2", { class: "visually-hidden", text: `The table of ${game.title}` }));
    } catch (error) {
      // A broken game renderer must not lock a person out of the game: fall back to the generic one.
      console.error(error);
      G.clear(dom.board);
      G.clear(dom.dock);
      renderer = G.genericRenderer;
      renderer.render(dom.board, view, ctx);
    }
    // Cards this move does not use fold away on a phone (a tap shows them), so the bar leaves the table in view.
    const quiet = dom.dock.childNodes.length > 0 && !dom.dock.querySelector(".playable, [data-pick]");
    dom.decision.classList.toggle("dock-quiet", quiet);
    dom.decision.scrollTop = kept;
    window.requestAnimationFrame(() => keepSubjectInView());
  }

  // -- a card read whole: a tap on a card that is not a move (a long press or a right click on any card) -----------

  const sheet = document.getElementById("card-sheet");

  /** Show the printed words of the component ``id`` in a sheet over the page (Escape or Close shuts it). */
  function showCard(id) {
    const component = ctx.component(id);
    if (!component || typeof sheet.showModal !== "function") return false;
    document.getElementById("card-sheet-kind").textContent = component.kind;
    document.getElementById("card-sheet-name").textContent = component.name;
    document.getElementById("card-sheet-text").textContent = component.text || "";
    if (!sheet.open) sheet.showModal();
    return true;
  }
  ctx.showCard = showCard;

  function cardUnder(event) {
    const node = event.target.closest ? event.target.closest("[data-card]") : null;
    return node && (dom.board.contains(node) || dom.dock.contains(node)) ? node : null;
  }
  for (const area of [dom.board, dom.dock]) {
    area.addEventListener("click", (event) => {
      const node = cardUnder(event);
      // A card that plays a move plays it; one inside a button or a target is left to it.
      // (One that cannot be played now says why instead, as its renderer shows it: a long press reads it whole.)
      if (!node || event.defaultPrevented || node.closest(".playable, .unplayable, button, a, summary, [data-pick]")) return;
      if (showCard(node.dataset.card)) event.preventDefault();
    });
    area.addEventListener("contextmenu", (event) => {
      const node = cardUnder(event);
      if (node && showCard(node.dataset.card)) event.preventDefault();
    });
  }
  sheet.addEventListener("click", (event) => {
    if (event.target === sheet) sheet.close(); // a tap beside the sheet closes it
  });
  // Keyboard: "i" on a focused card (a move on the board) reads it whole.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "i" || event.ctrlKey || event.metaKey || event.altKey || !document.activeElement) return;
    const node = document.activeElement.closest ? document.activeElement.closest("[data-card]") : null;
    if (node && showCard(node.dataset.card)) event.preventDefault();
  });

  // -- the decision on a phone: a bar at the bottom that folds away, and never hides what the prompt is about -------

  let folded = false;
  let subjectKey = "";

  /** Whether the decision is the bar fixed at the bottom of the screen (the phone layout). */
  function docked() {
    return window.getComputedStyle(dom.decision).position === "fixed";
  }

  /** Whether choices wait below the decision's visible part (its box scrolls): marked for the "more below" cue. */
  function markMoreBelow() {
    const box = dom.decision;
    box.classList.toggle("more-below", box.scrollHeight - box.scrollTop - box.clientHeight > 4);
  }
  dom.decision.addEventListener("scroll", markMoreBelow, { passive: true });
  window.addEventListener("resize", markMoreBelow);
  new MutationObserver(() => requestAnimationFrame(markMoreBelow)).observe(dom.decision, { childList: true, subtree: true });

  function drawFold() {
    dom.decision.classList.toggle("folded", folded);
    dom.fold.setAttribute("aria-expanded", folded ? "false" : "true");
    dom.fold.textContent = folded ? "▴ Show your move" : "▾ Hide to see the table";
  }
  const peek = document.getElementById("dock-peek");
  peek.addEventListener("click", () => {
    const open = !dom.decision.classList.contains("dock-open");
    dom.decision.classList.toggle("dock-open", open);
    peek.setAttribute("aria-expanded", open ? "true" : "false");
    peek.textContent = open ? "Hide your cards" : "Show your cards";
  });
  dom.fold.addEventListener("click", () => {
    folded = !folded;
    drawFold();
    if (!folded) keepSubjectInView(true);
  });
  drawFold();

  /**
   * What the decision is about, on the board: the renderer's ``subject`` (the pitch being voted on, say), else the
   * first thing on the board the seat may click now (a space, a line end, a market card).
   */
  function subjectNode() {
    let node = null;
    if (renderer.subject) {
      try {
        node = renderer.subject(dom.board, view, ctx);
      } catch (error) {
        console.error(error);
      }
    }
    return node || dom.board.querySelector(".playable");
  }

  /**
   * On a phone, when the seat has a new decision (or walks further into one), scroll the page so that its subject
   * stands above the decision bar, unless it already does; the reader's own scrolling is left alone otherwise.
   */
  function keepSubjectInView(force) {
    if (!view || view.outcome || !view.legal_actions.length || !docked()) return;
    const key = `${view.legal_actions.join("|")}#${path.join(" ")}`;
    if (!force && key === subjectKey) return;
    subjectKey = key;
    const node = subjectNode();
    if (!node) return;
    const box = node.getBoundingClientRect();
    const bottom = folded ? window.innerHeight : dom.decision.getBoundingClientRect().top;
    const room = bottom - 8;
    if (box.top >= 0 && box.top + Math.min(box.height, room) <= bottom) return;
    // Its top just below the top of the screen, or (when it is short) centred in the room above the bar.
    const lead = box.height < room ? Math.max(8, (room - box.height) / 2) : 8;
    window.scrollBy({ top: box.top - lead, behavior: "instant" });
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
    return plainLabel(token, action);
  }

  function drawControls() {
    const kept = keptScroll();
    window.requestAnimationFrame(() => (dom.decision.scrollTop = Math.min(kept, dom.decision.scrollHeight)));
    const root = G.clear(dom.controls);
    dom.decision.dataset.state = "idle";
    if (view.outcome) {
      dom.decision.dataset.state = "over";
      root.append(el("p", { class: "waiting", text: "The game is over." }));
      return;
    }
    if (view.seat === null) {
      root.append(el("p", { class: "muted", text: "You are watching: spectators see the table but cannot act." }));
      return;
    }
    const decision = view.decision;
    if (!view.legal_actions.length) {
      const waiting = decision.players.map((seat) => view.table.seats[seat].name).join(", ");
      const mine = decision.simultaneous && decision.committed.includes(view.seat) ? "Your choice is in. " : "";
      root.append(el("p", { class: "waiting", text: `${mine}Waiting for ${waiting || "the table"}.` }));
      return;
    }
    dom.decision.dataset.state = "act";
    const tree = G.actionTree(view.legal_actions);
    let node = G.treeNode(tree, path) || tree;
    // Steps with a single way forward (say, the only verb this step allows) are taken for the person.
    // (A step that would complete the action is always left to the person to click.)
    while (!node.action && node.children.size === 1 && node.children.values().next().value.action === null) {
      const [step, child] = node.children.entries().next().value;
      path.push(step);
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
          el("p", { class: "warning", text: view.action_warnings[confirming] }),
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
          path.map((step, i) => el("span", { class: "crumb" }, label(path.slice(0, i), step))),
          el("button", { type: "button", class: "back", onclick: goBack, disabled: sending !== null, "aria-keyshortcuts": "Backspace" }, "Back")
        )
      );
    }
    // When the renderer's dock already shows every choice as a thing to click (the cards of your hand, say), the
    // list here is only their names: the same cards drawn twice pushed the rest of the dock out of view.
    let inDock = false;
    try {
      inDock = Boolean(renderer.choicesInDock && renderer.choicesInDock(path, view, ctx));
    } catch (error) {
      console.error(error);
    }
    const choices = el("div", { class: inDock ? "choices in-dock" : "choices", role: "group", "aria-label": inDock ? "choices, also clickable above" : "choices" });
    const blocked = sending !== null || !live;
    let number = 0;
    // Moves in the very same words (two alike cards in a hand, say) are one choice to a person: the first
    // stands for all, and lists the others' actions in data-alike (so a tool can still find each one).
    const sameWords = new Map();
    for (const [step, child] of node.children) {
      const complete = child.action !== null && child.children.size === 0;
      const shown = inDock ? dockedLabel(path, step, complete ? child.action : null) : label(path, step, complete ? child.action : null);
      const text = typeof shown === "string" ? shown : shown.textContent || step;
      const warned = complete && view.action_warnings && view.action_warnings[child.action];
      const key = `${text}\n${warned || ""}`;
      if (complete && text !== child.action) {
        const first = sameWords.get(key);
        if (first) {
          first.alike.push(child.action);
          first.button.dataset.alike = JSON.stringify(first.alike);
          continue;
        }
      }
      number++;
      const button = choices.appendChild(
        el(
          "button",
          {
            type: "button",
            class: ["choice", complete ? "final" : "", warned ? "warned" : ""].join(" "),
            dataset: { token: step, action: complete ? child.action : "", key: number <= 9 ? String(number) : "" },
            title: complete ? text : "more choices follow",
            disabled: blocked,
            onclick: () => {
              if (complete) choose(child.action);
              else {
                path.push(step);
                drawControls();
                drawBoard();
              }
            },
          },
          number <= 9 ? el("kbd", { text: String(number), "aria-hidden": "true" }) : null,
          shown,
          complete ? null : el("span", { class: "visually-hidden", text: ", then more choices" })
        )
      );
      if (complete) sameWords.set(key, { button, alike: [child.action] });
    }
    if (node.action && node.children.size) {
      choices.append(
        el("button", { type: "button", class: "choice final", dataset: { action: node.action }, disabled: blocked, onclick: () => choose(node.action) }, wordsFor(node.action))
      );
    }
    root.append(choices);
    if (sending) root.append(el("p", { class: "muted", text: `Sending: ${wordsFor(sending)}…` }));
    if (hintsAllowed()) root.append(hintBox());
    root.append(typedActionForm());
  }

  /** Hints: for a seat whose every opponent is a bot, or at any table once the host allows them for everyone. */
  function hintsAllowed() {
    if (view.seat === null || view.outcome) return false;
    return view.table.hints || view.table.seats.every((row) => row.seat === view.seat || row.kind === "bot");
  }

  function hintBox() {
    const box = el("div", { class: "hint-box" });
    // A hint stands while its moves are still this seat's choices (other seats committing does not change them).
    const shown = hint && hint.moves.every((move) => view.legal_actions.includes(move.action)) ? hint : null;
    const button = el("button", { type: "button", class: "hint-button", disabled: hintPending, onclick: askHint }, hintPending ? "Thinking…" : "Hint");
    box.append(button, el("span", { class: "muted", text: " the search's three best moves, from what you can see" }));
    if (shown) {
      box.append(
        el(
          "ol",
          { class: "hint-moves", "aria-label": "suggested moves" },
          shown.moves.map((move) =>
            el(
              "li",
              {},
              el("span", { class: "hint-share", title: `${move.visits} tries of the search`, text: `wins about ${Math.round(move.win_share * 100)}%` }),
              el("button", { type: "button", class: "choice hint-move", dataset: { action: move.action }, onclick: () => choose(move.action) }, move.words)
            )
          )
        )
      );
    }
    return box;
  }

  async function askHint() {
    hintPending = true;
    drawControls();
    try {
      hint = await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/hint`, undefined, token);
    } catch (error) {
      showRefusal(error.message);
    } finally {
      hintPending = false;
      drawControls();
    }
  }

  /** A choice in words only: the component's name, or the action's words. */
  function plainLabel(token, action) {
    if (action) return wordsFor(action);
    const component = ctx.components.get(token);
    return component ? component.name : token;
  }

  /** A choice the dock also shows, in words only: a component's name, else the renderer's label as text. */
  function dockedLabel(prefix, token, action) {
    if (ctx.components.has(token)) return ctx.components.get(token).name;
    const made = label(prefix, token, action);
    return typeof made === "string" ? made : made.textContent || token;
  }

  function labelText(prefix, step) {
    const made = label(prefix, step, null);
    return typeof made === "string" ? made : made.textContent || step;
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
    drawBoard();
  }

  function typedActionForm() {
    const input = el("input", { type: "text", name: "action", autocomplete: "off", placeholder: view.legal_actions[0] || "", "aria-label": "action text" });
    const form = el(
      "form",
      {
        class: "typed",
        onsubmit: (event) => {
          event.preventDefault();
          if (input.value.trim()) choose(input.value.trim());
        },
      },
      input,
      el("button", { type: "submit", disabled: sending !== null }, "Send")
    );
    return el("details", { class: "typed-action" }, el("summary", { text: "Type an action" }), form);
  }

  // Keyboard: 1-9 choose, Backspace goes back (not while typing in a field).
  document.addEventListener("keydown", (event) => {
    if (!view || event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[1-9]$/.test(event.key)) {
      const button = dom.controls.querySelector(`.choices button[data-key="${event.key}"]`);
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
    } else if (event.key === "Backspace" && path.length) {
      event.preventDefault();
      goBack();
    }
  });

  let outcomeSeen = null;

  function drawOutcome() {
    const root = G.clear(dom.outcome);
    if (!view.outcome) {
      outcomeSeen = false;
      return;
    }
    // A game that ends while the page is open brings its final scores into view once (wherever the page was scrolled).
    const justEnded = outcomeSeen === false;
    outcomeSeen = true;
    if (justEnded) requestAnimationFrame(() => dom.outcome.scrollIntoView({ block: "start", behavior: "smooth" }));
    const actions = el("p", { class: "after-game" });
    actions.append(
      el("a", { href: `/tables/${encodeURIComponent(tableId)}/replay`, text: "Replay this game step by step" }),
      " · ",
      el("a", { href: `/api/tables/${encodeURIComponent(tableId)}/record`, download: "", text: "Download the record" }),
      " · ",
      el("a", { href: "/", text: "Back to the lobby" })
    );
    if (token || hostToken) {
      actions.append(" · ", el("button", { type: "button", class: "primary", onclick: rematch }, view.table.rematch ? "Go to the rematch" : "Play again (rematch)"));
    }
    root.append(G.outcomeChart(view.outcome, view.table), actions, reviewBox());
  }

  /** "Review this game": each seat's decisions against the best move found, made in the bot workers. */
  function reviewBox() {
    if (!reviewsChecked) {
      reviewsChecked = true;
      checkReviews();
    }
    const box = el("div", { class: "review-box" }, el("h2", { text: "Review this game" }));
    const list = el("ul", { class: "review-list" });
    for (const row of view.table.seats) {
      const state = reviews[row.seat];
      const item = el("li", { dataset: { seat: String(row.seat) } }, el("span", { class: "seat-label", text: row.name }), " ");
      if (state && state.status === "done") {
        item.append(el("a", { href: `/tables/${encodeURIComponent(tableId)}/reviews/${row.seat}`, class: "review-link", text: "open the review" }));
      } else if (state && state.status === "running") {
        const total = state.total || 1;
        item.append(el("progress", { max: String(total), value: String(state.done), "aria-label": `review of ${row.name}` }), el("span", { class: "muted", text: ` decision ${state.done} of ${state.total || "…"}` }));
      } else {
        item.append(el("button", { type: "button", class: "review-button", onclick: () => startReview(row.seat) }, "Review"));
        if (state && state.status === "failed") item.append(el("span", { class: "refusal-text", text: ` ${state.error}` }));
      }
      list.append(item);
    }
    box.append(el("p", { class: "muted", text: "Each decision of the seat is searched from what that player could see at the time; moves are labelled good, inaccuracy, mistake or blunder." }), list);
    return box;
  }

  async function checkReviews() {
    // One read for every seat (asking seat by seat logged a 404 in the console for each seat not reviewed yet).
    try {
      const answer = await G.api("GET", `/api/tables/${encodeURIComponent(tableId)}/reviews`);
      for (const item of answer.reviews) {
        if (item.status === "none") continue;
        reviews[item.seat] = item;
        if (item.status === "running") pollReview(item.seat);
      }
    } catch (error) {
      return; // the reviews cannot be read now: every seat keeps its Review button
    }
    drawOutcome();
  }

  async function startReview(seat) {
    try {
      reviews[seat] = await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/reviews/${seat}`);
    } catch (error) {
      showRefusal(error.message);
      return;
    }
    drawOutcome();
    pollReview(seat);
  }

  async function pollReview(seat) {
    while (reviews[seat] && reviews[seat].status === "running") {
      await new Promise((resolve) => setTimeout(resolve, 700));
      try {
        const answer = await G.api("GET", `/api/tables/${encodeURIComponent(tableId)}/reviews/${seat}`);
        reviews[seat] = answer.status === "done" ? { status: "done" } : answer;
      } catch (error) {
        reviews[seat] = { status: "failed", error: error.message };
      }
      drawOutcome();
    }
  }

  async function rematch() {
    try {
      const answer = await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, undefined, token || hostToken);
      const next = answer.link || answer.host_link || `/tables/${encodeURIComponent(answer.table.id)}`;
      window.location.assign(next);
    } catch (error) {
      showRefusal(error.message);
    }
  }

  function drawLog() {
    const lines = view.log;
    G.clear(dom.log).append(...lines.map((line, i) => el("li", { value: String(i + 1), text: line })).reverse());
  }

  function drawHelp() {
    G.clear(dom.help).append(...(view.help || "No help for this step.").split("\n\n").map((part) => el("p", { text: part })));
  }

  /** A new chat line while the chat is not open: shown for a while above the panels (a tap opens the chat). */
  function showToast(line) {
    G.clear(dom.chatToast).append(
      el("button", { type: "button", class: "toast-open", onclick: () => showPanel("chat") }, el("strong", { text: line.seat === null ? "Table: " : `${line.name}: ` }), line.text)
    );
    dom.chatToast.hidden = false;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(() => (dom.chatToast.hidden = true), 9000);
  }

  /** The table's own notices (seats given to a bot, taken back, resignations, closing) also stand in the log panel. */
  function drawTableNotes() {
    const notes = chatLines.filter((line) => line.seat === null);
    dom.tableNotes.hidden = notes.length === 0;
    G.clear(dom.tableNotes).append(
      ...notes
        .slice(-8)
        .reverse()
        .map((line) => el("li", {}, el("time", { datetime: new Date(line.at * 1000).toISOString(), text: clock(line.at) }), " ", line.text))
    );
  }

  function clock(seconds) {
    const when = new Date(seconds * 1000);
    return `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
  }

  function drawChat() {
    drawTableNotes();
    G.clear(dom.chat).append(
      ...chatLines.map((line) =>
        el("li", { class: line.seat === null ? "table-line" : "" }, el("strong", { text: `${line.name}: ` }), el("span", { text: line.text }))
      )
    );
    dom.chat.scrollTop = dom.chat.scrollHeight;
    const canWrite = view ? view.seat !== null : Boolean(token);
    dom.chatForm.hidden = !canWrite;
    dom.chatReadonly.hidden = canWrite;
    dom.chatUnread.hidden = unread === 0;
    dom.chatUnread.textContent = String(unread);
  }

  dom.chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = dom.chatText.value.trim();
    if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "chat", text, id: nextId++ }));
    dom.chatText.value = "";
  });

  // -- the Table panel: links, resign, the host's controls ---------------------------------------

  function linkBox(labelText, url) {
    const field = el("input", { type: "text", readonly: true, value: url, class: "link-field", "aria-label": labelText, onfocus: (event) => event.target.select() });
    const button = el("button", { type: "button", onclick: () => copy(field, button) }, "Copy");
    return el("div", { class: "link-box" }, el("span", { class: "link-label", text: labelText }), field, button);
  }

  /** Copy a link: the clipboard API where the page is a secure context, else the selected text field's copy command. */
  async function copy(field, button) {
    field.focus();
    field.select();
    let done = false;
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(field.value);
        done = true;
      } catch (error) {
        done = false;
      }
    }
    if (!done) {
      try {
        done = document.execCommand("copy");
      } catch (error) {
        done = false;
      }
    }
    button.textContent = done ? "Copied" : "Selected: press Ctrl+C";
    window.setTimeout(() => (button.textContent = "Copy"), 2500);
  }

  /** The bot level the person picked to take their seat if they resign (kept while the panel is drawn again). */
  let resignLevel = "medium";

  function drawTablePanel() {
    if (!view) return;
    const spectate = `${window.location.origin}/tables/${encodeURIComponent(tableId)}`;
    G.clear(dom.links).append(el("h2", { text: "Links" }), linkBox("Watch (no hidden cards)", spectate));
    if (token) dom.links.append(linkBox("Your seat (keep it to yourself)", `${spectate}#token=${token}`));
    G.clear(dom.seatControls);
    if (view.seat !== null && !view.outcome && !view.table.closed) {
      // The panel is drawn again at every view (a bot's move, a presence change): the level picked stays picked.
      const chosen = game.bots.includes(resignLevel) ? resignLevel : "medium";
      const level = el(
        "select",
        { "aria-label": "bot level that takes your seat", onchange: () => (resignLevel = level.value) },
        game.bots.map((name) => el("option", { value: name, text: name, selected: name === chosen }))
      );
      dom.seatControls.append(
        el("h2", { text: "Your seat" }),
        el(
          "p",
          {},
          "Leave the game and let a bot play on: ",
          level,
          " ",
          el("button", { type: "button", class: "danger", onclick: () => resign(level.value) }, "Resign")
        )
      );
    }
    drawHostControls();
  }

  async function resign(level) {
    if (!window.confirm(`Give your seat to a bot (${level}) and stop playing? You cannot take it back yourself.`)) return;
    try {
      await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/resign`, { bot: level }, token);
    } catch (error) {
      showRefusal(error.message);
    }
  }

  function drawHostControls() {
    // A question the host is reading stays where they read it when the panel is drawn again (a view or a presence
    // change arriving meanwhile could move it out of the window on a phone).
    const asking = dom.hostControls.querySelector(".host-confirm");
    const wasInView = asking !== null && inWindow(asking);
    const root = G.clear(dom.hostControls);
    try {
      fillHostControls(root);
    } finally {
      const again = root.querySelector(".host-confirm");
      if (again && (wasInView || !asking)) again.scrollIntoView({ block: "nearest" });
    }
  }

  function inWindow(node) {
    const box = node.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }

  function fillHostControls(root) {
    if (!hostToken || !view) return;
    root.append(el("h2", { text: "Host" }));
    const over = view.outcome || view.table.closed;
    if (hostConfirm && (over || !view.table.seats[hostConfirm.seat] || view.table.seats[hostConfirm.seat].kind !== "human")) hostConfirm = null;
    for (const row of view.table.seats) {
      const line = el("div", { class: "host-seat", dataset: { seat: String(row.seat) } }, el("strong", { text: row.seat === view.seat ? `${row.name} (you)` : row.name }));
      if (!over && hostConfirm && hostConfirm.seat === row.seat) {
        line.append(
          el(
            "div",
            { class: "confirm host-confirm", role: "alertdialog", "aria-label": `confirm: ${hostConfirm.label}` },
            el("p", { class: "warning", text: hostConfirm.text }),
            el("button", { type: "button", class: "danger host-yes", onclick: () => confirmHost() }, hostConfirm.label),
            " ",
            el("button", { type: "button", class: "host-no", onclick: () => { hostConfirm = null; drawHostControls(); } }, `Keep ${row.name}`)
          )
        );
      } else if (!over) {
        if (row.kind === "human") {
          // The level chosen stays chosen when the panel is drawn again (a view or a presence change arriving).
          const chosen = hostLevels[row.seat] || "medium";
          const level = el(
            "select",
            { "aria-label": `bot level for seat ${row.seat + 1}`, onchange: () => (hostLevels[row.seat] = level.value) },
            game.bots.map((name) => el("option", { value: name, text: name, selected: name === chosen }))
          );
          line.append(
            " ",
            level,
            el("button", { type: "button", class: "host-bot", onclick: () => askHost(row, "bot", `seats/${row.seat}/bot`, { bot: level.value }) }, "Give to a bot"),
            el("button", { type: "button", class: "host-link", onclick: () => askHost(row, "link", `seats/${row.seat}/person`, {}) }, "New link"),
            row.open ? null : el("button", { type: "button", class: "host-open", onclick: () => askHost(row, "open", `seats/${row.seat}/person`, { open: true }) }, "Open to anyone")
          );
        } else {
          line.append(" ", el("button", { type: "button", class: "host-person", onclick: () => host(`seats/${row.seat}/person`, {}, row) }, "Give to a person"));
        }
      }
      root.append(line);
    }
    root.append(el("div", { id: "host-new-link" }, hostNewLink ? linkBox(hostNewLink.label, hostNewLink.link) : null));
    if (!over) {
      const allow = el("input", { type: "checkbox", class: "host-hints", checked: view.table.hints, onchange: () => host("hints", { on: allow.checked }) });
      root.append(el("p", {}, el("label", {}, allow, " Allow hints for everyone (a hint shows a seat the search's best moves; without this, only a seat playing against bots alone may ask)")));
    }
    if (!over) root.append(el("p", {}, el("button", { type: "button", class: "danger host-close", onclick: closeTable }, "Close the table")));
  }

  /**
   * A host action that takes a seat from its person (to a bot, a new link, open to anyone). A person who has the table
   * open now, or the host's own seat, is asked about first: it takes effect at once and their link stops playing.
   */
  function askHost(row, what, pathPart, body) {
    const present = row.connected && !row.open;
    const yours = row.seat === view.seat;
    if (!present && !yours) {
      host(pathPart, body, what === "open" ? null : row);
      return;
    }
    const who = yours ? "You are" : `${row.name} is`;
    const after = yours ? "your link will only watch" : `${row.name}'s link will only watch`;
    const texts = {
      bot: [`${who} at the table now. Give the seat to a bot (${body.bot})? ${after} from then on.`, "Give it to a bot"],
      link: [`${who} at the table now. Make a new link for this seat? The old link stops working at once: ${after}.`, "Make a new link"],
      open: [`${who} at the table now. Open this seat to anyone? ${after}, and whoever takes it from the lobby plays on.`, "Open it to anyone"],
    };
    const [text, label] = texts[what];
    hostConfirm = { seat: row.seat, pathPart, body, row: what === "open" ? null : row, text, label };
    drawHostControls();
  }

  function confirmHost() {
    const asked = hostConfirm;
    hostConfirm = null;
    drawHostControls();
    if (asked) host(asked.pathPart, asked.body, asked.row);
  }

  async function host(pathPart, body, row) {
    try {
      const answer = await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/${pathPart}`, body, hostToken);
      if (answer.link && row) {
        hostNewLink = { label: `New link for seat ${row.seat + 1} (send it to its player)`, link: answer.link };
        drawHostControls();
      }
    } catch (error) {
      showRefusal(error.message);
    }
  }

  async function closeTable() {
    if (!window.confirm("Close the table for good? Nobody can play on.")) return;
    try {
      await G.api("POST", `/api/tables/${encodeURIComponent(tableId)}/close`, undefined, hostToken);
    } catch (error) {
      showRefusal(error.message);
    }
  }

  // -- panels ----------------------------------------------------------------------------------------

  function showPanel(name) {
    for (const tab of document.querySelectorAll(".side-tabs [role=tab]")) {
      const selected = tab.id === `tab-${name}`;
      tab.setAttribute("aria-selected", selected ? "true" : "false");
      document.getElementById(tab.getAttribute("aria-controls")).hidden = !selected;
    }
    if (name === "chat") {
      unread = 0;
      dom.chatToast.hidden = true;
      drawChat();
    }
  }
  for (const tab of document.querySelectorAll(".side-tabs [role=tab]")) tab.addEventListener("click", () => showPanel(tab.id.slice(4)));
  if (hostToken && !token) showPanel("table");

  dom.sound.checked = window.localStorage.getItem("greenlight.sound") === "on";
  dom.sound.addEventListener("change", () => window.localStorage.setItem("greenlight.sound", dom.sound.checked ? "on" : "off"));
  dom.notify.hidden = !("Notification" in window);
  dom.notify.addEventListener("click", async () => {
    const permission = await Notification.requestPermission();
    dom.notify.textContent = permission === "granted" ? "Notifications are on" : "Notifications are blocked in this browser";
  });

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
    /** What the seat's decision is about on the board (null when it has none). */
    subject() {
      return view && !view.outcome && view.legal_actions.length ? subjectNode() : null;
    },
  };
})();
