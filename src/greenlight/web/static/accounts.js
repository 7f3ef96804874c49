// Accounts on every page: who is signed in (top bar); the account page; quick play and tables waiting in the lobby;
// rating lines on profiles. Playing never needs an account: all of this only adds to seat links.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  let me = null; // {name, email, csrf} when signed in

  /** The JSON API with the session's CSRF token on every change (the cookie goes by itself). */
  function call(method, url, body, extraHeaders) {
    const headers = { ...(extraHeaders || {}) };
    if (me && method !== "GET") headers["X-CSRF-Token"] = me.csrf;
    return G.api(method, url, body, null, headers);
  }

  async function whoAmI() {
    try {
      const answer = await call("GET", "/api/accounts/me");
      me = answer.signed_in ? answer : null;
    } catch (error) {
      me = null;
    }
    return me;
  }

  // -- the top bar -------------------------------------------------------------------------------------

  function drawNav() {
    const topbar = document.querySelector(".topbar");
    if (!topbar) return;
    let nav = document.getElementById("account-nav");
    if (!nav) {
      nav = el("nav", { id: "account-nav", class: "account-nav", "aria-label": "Account" });
      topbar.append(nav);
    }
    G.clear(nav);
    nav.append(el("a", { href: "/leaderboard", text: "Leaderboard" }));
    if (me) {
      nav.append(el("a", { href: `/players/${encodeURIComponent(me.name)}`, text: me.name, class: "account-name" }));
      nav.append(el("a", { href: "/account", text: "Account" }));
    } else {
      nav.append(el("a", { href: "/account", text: "Sign in" }));
    }
  }

  // -- the account page -----------------------------------------------------------------------------------

  function formError(form, error) {
    const box = form.querySelector(".refusal");
    if (!box) return;
    box.textContent = error ? error.message : "";
    box.hidden = !error;
  }

  function wireForm(form, send) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      formError(form, null);
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        await send(Object.fromEntries(new FormData(form).entries()));
      } catch (error) {
        formError(form, error);
      } finally {
        button.disabled = false;
      }
    });
  }

  function resetToken() {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    return params.get("reset");
  }

  async function drawAccountPage() {
    const signedOut = document.getElementById("signed-out");
    const signedIn = document.getElementById("signed-in");
    if (!signedOut || !signedIn) return;
    const resetting = Boolean(resetToken());
    document.getElementById("reset-password").hidden = !resetting;
    signedOut.hidden = Boolean(me) || resetting;
    signedIn.hidden = !me || resetting;
    if (!me) return;
    document.getElementById("account-name").textContent = me.name;
    document.getElementById("profile-link").href = `/players/${encodeURIComponent(me.name)}`;
    const { seats } = await call("GET", "/api/accounts/me/seats");
    const list = G.clear(document.getElementById("account-seats"));
    for (const seat of seats) {
      const state = seat.finished_at === null ? "being played" : seat.won ? "won" : `place ${seat.place} of ${seat.players}`;
      list.append(
        el(
          "li",
          {},
          seat.link ? el("a", { href: seat.link, text: `${seat.title}, seat ${seat.seat + 1}` }) : `${seat.title}, seat ${seat.seat + 1}`,
          el("span", { class: "muted", text: ` · ${state}` })
        )
      );
    }
    document.getElementById("no-seats").hidden = seats.length > 0;
    // Seat links this browser holds that the account does not keep yet.
    const kept = new Set(seats.map((seat) => `${seat.table}/${seat.seat}`));
    // Only seat links (not host links), and only those the person ticks: a table's creator holds every seat's link.
    const local = G.rememberedSeats().filter((item) => item.link && item.seat !== null && item.seat !== undefined && !kept.has(`${item.table}/${item.seat}`));
    const claimBox = document.getElementById("claim-box");
    claimBox.hidden = local.length === 0;
    const claimList = G.clear(document.getElementById("claim-list"));
    const boxes = local.map((item) => {
      const box = el("input", { type: "checkbox", value: item.link });
      const label = item.label || `${item.title || "Table " + item.table}, seat ${item.seat + 1}${item.name ? ` (${item.name})` : ""}`;
      claimList.append(el("li", {}, el("label", {}, box, " ", label)));
      return box;
    });
    document.getElementById("claim-button").onclick = async () => {
      const result = document.getElementById("claim-result");
      const links = boxes.filter((box) => box.checked).map((box) => box.value);
      if (!links.length) {
        result.textContent = "Tick the seats that are yours first.";
        result.hidden = false;
        return;
      }
      try {
        const { claimed } = await call("POST", "/api/accounts/me/seats", { links });
        const kept = claimed.filter((item) => item.claimed).length;
        result.textContent = `${kept} of ${claimed.length} seat${claimed.length === 1 ? "" : "s"} kept with your account.`;
        result.hidden = false;
        await drawAccountPage();
      } catch (error) {
        result.textContent = error.message;
        result.hidden = false;
      }
    };
  }

  function wireAccountPage() {
    const signIn = document.getElementById("sign-in-form");
    if (!signIn) return;
    wireForm(signIn, async (fields) => {
      me = await call("POST", "/api/accounts/session", { name: fields.name, password: fields.password });
      await whoAmI();
      drawNav();
      await drawAccountPage();
    });
    document.getElementById("forgotten-button").addEventListener("click", async () => {
      const result = document.getElementById("forgotten-result");
      const name = signIn.querySelector("input[name=forgotten_name]").value || signIn.querySelector("input[name=name]").value;
      try {
        const answer = await call("POST", "/api/accounts/password-reset", { name });
        result.textContent = answer.sent.charAt(0).toUpperCase() + answer.sent.slice(1) + ".";
      } catch (error) {
        result.textContent = error.message;
      }
      result.hidden = false;
    });
    wireForm(document.getElementById("reset-form"), async (fields) => {
      await call("POST", "/api/accounts/password-reset/confirm", { token: resetToken(), new_password: fields.new_password });
      window.history.replaceState(null, "", "/account");
      await whoAmI();
      drawNav();
      await drawAccountPage();
    });
    wireForm(document.getElementById("sign-up-form"), async (fields) => {
      await call("POST", "/api/accounts", { name: fields.name, password: fields.password, email: fields.email || null });
      await whoAmI();
      drawNav();
      await drawAccountPage();
    });
    wireForm(document.getElementById("password-form"), async (fields) => {
      await call("POST", "/api/accounts/me/password", { password: fields.password, new_password: fields.new_password });
      document.getElementById("password-form").reset();
      formError(document.getElementById("password-form"), new Error("The password is changed."));
    });
    wireForm(document.getElementById("delete-form"), async (fields) => {
      if (!window.confirm("Delete your account for good? Your name leaves every past game; your ratings go.")) return;
      await call("DELETE", "/api/accounts/me", { password: fields.password });
      me = null;
      window.location.href = "/";
    });
    for (const [id, everywhere] of [["sign-out", false], ["sign-out-everywhere", true]]) {
      document.getElementById(id).addEventListener("click", async () => {
        await call("DELETE", `/api/accounts/session?everywhere=${everywhere}`);
        me = null;
        drawNav();
        await drawAccountPage();
      });
    }
  }

  // -- the lobby: play now (quick play) and tables waiting for players --------------------------------------

  const SEEK_KEY = "greenlight.seeking";
  let seeking = null; // {id, key, since, botAfter}
  let pollTimer = null;

  function gamesList() {
    return (G.boot().games || []).filter((game) => game.id);
  }

  function drawPlayNow() {
    const box = document.getElementById("play-now");
    if (!box) return;
    G.clear(box);
    box.append(el("h2", { text: "Play now" }));
    if (seeking) return drawSeeking(box);
    const games = gamesList();
    const game = el("select", { name: "game", "aria-label": "Game" }, games.map((item) => el("option", { value: item.id, text: item.title })));
    const players = el("select", { name: "players", "aria-label": "Players" });
    function fillPlayers() {
      const item = games.find((entry) => entry.id === game.value) || games[0];
      G.clear(players);
      players.append(el("option", { value: "", text: "any number" }));
      for (let n = item.min_players; n <= item.max_players; n++) players.append(el("option", { value: String(n), text: `${n} players` }));
    }
    game.addEventListener("change", fillPlayers);
    fillPlayers();
    const rated = el("input", { type: "checkbox", name: "rated", disabled: !me });
    const wait = el(
      "select",
      { name: "bot_after", "aria-label": "Offer bots after" },
      [30, 60, 120, 300].map((seconds) => el("option", { value: String(seconds), text: seconds < 60 ? `${seconds} s` : `${seconds / 60} min` }))
    );
    const name = el("input", { name: "name", maxlength: "40", placeholder: "Your name", autocomplete: "nickname", value: me ? me.name : "", disabled: Boolean(me) });
    const error = el("p", { class: "refusal", role: "alert", hidden: true });
    const form = el(
      "form",
      { class: "play-now-form" },
      el("label", {}, "Game ", game),
      el("label", {}, "Table of ", players),
      me ? null : el("label", {}, "Name ", name),
      el("label", { class: "rated-choice" }, rated, me ? " Rated (signed-in players only)" : " Rated (sign in first)"),
      el("label", {}, "Offer bots after ", wait),
      el(
        "p",
        { class: "play-now-buttons" },
        el("button", { type: "submit", class: "primary", text: "Find players" }),
        el("button", { type: "button", class: "open-table", text: "Open a table in the lobby" })
      ),
      error
    );
    async function ask(path) {
      error.hidden = true;
      const body = { game: game.value, players: players.value ? Number(players.value) : null, rated: rated.checked, name: me ? null : name.value || null };
      try {
        const answer = await call("POST", path, body);
        seeking = { id: answer.id, key: answer.key, since: Date.now(), botAfter: Number(wait.value) * 1000 };
        window.sessionStorage.setItem(SEEK_KEY, JSON.stringify(seeking));
        drawPlayNow();
        poll();
      } catch (failure) {
        error.textContent = failure.message;
        error.hidden = false;
      }
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      ask("/api/quickplay");
    });
    form.querySelector(".open-table").addEventListener("click", () => ask("/api/gatherings"));
    box.append(form);
  }

  function drawSeeking(box, gathering) {
    const status = el("p", { class: "seeking-status", role: "status" });
    if (gathering) {
      const names = gathering.members.map((member) => member.name + (member.rating ? ` (${member.rating.rating.toFixed(1)})` : "")).join(", ");
      status.textContent = `${gathering.title}${gathering.rated ? ", rated" : ""}: ${gathering.members.length} of ${gathering.players} players (${names}). Waiting for more…`;
    } else {
      status.textContent = "Looking for players…";
    }
    box.append(status);
    const buttons = el("p", { class: "play-now-buttons" });
    if (gathering && !gathering.rated && Date.now() - seeking.since >= seeking.botAfter) {
      buttons.append(
        el("button", {
          type: "button",
          class: "primary",
          text: "Start now with bots in the empty seats",
          onclick: async () => {
            try {
              const answer = await call("POST", `/api/gatherings/${seeking.id}/bots`, undefined, { "X-Seeker": seeking.key });
              arrived(answer);
            } catch (failure) {
              status.textContent = failure.message;
            }
          },
        })
      );
    }
    buttons.append(
      el("button", {
        type: "button",
        text: "Stop waiting",
        onclick: async () => {
          await call("DELETE", `/api/gatherings/${seeking.id}`, undefined, { "X-Seeker": seeking.key }).catch(() => null);
          stopSeeking();
        },
      })
    );
    box.append(buttons);
  }

  function stopSeeking() {
    seeking = null;
    window.sessionStorage.removeItem(SEEK_KEY);
    if (pollTimer) window.clearTimeout(pollTimer);
    pollTimer = null;
    drawPlayNow();
  }

  function arrived(gathering) {
    if (gathering && gathering.link) {
      G.rememberSeat({ link: gathering.link, table: gathering.table, seat: gathering.seat, label: `${gathering.title}, seat ${gathering.seat + 1}` });
      window.sessionStorage.removeItem(SEEK_KEY);
      window.location.href = gathering.link;
      return true;
    }
    return false;
  }

  async function poll() {
    if (!seeking) return;
    try {
      const gathering = await call("GET", `/api/gatherings/${seeking.id}`, undefined, { "X-Seeker": seeking.key });
      if (arrived(gathering)) return;
      if (gathering.status === "gone") return stopSeeking();
      const box = G.clear(document.getElementById("play-now"));
      box.append(el("h2", { text: "Play now" }));
      drawSeeking(box, gathering);
    } catch (error) {
      if (error.status === 404) return stopSeeking();
    }
    pollTimer = window.setTimeout(poll, 1500);
  }

  async function drawWaiting() {
    const box = document.getElementById("waiting-tables");
    if (!box) return;
    let gatherings = [];
    try {
      ({ gatherings } = await call("GET", "/api/gatherings"));
    } catch (error) {
      return;
    }
    G.clear(box);
    box.append(el("h2", { text: "Join a table" }));
    if (!gatherings.length) {
      box.append(el("p", { class: "muted", text: "Nobody is gathering players now. “Open a table in the lobby” (in Play now) lists yours here for anyone to join." }));
      return;
    }
    const list = el("ul", { class: "link-list waiting-list" });
    for (const gathering of gatherings) {
      const who = gathering.members.map((member) => member.name + (member.rating ? ` ${member.rating.rating.toFixed(1)}${member.rating.provisional ? "?" : ""}` : "")).join(", ");
      const options = Object.entries(gathering.options || {}).filter(([, value]) => value).map(([key]) => G.humanize(key)).join(", ");
      list.append(
        el(
          "li",
          { dataset: { gathering: gathering.id } },
          el("strong", { text: gathering.title }),
          ` · ${gathering.members.length} of ${gathering.players} players${gathering.rated ? " · rated" : ""}${options ? ` · ${options}` : ""} · ${who}`,
          seeking && seeking.id === gathering.id
            ? el("span", { class: "muted", text: " (you are here)" })
            : el("button", {
                type: "button",
                text: "Join",
                disabled: (gathering.rated && !me) || Boolean(seeking),
                title: gathering.rated && !me ? "Rated tables are for signed-in players" : null,
                onclick: async () => {
                  try {
                    const answer = await call("POST", `/api/gatherings/${gathering.id}/join`, { name: me ? null : "Guest" });
                    seeking = { id: answer.id, key: answer.key, since: Date.now(), botAfter: 120000 };
                    window.sessionStorage.setItem(SEEK_KEY, JSON.stringify(seeking));
                    if (!arrived(answer)) {
                      drawPlayNow();
                      poll();
                    }
                  } catch (error) {
                    window.alert(error.message);
                  }
                },
              })
        )
      );
    }
    box.append(list);
  }

  // -- profiles: a line of the rating after each rated game --------------------------------------------------

  function drawSparklines() {
    const profile = G.boot().profile;
    if (!profile) return;
    for (const time of document.querySelectorAll("time.local-date")) {
      const seconds = Number(time.getAttribute("datetime"));
      if (seconds) time.textContent = new Date(seconds * 1000).toLocaleDateString();
    }
    for (const svg of document.querySelectorAll("svg.sparkline")) {
      const points = profile.history.filter((entry) => entry.game === svg.dataset.game).reverse();
      if (points.length < 1) continue;
      const values = points.map((entry) => entry.rating);
      const low = Math.min(...values, 0);
      const high = Math.max(...values, 1);
      const x = (index) => (points.length === 1 ? 60 : 4 + (112 * index) / (points.length - 1));
      const y = (value) => 24 - (20 * (value - low)) / (high - low || 1);
      const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
      line.setAttribute("points", values.map((value, index) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(" "));
      line.setAttribute("class", "spark");
      svg.append(line);
      const last = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      last.setAttribute("cx", x(values.length - 1).toFixed(1));
      last.setAttribute("cy", y(values[values.length - 1]).toFixed(1));
      last.setAttribute("r", "2.5");
      last.setAttribute("class", "spark-point");
      svg.append(last);
    }
  }

  // -- start --------------------------------------------------------------------------------------------------

  async function start() {
    await whoAmI();
    drawNav();
    wireAccountPage();
    await drawAccountPage().catch(() => null);
    try {
      seeking = JSON.parse(window.sessionStorage.getItem(SEEK_KEY) || "null");
    } catch (error) {
      seeking = null;
    }
    drawPlayNow();
    if (seeking) poll();
    drawWaiting();
    if (document.getElementById("waiting-tables")) window.setInterval(drawWaiting, 5000);
    drawSparklines();
  }

  G.account = () => me;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
