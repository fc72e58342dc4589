// keezbord web page, a finger on the win-chance chart (issue 40, item 15): its dots are
// 7-11 px and a long game's overlap (on a phone, move 146 tapped opened 152, drawn on
// top). A tap picks the dot nearest to it within a fingertip's reach, not the one drawn
// on top; when several are about as near, a row of buttons (40 px tall) asks which (a
// mouse click: the nearest).
// The keyboard keeps its own way: every dot a tab stop, Enter opens it.
"use strict";

Object.assign(UI.nl, { chart_which: "Welke zet?" });
Object.assign(UI.en, { chart_which: "Which move?" });

const FINGER_PX = 22;  // a fingertip's reach around a tap
const CLOSE_PX = 8;    // dots nearer than this to each other: a finger cannot tell them apart

/**
 * The dot a click or tap on the chart means (null: none, or the person is asked which).
 * @param {Event} ev @param {(dot: HTMLElement) => void} open
 * @returns {HTMLElement | null}
 */
function pickDot(ev, open) {
  const own = /** @type {HTMLElement | null} */ (/** @type {Element} */ (ev.target).closest?.(".dot"));
  if (!(ev instanceof MouseEvent) || ev.detail === 0) return own;  // a key: the focused dot
  /** @type {[HTMLElement, number][]} */
  const near = [];
  for (const dot of /** @type {NodeListOf<HTMLElement>} */ (byId("analysis-chart").querySelectorAll(".dot"))) {
    const r = dot.getBoundingClientRect();
    const d = Math.hypot(r.left + r.width / 2 - ev.clientX, r.top + r.height / 2 - ev.clientY);
    if (d <= FINGER_PX) near.push([dot, d]);
  }
  near.sort((a, b) => a[1] - b[1]);
  const alike = near.filter(([, d]) => d - near[0][1] < CLOSE_PX);
  // A mouse points at one pixel: the nearest is the one meant; a finger covers several.
  const type = ev instanceof PointerEvent ? ev.pointerType : "";
  const finger = type ? type !== "mouse" : matchMedia("(pointer: coarse)").matches;
  if (alike.length > 1 && finger) { askWhichDot(alike.map(([dot]) => dot), open); return null; }
  byId("chart-pick").hidden = true;
  return near.length ? near[0][0] : null;
}

// Several dots under one finger: one button each, in the order of the game.
/** @param {HTMLElement[]} dots @param {(dot: HTMLElement) => void} open */
function askWhichDot(dots, open) {
  const box = byId("chart-pick");
  dots.sort((a, b) => Number(a.dataset.n) - Number(b.dataset.n));
  box.setAttribute("aria-label", t("chart_which"));
  box.replaceChildren(el("span", { text: t("chart_which") }), ...dots.map((dot) => {
    const b = el("button", { type: "button", "data-n": dot.dataset.n || "",
                             text: dot.querySelector("title")?.textContent || dot.dataset.n || "" });
    b.addEventListener("click", () => { box.hidden = true; open(dot); });
    return b;
  }));
  box.hidden = false;
  box.querySelector("button")?.focus({ preventScroll: true });
}
