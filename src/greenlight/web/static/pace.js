// The lobby's Pace fieldset: untimed, live clocks or turn-based deadlines, and what a time-out does (docs/play.md).
"use strict";

(function () {
  const G = window.Greenlight;
  const byId = (id) => document.getElementById(id);
  const fieldset = byId("pace-fieldset");
  if (!fieldset) return;

  function kind() {
    const chosen = fieldset.querySelector('input[name="pace"]:checked');
    return chosen ? chosen.value : "untimed";
  }

  function show() {
    const chosen = kind();
    byId("pace-live").hidden = chosen !== "live";
    byId("pace-turn").hidden = chosen !== "turn";
    byId("pace-timeout").hidden = chosen === "untimed";
  }

  for (const input of fieldset.querySelectorAll('input[name="pace"]')) input.addEventListener("change", show);
  show();

  /** The pace to send with a new table (null: untimed). */
  G.readPace = function () {
    const chosen = kind();
    if (chosen === "untimed") return null;
    const pace = { kind: chosen, on_timeout: byId("pace-on-timeout").value, bot: byId("pace-bot").value };
    if (chosen === "live") {
      pace.bank_seconds = Number(byId("pace-bank").value);
      pace.increment_seconds = Number(byId("pace-increment").value);
    } else {
      pace.deadline_hours = Number(byId("pace-deadline").value);
      pace.weekends_off = byId("pace-weekends").checked;
    }
    return pace;
  };
})();
