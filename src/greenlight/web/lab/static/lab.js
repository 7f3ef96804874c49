// The designer's lab: pick a game, bring card data (upload or edit), set rule parameters, run a study, a comparison
// or a sweep with a live progress bar, and read the answer with interactive charts (Vega, shipped by the server).
// All text goes into the page through textContent (never innerHTML).
"use strict";

(function () {
  const G = window.Greenlight;
  const el = G.el;
  const boot = G.boot();
  const games = boot.games || [];
  const HISTORY_KEY = "greenlight-lab-studies";
  const $ = (id) => document.getElementById(id);

  const state = { game: null, data: null, editor: null, study: null, polling: null, started: null };

  // -- the game -----------------------------------------------------------------------------------

  function fillGames() {
    const select = $("lab-game");
    for (const game of games) select.append(el("option", { value: game.id, text: game.title }));
    select.addEventListener("change", () => selectGame(select.value));
    if (games.length) selectGame(games[0].id);
  }

  function selectGame(id) {
    state.game = games.find((game) => game.id === id) || null;
    if (!state.game) return;
    state.data = null;
    state.editor = null;
    $("lab-editor").hidden = true;
    showData();
    const players = G.clear($("lab-players"));
    for (let n = state.game.min_players; n <= state.game.max_players; n++) players.append(el("option", { value: String(n), text: String(n) }));
    const bots = G.clear($("lab-bot"));
    for (const bot of state.game.bots) bots.append(el("option", { value: bot, text: botWords(bot) }));
    drawParameters({});
  }

  function botWords(bot) {
    return {
      medium: "medium: the game's heuristic (fast)",
      easy: "easy: the heuristic with random slips",
      random: "random moves",
      strong: "strong: a short search (about 50 times slower)",
    }[bot] || bot;
  }

  function drawParameters(values) {
    const box = G.clear($("lab-parameters"));
    if (!state.game.parameters.length) box.append(el("p", { class: "muted", text: "This game has no rule parameters." }));
    for (const p of state.game.parameters) {
      const value = p.name in values ? values[p.name] : p.default;
      const input = el("input", { type: "number", name: p.name, value: String(value), min: p.minimum ?? null, max: p.maximum ?? null, dataset: { parameter: p.name } });
      box.append(el("label", { class: "option" }, input, " ", el("span", { class: "option-name", text: G.humanize(p.name) }), el("span", { class: "option-help", text: ` ${p.help} (rules: ${p.rule})` })));
    }
  }

  function parameters() {
    const values = {};
    for (const input of document.querySelectorAll("#lab-parameters input[data-parameter]")) {
      const p = state.game.parameters.find((item) => item.name === input.dataset.parameter);
      if (p && input.value !== "" && Number(input.value) !== p.default) values[p.name] = Number(input.value);
    }
    return values;
  }

  // -- data ---------------------------------------------------------------------------------------

  function showData() {
    const now = $("lab-data-now");
    $("lab-data-error").hidden = true;
    if (!state.data) {
      now.textContent = state.game.bundled_is_default ? "The game as printed (its bundled data)." : "Cards made from each game's seed (no fixed catalogue).";
      return;
    }
    // Name the tables this data replaces and say that the others are the printed ones, so a designer sees
    // at once whether the file changed what she meant to change.
    const records = state.data.records || {};
    const custom = state.data.custom || [];
    const held = custom.map((name) => `${G.humanize(name).toLowerCase()} (${records[name]} rows)`).join(", ");
    const rest = Object.keys(records).length > custom.length ? "; every other table as printed" : "";
    const changed = Object.entries(state.data.parameters || {}).map(([name, value]) => `${G.humanize(name)} ${value}`).join(", ");
    now.textContent = `Your data: ${state.data.name} (checked: ${held || "no tables"}${rest})` + (changed ? `; rule parameters ${changed}` : "") + ".";
  }

  function dataError(error) {
    const box = $("lab-data-error");
    box.textContent = error.message;
    box.hidden = false;
  }

  async function upload() {
    const file = $("lab-file").files[0];
    if (!file) return dataError(new Error("choose a data file first"));
    const url = `/api/lab/files?game=${encodeURIComponent(state.game.id)}&name=${encodeURIComponent(file.name)}`;
    try {
      const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/octet-stream", Accept: "application/json" }, body: file });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error((body && body.detail) || `${response.status} ${response.statusText}`);
      useData(body);
    } catch (error) {
      dataError(error);
    }
  }

  function useData(body) {
    state.data = body;
    showData();
    if (body.parameters) drawParameters(body.parameters);
  }

  async function openEditor() {
    try {
      const template = await G.api("GET", `/api/lab/games/${encodeURIComponent(state.game.id)}/data`);
      const tables = state.data ? (await G.api("GET", `/api/lab/data/${encodeURIComponent(state.data.id)}`)).tables : template.tables;
      state.editor = { columns: template.columns, tables: JSON.parse(JSON.stringify(tables)), table: Object.keys(template.columns)[0] };
      const select = G.clear($("lab-table"));
      for (const name of Object.keys(template.columns)) select.append(el("option", { value: name, text: G.humanize(name) }));
      select.value = state.editor.table;
      drawGrid();
      $("lab-editor").hidden = false;
    } catch (error) {
      dataError(error);
    }
  }

  function cellText(value) {
    if (value === null || value === undefined) return "";
    if (Array.isArray(value)) return value.join(", ");
    return String(value);
  }

  function drawGrid() {
    const editor = state.editor;
    const columns = editor.columns[editor.table];
    const rows = editor.tables[editor.table] || (editor.tables[editor.table] = []);
    $("lab-columns").textContent = columns.map((column) => `${column.name}: ${column.words}`).join("; ");
    const grid = G.clear($("lab-grid"));
    grid.append(el("caption", { class: "muted", text: `${G.humanize(editor.table)}: ${rows.length} rows` }));
    grid.append(el("tr", {}, ...columns.map((column) => el("th", { scope: "col", text: column.name })), el("th", { scope: "col", text: "" })));
    rows.forEach((row, index) => {
      const cells = columns.map((column) => {
        const input = el("input", {
          type: "text",
          value: cellText(row[column.name]),
          class: column.kind === "str" && column.name !== "id" ? "wide" : "",
          "aria-label": `${column.name} of row ${index + 1}`,
          dataset: { row: String(index), column: column.name },
        });
        input.addEventListener("change", () => {
          row[column.name] = input.value;
        });
        return el("td", {}, input);
      });
      const remove = el("button", { type: "button", text: "Delete", "aria-label": `delete row ${index + 1}` });
      remove.addEventListener("click", () => {
        rows.splice(index, 1);
        drawGrid();
      });
      grid.append(el("tr", {}, ...cells, el("td", {}, remove)));
    });
  }

  function addRow() {
    state.editor.tables[state.editor.table].push({});
    drawGrid();
  }

  async function saveEditor() {
    const tables = {};
    for (const [name, rows] of Object.entries(state.editor.tables)) tables[name] = rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cellText(value)])));
    try {
      const body = await G.api("POST", "/api/lab/data", { game: state.game.id, name: "the tables edited in the lab", tables, parameters: parameters() });
      useData(body);
      $("lab-editor").hidden = true;
    } catch (error) {
      dataError(error);
    }
  }

  // -- running ------------------------------------------------------------------------------------

  function kind() {
    return document.querySelector('input[name="kind"]:checked').value;
  }

  async function run(event) {
    event.preventDefault();
    const box = $("lab-run-error");
    box.hidden = true;
    const request = {
      game: state.game.id,
      kind: kind(),
      players: Number($("lab-players").value),
      bots: [$("lab-bot").value],
      games: Number($("lab-games").value),
      seed: Number($("lab-seed").value),
      parameters: parameters(),
      data: state.data ? state.data.id : null,
    };
    if (request.kind === "sweep") request.vary = $("lab-vary").value.trim();
    try {
      const answer = await G.api("POST", "/api/lab/studies", request);
      remember({ id: answer.id, game: state.game.title, kind: request.kind, at: new Date().toISOString() });
      follow(answer.id);
    } catch (error) {
      box.textContent = error.message;
      box.hidden = false;
    }
  }

  function follow(id) {
    state.study = id;
    state.started = null;
    window.location.hash = `study=${id}`;
    $("lab-status").hidden = false;
    $("lab-status-heading").textContent = "Running";
    $("lab-cancel").hidden = false;
    $("lab-result").hidden = true;
    $("lab-progress").value = 0;
    $("lab-progress-text").textContent = "Queued…";
    if (state.polling) clearTimeout(state.polling);
    poll();
  }

  async function poll() {
    const id = state.study;
    try {
      const study = await G.api("GET", `/api/lab/studies/${encodeURIComponent(id)}`);
      if (id !== state.study) return;
      showProgress(study);
      if (["done", "failed", "cancelled"].includes(study.status)) {
        drawHistory();
        if (study.status === "done") showResult(study);
        return;
      }
    } catch (error) {
      $("lab-progress-text").textContent = error.message;
    }
    state.polling = setTimeout(poll, 1000);
  }

  function showProgress(study) {
    const bar = $("lab-progress");
    bar.max = Math.max(1, study.total);
    bar.value = study.done;
    const text = $("lab-progress-text");
    if (study.status === "queued") {
      text.textContent = study.queued_ahead ? `Queued behind ${study.queued_ahead} other studies.` : "Queued: starting soon.";
      return;
    }
    if (study.status === "running" || study.status === "cancelling") {
      if (!state.started && study.done > 0) state.started = { at: Date.now(), done: study.done };
      let left = "";
      if (state.started && study.done > state.started.done) {
        const rate = (study.done - state.started.done) / ((Date.now() - state.started.at) / 1000);
        const seconds = Math.round((study.total - study.done) / Math.max(rate, 1e-6));
        left = `, about ${seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`} left`;
      }
      text.textContent = `${study.done} of ${study.total} games played${left}.`;
      return;
    }
    bar.value = study.status === "done" ? bar.max : bar.value;
    $("lab-status-heading").textContent = { done: "Done", failed: "Failed", cancelled: "Cancelled" }[study.status] || "Running";
    text.textContent = { done: `Done: ${study.total} games.`, failed: `Failed: ${study.error}`, cancelled: "Cancelled." }[study.status] || study.status;
    $("lab-cancel").hidden = true;
  }

  async function cancel() {
    if (!state.study) return;
    try {
      await G.api("POST", `/api/lab/studies/${encodeURIComponent(state.study)}/cancel`);
    } catch (error) {
      $("lab-progress-text").textContent = error.message;
    }
  }

  // -- the answer ---------------------------------------------------------------------------------

  function showResult(study) {
    const result = study.result;
    const answer = G.clear($("lab-answer"));
    if (study.kind === "study") {
      answer.append(el("h3", { text: "Summary" }), el("ul", {}, ...result.answers.map((text) => el("li", { text }))));
    } else if (study.kind === "compare") {
      for (const section of result.sections) answer.append(el("h3", { text: section.heading }), el("ul", {}, ...section.sentences.map((text) => el("li", { text }))));
    } else {
      answer.append(el("h3", { text: "Summary" }), el("p", { text: result.verdict }));
    }
    const charts = G.clear($("lab-charts"));
    for (const [name, spec] of Object.entries(result.charts || {})) {
      // A chart may scroll sideways on a phone: it takes the focus, so a keyboard can scroll it too.
      const box = el("div", { class: "lab-chart", id: `chart-${name}`, role: "figure", tabindex: "0", "aria-label": spec.title || name });
      charts.append(box);
      // ast + the interpreter: Vega evaluates expressions without eval, which the page's Content Security Policy refuses.
      const options = { actions: false, renderer: "svg", defaultStyle: false, tooltip: { theme: "custom", disableDefaultStyle: true }, ast: true, expr: vegaInterpreter.expressionInterpreter };
      vegaEmbed(box, spec, options).catch((error) => {
        box.append(el("p", { class: "refusal", text: `The chart could not be drawn: ${error.message}` }));
      });
    }
    $("lab-result").hidden = false;
  }

  // -- history ------------------------------------------------------------------------------------

  function remembered() {
    try {
      return JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
    } catch (error) {
      return [];
    }
  }

  function remember(item) {
    const items = [item, ...remembered().filter((old) => old.id !== item.id)].slice(0, 30);
    localStorage.setItem(HISTORY_KEY, JSON.stringify(items));
    drawHistory();
  }

  function drawHistory() {
    const list = G.clear($("lab-history-list"));
    const items = remembered();
    if (!items.length) list.append(el("li", { class: "muted", text: "none yet" }));
    for (const item of items) {
      const link = el("a", { href: `/lab#study=${item.id}`, text: `${item.game}: ${{ study: "study", compare: "comparison", sweep: "sweep" }[item.kind] || item.kind}, ${item.at.slice(0, 16).replace("T", " ")}` });
      link.addEventListener("click", (event) => {
        event.preventDefault();
        $("lab-cancel").hidden = false;
        follow(item.id);
      });
      list.append(el("li", {}, link));
    }
  }

  function fromHash() {
    const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    const id = params.get("study");
    if (id) follow(id);
  }

  // -- wiring -------------------------------------------------------------------------------------

  for (const radio of document.querySelectorAll('input[name="kind"]')) radio.addEventListener("change", () => ($("lab-vary-label").hidden = kind() !== "sweep"));
  $("lab-upload").addEventListener("click", upload);
  $("lab-edit").addEventListener("click", openEditor);
  $("lab-printed").addEventListener("click", () => {
    state.data = null;
    showData();
    drawParameters({});
  });
  $("lab-table").addEventListener("change", () => {
    state.editor.table = $("lab-table").value;
    drawGrid();
  });
  $("lab-add-row").addEventListener("click", addRow);
  $("lab-save").addEventListener("click", saveEditor);
  $("lab-form").addEventListener("submit", run);
  $("lab-cancel").addEventListener("click", cancel);
  fillGames();
  drawHistory();
  fromHash();
})();
