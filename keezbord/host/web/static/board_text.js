// keezbord web page, the board drawing's summary for a screen reader (docs/voice.md, "For
// a person with low vision"): each hole is labelled by board.js; this names the lit holes
// by their LED role, each as people say it at the table (/api/geometry's spoken names,
// host/voice/spoken.py), as the board's aria-description: "doel: drie na de start van
// blauw, vijf voor de start van geel; aan zet: de start van blauw".
"use strict";

/** @param {PageState} st */
function describeBoard(st) {
  const svg = document.getElementById("board");
  const names = app.geometry ? app.geometry.spoken : undefined;
  if (!svg || !names) return;
  /** @type {Map<string, string[]>} */
  const lit = new Map();
  for (const [hole, role] of Object.entries(st.leds || {})) {
    const said = names[hole] ? names[hole][app.lang] : hole;
    lit.set(role, [...(lit.get(role) || []), said]);
  }
  const led = /** @type {Record<string, string>} */ (UI[app.lang].led);
  const parts = [...lit].map(([role, holes]) => `${led[role] || role}: ${holes.join(", ")}`);
  if (parts.length) svg.setAttribute("aria-description", parts.join("; "));
  else svg.removeAttribute("aria-description");
}

document.addEventListener("DOMContentLoaded", () => { app.onState.push(describeBoard); });
