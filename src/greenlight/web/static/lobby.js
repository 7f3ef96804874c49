// The lobby: pick a game, players, options and seats; create the table; list the tables of this server.
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const games = G.boot().games || [];
  const form = document.getElementById("create-form");
  const gameChoices = document.getElementById("game-choices");
  const playerCount = document.getElementById("player-count");
  const seatList = document.getElementById("seat-list");
  const optionList = document.getElementById("option-list");
  const createError = document.getElementById("create-error");
  const created = document.getElementById("created");
  let game = games[0] || null;
  // A position read from a file (docs/positions.md): it fixes the game, the number of players and the options.
  let position = null;
  const positionFile = document.getElementById("position-file");
  const positionNote = document.getElementById("position-note");

  // -- the form -------------------------------------------------------------------------------------

  function drawGames() {
    G.clear(gameChoices);
    for (const item of games) {
      const input = el("input", { type: "radio", name: "game", value: item.id, checked: item === game, onchange: () => selectGame(item) });
      gameChoices.append(
        el(
          "label",
          { class: "game-choice", dataset: { game: item.id } },
          input,
          el("span", { class: "game-title", text: item.title }),
          el("span", { class: "game-players", text: `${item.min_players}–${item.max_players} players` }),
          el("span", { class: "game-summary", text: item.summary })
        )
      );
    }
    if (!games.length) gameChoices.append(el("p", { text: "No game is installed." }));
  }

  function selectGame(item) {
    game = item;
    G.clear(optionList); // another game's values (two games may share an option's name) must not carry over
    const rules = G.clear(document.getElementById("game-rules"));
    if (item.rules) {
      rules.append(
        el(
          "details",
          { class: "rules-panel", dataset: { game: item.id } },
          el("summary", { text: `How to play ${item.title}` }),
          el("div", { class: "rules-text", text: "Loading…" }),
          el("p", {}, el("a", { href: `/games/${encodeURIComponent(item.id)}/rules`, target: "_blank", rel: "noopener", text: "Open the rules on their own page" }))
        )
      );
      G.wireRulesPanels(rules);
    }
    G.clear(playerCount);
    for (let n = item.min_players; n <= item.max_players; n++) playerCount.append(el("option", { value: String(n), text: String(n) }));
    drawSeats();
    drawOptions();
  }

  function drawSeats() {
    const count = Number(playerCount.value);
    const old = [...seatList.querySelectorAll("li")].map(readSeat);
    G.clear(seatList);
    for (let seat = 0; seat < count; seat++) {
      const previous = old[seat] || (seat === 0 ? { kind: "human", name: "" } : { kind: "bot", bot: defaultBot() });
      // The operator's trained policies (greenlight serve --policy), each offered for the player count it was trained for.
      const policies = (game.policies || []).filter((policy) => policy.players === count);
      if (previous.kind === "bot" && !game.bots.includes(previous.bot) && !policies.some((policy) => policy.bot === previous.bot)) previous.bot = defaultBot();
      const choice = el("select", { name: `seat-${seat}`, class: "seat-kind", "aria-label": `seat ${seat + 1} player` });
      choice.append(el("option", { value: "human", text: "Person", selected: previous.kind === "human" && !previous.open }));
      choice.append(el("option", { value: "open", text: "Open: anyone may take it", selected: previous.open === true }));
      for (const level of game.bots) choice.append(el("option", { value: `bot:${level}`, text: `Bot: ${level}`, selected: previous.kind === "bot" && previous.bot === level }));
      for (const policy of policies) {
        const text = `${policy.label} (${count} players${policy.note ? `, ${policy.note}` : ""})`;
        choice.append(el("option", { value: `bot:${policy.bot}`, text, selected: previous.kind === "bot" && previous.bot === policy.bot }));
      }
      const name = el("input", { type: "text", class: "seat-name", maxlength: "40", placeholder: "name (optional)", value: previous.name || "", "aria-label": `seat ${seat + 1} name` });
      const sync = () => (name.hidden = choice.value !== "human");
      choice.addEventListener("change", sync);
      sync();
      seatList.append(el("li", { dataset: { seat: String(seat) } }, el("span", { class: "seat-label", text: `Player ${seat + 1}` }), choice, name));
    }
    drawOptions();
  }

  function defaultBot() {
    // The strongest-sounding level the game offers that is not "random", else random.
    const preferred = ["medium", "heuristic", "easy"];
    return preferred.find((level) => game.bots.includes(level)) || game.bots[0] || "random";
  }

  function readSeat(li) {
    const value = li.querySelector("select").value;
    if (value === "human") return { kind: "human", name: li.querySelector("input").value.trim() || null };
    if (value === "open") return { kind: "human", open: true };
    return { kind: "bot", bot: value.slice(4) };
  }

  function drawOptions() {
    const count = Number(playerCount.value);
    const before = readOptions();
    G.clear(optionList);
    if (!game.options.length) optionList.append(el("p", { class: "muted", text: "This game has no options." }));
    for (const option of game.options) {
      const allowed = option.allowed_players === null || option.allowed_players.includes(count);
      const value = option.name in before ? before[option.name] : option.default;
      let input;
      if (option.kind === "bool") {
        input = el("input", { type: "checkbox", name: option.name, checked: allowed && value === true, disabled: !allowed });
      } else if (option.kind === "choice") {
        input = el("select", { name: option.name, disabled: !allowed }, option.choices.map((c) => el("option", { value: c, text: c, selected: c === value })));
      } else {
        input = el("input", { type: "number", name: option.name, value: String(value ?? ""), min: option.minimum ?? null, max: option.maximum ?? null, disabled: !allowed });
      }
      const note = allowed ? null : el("span", { class: "muted", text: ` (only with ${option.allowed_players.join(" or ")} players)` });
      optionList.append(
        el("label", { class: "option", dataset: { option: option.name } }, input, el("span", { class: "option-name" }, G.humanize(option.name), note), el("span", { class: "option-help", text: option.help }))
      );
    }
  }

  function readOptions() {
    const options = {};
    if (!game) return options;
    for (const option of game.options) {
      const input = optionList.querySelector(`[name="${CSS.escape(option.name)}"]`);
      if (!input || input.disabled) continue;
      if (option.kind === "bool") options[option.name] = input.checked;
      else if (option.kind === "int") options[option.name] = Number(input.value);
      else options[option.name] = input.value;
    }
    return options;
  }

  playerCount.addEventListener("change", drawSeats);

  positionFile.addEventListener("change", async () => {
    position = null;
    positionNote.hidden = true;
    const file = positionFile.files[0];
    if (!file) return drawPositionChoice();
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch (error) {
      positionFile.value = "";
      return showPositionNote(`${file.name} is not a position: it is not JSON (${error.message}).`);
    }
    const named = games.find((item) => item.id === data.game) || (data.game === undefined ? game : null);
    if (!named || typeof data !== "object" || Array.isArray(data)) {
      positionFile.value = "";
      return showPositionNote(`${file.name} is not a position of a game this server offers.`);
    }
    position = data;
    if (named !== game) selectGame(named);
    drawGames();
    if (Number.isInteger(data.num_players)) {
      playerCount.value = String(data.num_players);
      drawSeats();
    }
    drawPositionChoice();
    showPositionNote(`${named.title} from the position in ${file.name}, ${data.num_players} players. You know every hidden card in it; the table will say so.`);
  });

  function showPositionNote(text) {
    positionNote.hidden = false;
    positionNote.textContent = text;
  }

  /** With a position, the game, the number of players and the options come from it. */
  function drawPositionChoice() {
    const fixed = position !== null;
    playerCount.disabled = fixed;
    for (const input of gameChoices.querySelectorAll("input")) input.disabled = fixed && input.value !== game.id;
    document.getElementById("option-fieldset").disabled = fixed;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    createError.hidden = true;
    const seats = [...seatList.querySelectorAll("li")].map(readSeat);
    const button = document.getElementById("create-button");
    button.disabled = true;
    try {
      const body = position ? { game: game.id, seats, position } : { game: game.id, seats, options: readOptions() };
      const pace = G.readPace ? G.readPace() : null; // pace.js: the Pace fieldset
      if (pace) body.pace = pace;
      const answer = await G.api("POST", position ? "/api/positions/tables" : "/api/tables", body);
      showCreated(answer);
      refreshTables();
    } catch (error) {
      createError.hidden = false;
      G.clear(createError).append(el("strong", { text: "Not created: " }), error.message);
    } finally {
      button.disabled = false;
    }
  });

  function showCreated(answer) {
    const table = answer.table;
    const humans = answer.seats.filter((seat) => seat.kind === "human");
    // The creator plays the first person's seat (Player 1 of the form): its link here also carries the host's key, so
    // the creator's own seat page has the host's controls. The copied links never do.
    const hostKey = new URLSearchParams((answer.host_link || "").split("#")[1] || "").get("host");
    const own = humans.find((seat) => seat.link) || null;
    const ownLink = own && hostKey ? `${own.link}&host=${encodeURIComponent(hostKey)}` : null;
    for (const seat of humans) {
      if (seat.link) G.rememberSeat({ link: seat === own && ownLink ? ownLink : seat.link, table: table.id, title: table.title, seat: seat.seat, name: seat.name });
    }
    created.hidden = false;
    G.clear(created).append(
      el("h2", { text: `${table.title}: your table is ready` }),
      el("p", { text: "Each link below is the key to one seat: open yours, and send each other person theirs. The links are shown only now (this browser remembers them under “Your seats”)." }),
      el(
        "ul",
        { class: "link-list invite-links" },
        humans
          .filter((seat) => seat.link)
          .map((seat) =>
            el(
              "li",
              { dataset: { seat: String(seat.seat) } },
              el("span", { class: "seat-label", text: seat.name }),
              el("a", { href: seat === own && ownLink ? ownLink : seat.link, class: "seat-link", text: seat === own && ownLink ? "play this seat (as the host)" : "play this seat" }),
              copyButton(seat.link)
            )
          ),
        el("li", {}, el("span", { class: "seat-label", text: "Spectators" }), el("a", { href: answer.spectator_link, class: "spectator-link", text: "watch" }), copyButton(answer.spectator_link)),
        el(
          "li",
          { class: "host-line" },
          el("span", { class: "seat-label", text: "Host" }),
          el("a", { href: answer.host_link, class: "host-link", text: "manage the table" }),
          copyButton(answer.host_link),
          el("span", { class: "muted", text: "Keep this one: it can give an absent person's seat to a bot, make a new link for a seat, or close the table (your own seat's page has these controls too, under Table)." })
        )
      ),
      el("p", { class: "muted", text: table.from_position ? "This table starts from your position: you know every hidden card in it, and the table says so." : "No seed was chosen, so nobody, you included, can know the deal before the end." })
    );
    G.rememberSeat({ link: answer.host_link, table: table.id, title: table.title, seat: null, name: "host" });
    drawMySeats();
    created.scrollIntoView({ block: "nearest" });
  }

  /** Copy a link: the clipboard where the page is a secure context, else select it in a field for Ctrl+C (plain http on a LAN). */
  function copyButton(text) {
    return el("button", {
      type: "button",
      class: "copy",
      onclick: async (event) => {
        const button = event.target;
        if (navigator.clipboard && window.isSecureContext) {
          try {
            await navigator.clipboard.writeText(text);
            button.textContent = "copied";
            return;
          } catch (error) {
            /* fall through to the field */
          }
        }
        const field = el("input", { type: "text", readonly: true, value: text, class: "link-field", "aria-label": "link to copy" });
        button.replaceWith(field);
        field.focus();
        field.select();
        let copied = false;
        try {
          copied = document.execCommand("copy");
        } catch (error) {
          copied = false;
        }
        field.after(el("span", { class: "muted", text: copied ? " copied" : " selected: press Ctrl+C" }));
      },
    }, "copy link");
  }

  // -- lists --------------------------------------------------------------------------------------

  function drawMySeats() {
    const list = G.clear(document.getElementById("my-seat-list"));
    const items = G.rememberedSeats();
    if (!items.length) list.append(el("li", { class: "muted", text: "none yet" }));
    for (const item of items) {
      list.append(
        el(
          "li",
          {},
          el("a", { href: item.link, text: `${item.title} · table ${item.table} · ${item.seat === null || item.seat === undefined ? "host link" : item.name || `seat ${item.seat + 1}`}` }),
          el("button", { type: "button", class: "forget", title: "forget this link in this browser", onclick: () => { G.forgetSeat(item.link); drawMySeats(); } }, "forget")
        )
      );
    }
  }

  const GROUPS = [
    ["open", "Waiting for players"],
    ["running", "Running"],
    ["finished", "Finished"],
    ["broken", "Cannot be loaded"],
  ];

  async function refreshTables() {
    let pages;
    try {
      // One page per status: the server lists tables a page at a time, newest first.
      pages = await Promise.all(GROUPS.map(([status]) => G.api("GET", `/api/tables?status=${status}&limit=30`)));
    } catch (error) {
      return;
    }
    const root = G.clear(document.getElementById("table-lists"));
    for (const [index, [status, title]] of GROUPS.entries()) {
      const items = pages[index].tables;
      const more = pages[index].total - items.length;
      if (!items.length && status === "broken") continue;
      root.append(el("h3", { text: more > 0 ? `${title} (newest 30 of ${pages[index].total})` : title }));
      if (!items.length) {
        root.append(el("p", { class: "muted", text: "none" }));
        continue;
      }
      root.append(
        el(
          "ul",
          { class: "link-list", dataset: { status } },
          items.map((t) => {
            // A bot that took over a person's seat (a resignation, the host) is named with that person: nobody disappears.
            const seats = t.seats
              .map((s) => (s.kind === "bot" ? (s.stands_in_for ? `${s.name} for ${s.stands_in_for}` : s.name) : s.open ? "open seat" : `${s.name}${s.joined ? "" : " (not joined yet)"}`))
              .join(", ");
            return el(
              "li",
              { dataset: { table: t.id } },
              // Named by when it began or ended, not by its id (an internal code to a person).
              el("a", { href: `/tables/${encodeURIComponent(t.id)}`, text: `${t.title} · ${t.finished_at ? `finished ${G.sinceWords(t.finished_at)}` : `started ${G.sinceWords(t.created_at)}`}` }),
              el("span", { class: "muted", text: ` ${t.num_players} players: ${seats} · move ${t.version}` }),
              status === "finished" ? el("a", { href: `/tables/${encodeURIComponent(t.id)}/replay`, class: "replay-link", text: " replay" }) : null,
              t.seats.filter((s) => s.open).map((s) => el("button", { type: "button", class: "take-seat", dataset: { seat: String(s.seat) }, onclick: () => takeSeat(t, s) }, `Take seat ${s.seat + 1}`))
            );
          })
        )
      );
    }
  }

  async function takeSeat(table, seat) {
    const name = window.prompt(`Your name at ${table.title} (seat ${seat.seat + 1}):`, "");
    if (name === null) return;
    try {
      const answer = await G.api("POST", `/api/tables/${encodeURIComponent(table.id)}/seats/${seat.seat}/take`, { name: name.trim() || null });
      G.rememberSeat({ link: answer.link, table: table.id, title: table.title, seat: seat.seat, name: answer.table.seats[seat.seat].name });
      window.location.assign(answer.link);
    } catch (error) {
      window.alert(error.message);
      refreshTables();
    }
  }

  drawGames();
  if (game) selectGame(game);
  drawMySeats();
  refreshTables();
  window.setInterval(refreshTables, 5000);
})();
