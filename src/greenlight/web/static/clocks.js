// The table page's clocks (every seat's time left, counting down, and what happens at zero), and, for a seat, its
// "your turn" notifications outside the tab (e-mail, push), pausing a turn-based table and marking oneself away.
// It draws beside the page (client.js): it reads the view's version from <body data-version> and the seat list.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const boot = G.boot();
  const tableId = boot.table_id;
  if (!tableId || boot.replay) return;
  const token = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("token");
  const base = `/api/tables/${encodeURIComponent(tableId)}`;
  let clock = null; // the last /clock answer
  let offset = 0; // server time minus this browser's time (seconds)
  let fetching = null;
  let again = false;

  /** Time left in words: 9:42 (live, under an hour), 5 h 12 min, 2 days 3 h. */
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

  function secondsLeft(entry) {
    if (!entry || entry.left_seconds === null || entry.left_seconds === undefined) return null;
    if (!entry.running) return entry.left_seconds;
    const now = Date.now() / 1000 + offset;
    return Math.max(0, entry.left_seconds - (now - clock.now));
  }

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = (async () => {
      try {
        const answer = await G.api("GET", `${base}/clock`);
        offset = answer.now - Date.now() / 1000;
        clock = answer;
        drawPace();
        drawClocks();
        drawControls();
        // The clocks follow a move a moment after it is shown: look again until they have caught up.
        const version = Number(document.body.dataset.version || "0");
        if (clock.timed && clock.version < version) window.setTimeout(refresh, 300);
      } catch (error) {
        console.error(error);
      } finally {
        fetching = null;
        if (again) {
          again = false;
          refresh();
        }
      }
    })();
  }

  function drawPace() {
    let line = document.getElementById("pace-line");
    if (!clock || !clock.timed) {
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = el("p", { id: "pace-line", class: "pace-line" });
      const status = document.getElementById("status");
      if (!status) return;
      status.after(line);
    }
    const paused = clock.paused ? " The table is paused: no deadline runs." : "";
    G.append(G.clear(line), [el("strong", { text: clock.pace.words }), ` ${clock.pace.timeout_words}${paused}`]);
  }

  /** Each seat's clock, in the seat list (client.js redraws the list: the clocks are put back each time). */
  function drawClocks() {
    if (!clock || !clock.timed) return;
    const live = clock.pace.kind === "live";
    for (const item of document.querySelectorAll("#seats li.seat")) {
      const entry = clock.seats[Number(item.dataset.seat)];
      let badge = item.querySelector(".seat-clock");
      if (!entry || !entry.timed) {
        if (badge) badge.remove();
        continue;
      }
      if (!badge) {
        badge = el("span", { class: "seat-clock", role: "timer" });
        item.append(badge);
      }
      const left = secondsLeft(entry);
      const away = entry.away ? ` · away (${entry.away.mode === "bot" ? "a bot decides" : "deadlines wait"})` : "";
      let text = "";
      if (left !== null && (live || entry.owes)) text = `${leftWords(left, live)}${entry.running ? "" : live ? "" : " (paused)"}`;
      else if (!live) text = "no deadline now";
      badge.textContent = text + away;
      badge.dataset.running = entry.running ? "yes" : "no";
      badge.dataset.low = left !== null && entry.running && left < (live ? 30 : 3600) ? "yes" : "no";
      badge.setAttribute("aria-label", `${live ? "time left" : "time to decide"}: ${badge.textContent}`);
    }
  }

  // -- a seat's own controls (the Table panel) ---------------------------------------------------------------

  let subscriptions = [];
  let offered = null;

  function panel() {
    let box = document.getElementById("pace-controls");
    if (!box) {
      const host = document.getElementById("panel-table");
      if (!host) return null;
      box = el("section", { id: "pace-controls", class: "pace-controls", "aria-label": "Your turn outside this tab" });
      host.append(box);
    }
    return box;
  }

  async function loadSubscriptions() {
    if (!token) return;
    try {
      offered = await G.api("GET", "/api/notify");
      subscriptions = (await G.api("GET", `${base}/notify`, undefined, token)).subscriptions;
    } catch (error) {
      subscriptions = [];
    }
    drawControls();
  }

  function say(text) {
    const note = document.getElementById("pace-note");
    if (note) note.textContent = text;
  }

  function drawControls() {
    const box = panel();
    if (!box) return;
    const parts = [el("h2", { text: "Your turn, outside this tab" })];
    if (!token) {
      parts.push(el("p", { class: "muted", text: "Open your seat link to be told of your turn by e-mail or on this device." }));
    } else if (offered) {
      if (subscriptions.length) {
        parts.push(
          el(
            "ul",
            { class: "link-list subscriptions" },
            subscriptions.map((sub) =>
              el(
                "li",
                {},
                `${sub.channel === "email" ? `E-mail to ${sub.to}` : "Push to a browser"}${sub.confirmed ? "" : " (waiting for the confirmation link sent there)"} `,
                el("button", { type: "button", class: "link-button", onclick: () => unsubscribe(sub.id) }, "Stop")
              )
            )
          )
        );
      }
      if (offered.email) {
        const input = el("input", { type: "email", id: "notify-email", autocomplete: "email", placeholder: "you@example.org" });
        parts.push(
          el(
            "form",
            { class: "notify-email", onsubmit: (event) => (event.preventDefault(), subscribe({ channel: "email", address: input.value })) },
            el("label", { for: "notify-email", text: "E-mail me when it is my turn" }),
            input,
            el("button", { type: "submit" }, "E-mail me")
          )
        );
      }
      if (offered.push && "serviceWorker" in navigator && "PushManager" in window) {
        parts.push(el("p", {}, el("button", { type: "button", id: "notify-push", onclick: subscribePush }, "Notify this device when it is my turn")));
      }
      if (!offered.email && !offered.push) parts.push(el("p", { class: "muted", text: "This server sends no e-mail or push notifications." }));
    }
    if (token && clock && clock.timed && !document.body.dataset.over?.startsWith("y")) {
      const turnBased = clock.pace.kind === "turn";
      if (turnBased) {
        parts.push(
          el(
            "p",
            {},
            clock.paused
              ? el("button", { type: "button", id: "pause-end", onclick: () => pause(false) }, "End the pause")
              : el("button", { type: "button", id: "pause-ask", onclick: () => pause(true) }, "Ask to pause the table"),
            clock.pause_votes.length && !clock.paused ? el("span", { class: "muted", text: ` ${clock.pause_votes.length} asked so far` }) : null
          )
        );
      }
      const days = el("select", { id: "away-days", "aria-label": "Away for" }, [1, 3, 7, 14].map((n) => el("option", { value: String(n), text: `${n} day${n > 1 ? "s" : ""}` })));
      parts.push(
        el(
          "p",
          { class: "away" },
          el("label", { for: "away-days", text: "Away for " }),
          days,
          turnBased ? el("button", { type: "button", onclick: () => away("extend", days.value) }, "My deadlines wait") : null,
          el("button", { type: "button", onclick: () => away("bot", days.value) }, "A bot decides for me"),
          el("button", { type: "button", onclick: () => away(null, 1) }, "I am back")
        )
      );
    }
    parts.push(el("p", {}, el("a", { href: "/my-tables" }, "My tables: where it is my turn")));
    parts.push(el("p", { id: "pace-note", class: "notice", role: "status" }));
    const note = document.getElementById("pace-note");
    const kept = note ? note.textContent : "";
    G.append(G.clear(box), parts);
    say(kept);
  }

  async function subscribe(body) {
    try {
      subscriptions = (await G.api("POST", `${base}/notify`, body, token)).subscriptions;
      drawControls();
      say(body.channel === "email" ? "A confirmation link is on its way to that address." : "This device will be told when it is your turn.");
    } catch (error) {
      say(error.message);
    }
  }

  async function unsubscribe(id) {
    try {
      subscriptions = (await G.api("DELETE", `${base}/notify/${encodeURIComponent(id)}`, undefined, token)).subscriptions;
      drawControls();
      say("Stopped.");
    } catch (error) {
      say(error.message);
    }
  }

  function keyBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  /** Register the service worker, subscribe this browser to push with the server's key, and send the subscription. */
  async function subscribePush() {
    try {
      say("Asking this browser…");
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      document.body.dataset.serviceWorker = registration.active ? "active" : "installing";
      if (window.Notification && Notification.permission !== "granted" && (await Notification.requestPermission()) !== "granted") {
        say("This browser does not allow notifications from this site (see its site settings).");
        return;
      }
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(offered.push_key) });
      await subscribe({ channel: "push", subscription: subscription.toJSON() });
    } catch (error) {
      console.error(error);
      say(`This browser could not subscribe to push notifications (${error.message}).`);
    }
  }

  async function pause(on) {
    try {
      clock = await G.api("POST", `${base}/clock/pause`, { pause: on }, token);
      drawPace();
      drawClocks();
      drawControls();
    } catch (error) {
      say(error.message);
    }
  }

  async function away(mode, days) {
    try {
      clock = await G.api("POST", `${base}/clock/away`, { mode, days: Number(days) }, token);
      drawClocks();
      drawControls();
      say(mode ? "Noted: you are away." : "Welcome back.");
    } catch (error) {
      say(error.message);
    }
  }

  // -- following the page ---------------------------------------------------------------------------------------

  let seenVersion = null;
  new MutationObserver(() => {
    const version = document.body.dataset.version;
    if (version !== seenVersion) {
      seenVersion = version;
      refresh();
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
  const watchSeats = () => {
    const seats = document.getElementById("seats");
    if (seats) new MutationObserver(() => drawClocks()).observe(seats, { childList: true });
    const chat = document.getElementById("chat");
    // The table's own notices (a pause, an absence, a time-out) come as chat lines: the clocks may have changed.
    if (chat) new MutationObserver(() => refresh()).observe(chat, { childList: true });
  };
  watchSeats();
  window.setInterval(() => {
    if (clock && clock.timed) drawClocks();
  }, 1000);
  loadSubscriptions();
  G.clockPage = {
    get clock() {
      return clock;
    },
  };
})();
