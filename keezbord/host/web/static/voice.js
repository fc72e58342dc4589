// keezbord web page, the referee you can hear (docs/voice.md): the device's own voice
// (speechSynthesis) says what the referee decided, in the page's language, when the page's
// one sound switch (panel.js's "your turn" beep, localStorage keezbord.sound) is on. The
// words are the host's (state.voice: keezbord/host/voice/phrases.py), the table's only;
// a hint names a card of a hidden hand and is said on that player's own device alone
// (state.remarks, which the server already keeps from pages that may not see it).
// The coach's remarks likewise (hints "coach"): its own seat's device only.
// The voice says the moves the move list (#log, aria-live) shows: while it says them, #log
// is not live, so a screen reader does not hear every move twice.
// Its level on this device (localStorage keezbord.voice: "all" or "disputes"): a choice
// beside the one sound switch, shown only while the switch is on (docs/voice.md argues
// it): the switch stays the one on/off, the beep's and the voice's.
"use strict";

Object.assign(UI.nl, {
  voice_on: "Geluid en stem aan.", voice_level: "Wat de stem zegt",
  voice_levels: { all: "Stem: alles", disputes: "Stem: alleen fouten en vragen" },
});
Object.assign(UI.en, {
  voice_on: "Sound and voice on.", voice_level: "What the voice says",
  voice_levels: { all: "Voice: everything", disputes: "Voice: disputes only" },
});
const VOICE_LEVELS = /** @type {const} */ (["all", "disputes"]);

/** @type {{ next: number, remarks: number, unlocked: boolean }} */
const voice = { next: -1, remarks: -1, unlocked: false };

function voiceOn() { return localStorage.getItem("keezbord.sound") === "on"; }
/** This device's level while the switch is on: everything (the default) or disputes. */
function voiceLevel() { return localStorage.getItem("keezbord.voice") === "disputes" ? "disputes" : "all"; }
function canSpeak() { return "speechSynthesis" in window && typeof SpeechSynthesisUtterance === "function"; }

/** @param {string} text */
function sayNow(text) {
  const u = new SpeechSynthesisUtterance(text);
  u.lang = app.lang === "nl" ? "nl-NL" : "en-GB";
  if (!text) u.volume = 0;  // the tap that unlocks speech after a reload says nothing
  speechSynthesis.speak(u);
}

/** The switch was tapped (a user's gesture: it unlocks speech on phones). */
function voiceSwitched() {
  mirrorLog();
  renderLevel();
  if (!canSpeak()) return;
  if (voiceOn()) { voice.unlocked = true; sayNow(t("voice_on")); } else speechSynthesis.cancel();
}

// While the voice says the moves, the move list is not an aria-live region.
function mirrorLog() {
  const log = document.getElementById("log");
  if (log) log.setAttribute("aria-live", voiceOn() && voiceLevel() === "all" ? "off" : "polite");
}

/** The level's choice beside the switch: there while the switch is on, in the page's language. */
function renderLevel() {
  const sel = /** @type {HTMLSelectElement | null} */ (document.getElementById("voice-level"));
  if (!sel) return;
  sel.hidden = !voiceOn();
  sel.setAttribute("aria-label", t("voice_level"));
  const names = /** @type {Record<string, string>} */ (UI[app.lang].voice_levels);
  for (const o of Array.from(sel.options)) o.textContent = names[o.value];
  sel.value = voiceLevel();
}

function setupLevel() {
  const sw = document.getElementById("sound");
  if (!sw) return;
  const sel = el("select", { id: "voice-level", hidden: "" });
  for (const v of VOICE_LEVELS) sel.append(el("option", { value: v }));
  sw.after(sel);
  sel.addEventListener("change", () => {
    localStorage.setItem("keezbord.voice", sel.value);
    mirrorLog();
  });
  renderLevel();
}

/**
 * The utterances new since the last state: of each kind the newest (a stale one is not
 * said), of the moves the last MOVES_KEPT (moves decided together are all news; a page
 * back after a break does not read out the game), none before an undo of a move (a move
 * taken back is not announced).
 * @param {VoiceSaid[]} said
 */
function freshWords(said) {
  let fresh = said.filter((u) => u.id >= voice.next);
  const undo = fresh.map((u) => u.kind).lastIndexOf("undo");
  if (undo >= 0) fresh = fresh.filter((u, i) => i >= undo || u.kind !== "move");
  return fresh.filter((u, i) => {
    const later = fresh.slice(i + 1).filter((v) => v.kind === u.kind).length;
    return u.kind === "move" ? later < MOVES_KEPT : later === 0;
  });
}
const MOVES_KEPT = 3;

/** @param {PageState} st */
function speakState(st) {
  const v = st.voice;
  const first = voice.next < 0;  // a page just opened says nothing of the past
  const fresh = v && !first ? freshWords(v.said) : [];
  if (v) voice.next = v.next;
  const remarks = st.remarks || [];
  // A hint or the coach's remark names cards of this seat's hand: said on its own device.
  const mine = first ? [] : remarks.slice(Math.max(0, voice.remarks)).filter((r) =>
    (r.kind === "hint" || r.kind === "coach") &&
    (app.role === "remote" || (app.role === "player" && r.seat === mySeat(st))));
  voice.remarks = remarks.length;
  renderLevel();  // the page's language may have changed
  if (!voiceOn() || !voice.unlocked || !canSpeak()) return;
  const all = voiceLevel() === "all";
  const said = all ? fresh : fresh.filter((u) => u.dispute);
  if (said.some((u) => u.kind === "undo" || u.dispute)) speechSynthesis.cancel();
  for (const u of said) sayNow(tx(u.text));
  if (!all) return;  // hints and the coach are no disputes
  for (const r of mine) sayNow(`${(UI[app.lang].remark || {})[r.kind] || r.kind}: ${tx(r.said || r.text)}`);
}

document.addEventListener("DOMContentLoaded", () => {
  const sw = document.getElementById("sound");
  if (sw) sw.addEventListener("click", voiceSwitched);  // after panel.js's toggle
  // A reloaded page (a kiosk) needs a tap again before it may speak: the first one.
  document.addEventListener("pointerdown", () => {
    if (!voice.unlocked && voiceOn() && canSpeak()) { voice.unlocked = true; sayNow(""); }
  }, true);
  setupLevel();
  mirrorLog();
  app.onState.push(speakState);
});
