// The secretary's control page: each button is one POST to /api/control with the token
// in its Authorization header (checked before the body is read);
// the answer is said in words (Dutch / English, as the rest of this page), never as raw
// JSON; the current round's tables are listed with a button to check each result.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  // The page's element of that id (control.html has each one): typed as there.
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  // A table's state in both languages (the tournament's view says it in English).
  /** @type {Record<string, string>} */
  const STATES = {
    waiting: "wacht / waiting", started: "bezig / playing", progress: "bezig / playing",
    penalty: "strafzet / penalty", time_limit: "tijd om / time up", done: "klaar / done",
  };
  /** @param {number} epoch */
  const clock = (epoch) => new Date(epoch * 1000).toLocaleTimeString("nl-NL", { hour: "2-digit", minute: "2-digit" });
  // What an answer of /api/control means, in words.
  /** @param {Record<string, any>} body @param {Record<string, any>} answer */
  function said(body, answer) {
    if (answer.error) {
      const why = typeof answer.error === "string" ? answer.error : `${answer.error.nl} / ${answer.error.en}`;
      return `Niet gelukt / failed: ${why}`;
    }
    switch (body.action) {
      case "add_team": return `Team toegevoegd / team added: ${body.name}`;
      case "pair": return `Ronde ${answer.round} ingedeeld / round ${answer.round} paired`;
      case "start": return `Klok gestart om / clock started at ${clock(answer.started)}`;
      case "verify": return `Partij opgevraagd om na te spelen / game asked for, to replay: ${body.match}`;
      default: return "Gedaan / done";
    }
  }
  /** @param {Record<string, unknown>} body */
  async function act(body) {
    const r = await fetch("/api/control", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    /** @type {Record<string, any>} */
    let answer;
    try { answer = await r.json(); } catch (e) { answer = { error: `HTTP ${r.status}` }; }
    if (!r.ok && !answer.error) answer.error = `HTTP ${r.status}`;
    const out = $("out");
    out.textContent = said(body, answer);
    out.className = answer.error ? "err" : "ok";
    refresh();
  }
  async function refresh() {
    /** @type {ClubView} */
    const view = await (await fetch("/api/view")).json();
    const rows = view.tables.map((m) => {
      const tr = document.createElement("tr");
      const res = m.points ? `${m.points[0]} – ${m.points[1]}${m.timed_out ? " (tijd om / time up)" : ""}`
        : m.away === null ? "vrij / bye" : (STATES[m.state] || m.state);
      const verified = m.verified === "ok" ? "klopt / correct" : m.verified || "";
      for (const text of [m.board || "", m.home, m.away || "", res, verified]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      const td = document.createElement("td");
      if (m.points) {
        const b = document.createElement("button");
        b.textContent = "nakijken / check";
        b.onclick = () => act({ action: "verify", match: m.match });
        td.append(b);
      }
      tr.append(td);
      tr.dataset.match = m.match;
      tr.dataset.state = m.state;
      return tr;
    });
    $("round-tables").replaceChildren(...rows);
    $("round-no").textContent = String(view.round ?? "–");
  }
  $("add-team").onclick = () => act({ action: "add_team", name: $("team").value, players: $("players").value.split(",").map((s) => s.trim()).filter(Boolean) });
  $("pair").onclick = () => act({ action: "pair", minutes: Number($("minutes").value) });
  $("start").onclick = () => act({ action: "start" });
  $("verify").onclick = () => act({ action: "verify", match: $("match").value });
  refresh();
  setInterval(refresh, 5000);
})();
