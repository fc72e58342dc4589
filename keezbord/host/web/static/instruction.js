// keezbord web page, the instruction line (docs/web.md, "The instruction line"): the one
// place every instruction to a player goes, always in view at the top of the page (sticky
// with the header). It shows the state's `instruction` (the game's next step, or what
// another part of the host posted: keezbord/host/web/instruction.py), unless the page has
// a word of its own that matters more: offline, a request refused or not allowed, the
// review. The pawns in hand (choose which one to put down) sit at its end.
"use strict";

Object.assign(UI.nl, {
  verb_tap: "tik", verb_click: "klik", offline_line: "Geen verbinding met de server: het bord wacht.",
  review_line: "Je kijkt terug: Esc of \u201cTerug naar live\u201d om verder te spelen",
});
Object.assign(UI.en, {
  verb_tap: "tap", verb_click: "click", offline_line: "No connection to the server: the board waits.",
  review_line: "You are reviewing: Esc or \u201cBack to live\u201d to play on",
});

/** @type {{ text: string, until: number } | null} */
let pageWord = null;

// The page's own word in the line for `ms` (a refused request, an action this page's link
// may not do); other scripts call it instead of writing an instruction of their own.
/** @param {string} text @param {number} [ms] */
function sayInLine(text, ms = 5000) {
  pageWord = { text, until: Date.now() + ms };
  renderInstruction();
  setTimeout(() => { if (pageWord && Date.now() >= pageWord.until) { pageWord = null; renderInstruction(); } }, ms + 10);
}

// The page's verb for pointing: a finger taps, a mouse clicks.
function pointVerb() {
  return t(matchMedia("(pointer: coarse)").matches ? "verb_tap" : "verb_click");
}
/** A state's text in the page's language, `{tap}` as this screen says it, first letter up.
 * @param {Bilingual} text */
function lineText(text) {
  const s = tx(text).replaceAll("{tap}", pointVerb());
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** What the line says now: the page's own word first, else the state's instruction.
 * @param {PageState | null} st
 * @returns {{ text: string, tone: string, source: string, seat: number | null }}
 */
function currentInstruction(st) {
  if (app.offline) return { text: t("offline_line"), tone: "fix", source: "offline", seat: null };
  if (pageWord && Date.now() < pageWord.until) return { text: pageWord.text, tone: "fix", source: "page", seat: null };
  if (app.reviewing) return { text: t("review_line"), tone: "wait", source: "review", seat: null };
  const ins = st?.instruction;
  if (!ins) return { text: "", tone: "wait", source: "none", seat: null };
  return { text: lineText(ins.text), tone: ins.tone, source: ins.source, seat: ins.seat };
}

function renderInstruction() {
  const line = document.getElementById("instruction");
  if (!line) return;
  const st = app.state;
  const ins = currentInstruction(st);
  const mine = !!st && ins.seat !== null && ins.seat === mySeat(st);
  line.dataset.tone = ins.tone;
  line.dataset.source = ins.source;
  line.classList.toggle("mine", mine);
  // Whose step it is, unless it is this page's own seat (then the line is "yours").
  const who = byId("instruction-who");
  const p = ins.seat === null || mine ? null : seatInfo(ins.seat);
  who.hidden = !p;
  if (p) {
    who.textContent = `${p.colour.symbol} ${p.colour[app.lang]}`;
    who.style.background = p.colour.hex;
    who.style.color = inkFor(p.colour.hex);
  }
  byId("instruction-text").textContent = ins.text;
  if (st) renderInHand(st);
}

// Pawns in hand (simulator): choose which one to put down.
/** @param {PageState} st */
function renderInHand(st) {
  const inhand = byId("inhand");
  inhand.replaceChildren();
  if (app.mode !== "sim" || !st.held.length || app.reviewing) return;
  inhand.append(el("span", { text: `${t("in_hand")}:` }));
  if (app.selectedHeld !== null && app.selectedHeld >= st.held.length) app.selectedHeld = null;
  st.held.forEach((seat, i) => {
    const p = seat === null ? null : seatInfo(seat);
    const b = el("button", { type: "button", class: "held", text: p ? p.colour.symbol : "?",
                             "aria-pressed": String((app.selectedHeld ?? st.held.length - 1) === i),
                             "aria-label": p ? `${t("pawn_of")} ${p.colour[app.lang]}` : t("unknown_pawn") });
    b.style.background = p ? p.colour.hex : "#999";
    b.style.color = p ? inkFor(p.colour.hex) : "#111";
    b.addEventListener("click", () => { app.selectedHeld = i; renderInstruction(); });
    inhand.append(b);
  });
}

// The board stays in view under the line on a phone: its sticky top is the line's bottom.
function setupInstruction() {
  const top = document.getElementById("top");
  if (!top) return;
  const put = () => document.documentElement.style.setProperty("--top-h", `${top.offsetHeight}px`);
  new ResizeObserver(put).observe(top);
  put();
}
