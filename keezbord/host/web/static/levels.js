// keezbord web page, the bots' level in the new-game form (issue 38, section 5): the
// levels of engine/levels.py, from a first-game beginner to the strongest. Choosing one
// puts it on every bot seat of the players field; editing the field shows which level
// all its bots share (none: mixed), with its Elo on the ladder (docs/hints.md "Levels").
"use strict";

/** The levels (engine/levels.py's LEVELS) and the seat kinds that play as one. */
const LEVELS = ["beginner", "casual", "club", "strong"];
/** Each level's Elo on the 4-seat ladder, casual = 0: levels.py's ``elo`` (the browser
 * test holds them equal). @type {Record<string, number>} */
const LEVEL_ELO = { beginner: -226, casual: 0, club: 154, strong: 292 };
/** @type {Record<string, string>} */
const LEVEL_OF_KIND = { greedy: "casual", search: "strong" };

Object.assign(UI.nl, {
  level: "Niveau van de bots", level_mixed: "gemengd",
  level_beginner: "Beginner", level_casual: "Huiskamer (standaard)", level_club: "Club", level_strong: "Sterk",
  level_about_beginner: "Speelt als in een eerste spel: slaat soms de pion van zijn partner, laat een pion op de startplaats van een ander staan, brengt geen nieuwe pion uit, verspilt een 4 of een 7.",
  level_about_casual: "Kijkt één zet vooruit en maakt geen fouten met opzet.",
  level_about_club: "Denkt een paar beurten vooruit over de kaarten die de anderen kunnen hebben (30 spelletjes per zet).",
  level_about_strong: "De sterkste: denkt vooruit over de kaarten die de anderen kunnen hebben (300 spelletjes per zet).",
  level_about_: "De bots spelen op verschillende niveaus.",
  level_elo: "Elo op de ladder", level_elo_zero: "Huiskamer = 0",
  level_first: "Eerste spel? Speel op Huiskamer: ook je partner is een bot, en die maakt dan geen fouten met opzet (een beginnerbot slaat soms je eigen pionnen), zodat je van zijn zetten leert.",
});
Object.assign(UI.nl.bot_kind, { beginner: "beginner", casual: "huiskamer", club: "club", strong: "sterk" });
Object.assign(UI.en, {
  level: "Bots' level", level_mixed: "mixed",
  level_beginner: "Beginner", level_casual: "Casual (default)", level_club: "Club", level_strong: "Strong",
  level_about_beginner: "Plays as in a first game: sometimes captures its partner's pawn, leaves a pawn on another's start, brings no new pawn out, wastes a 4 or a 7.",
  level_about_casual: "Looks one move ahead and makes no mistakes on purpose.",
  level_about_club: "Thinks a few turns ahead over the cards the others may hold (30 playouts a move).",
  level_about_strong: "The strongest: thinks ahead over the cards the others may hold (300 playouts a move).",
  level_about_: "The bots play at different levels.",
  level_elo: "Elo on the ladder", level_elo_zero: "Casual = 0",
  level_first: "First game? Play at Casual: your partner is a bot too, and then it makes no mistakes on purpose (a beginner bot sometimes captures your own pawns), so you learn from its moves.",
});
Object.assign(UI.en.bot_kind, { beginner: "beginner", casual: "casual", club: "club", strong: "strong" });

function levelForm() {
  return /** @type {HTMLFormElement & { elements: Record<string, HTMLInputElement | HTMLSelectElement> }} */ (
    byId("newgame"));
}

// The level every bot seat of the players field shares ("" when they differ or none).
function syncLevel() {
  const f = levelForm();
  const bots = f.elements.players.value.split(",").map((x) => x.trim()).filter((k) => k && k !== "human");
  const levels = new Set(bots.map((k) => LEVEL_OF_KIND[k] || k));
  const one = levels.size === 1 ? [...levels][0] : "";
  f.elements.level.value = LEVELS.includes(one) ? one : "";
  const about = byId("level-about");  // data-i18n: a change of language says it again
  about.dataset.i18n = `level_about_${f.elements.level.value}`;
  about.textContent = t(about.dataset.i18n);
  const n = LEVEL_ELO[f.elements.level.value];
  /** @param {string} k */
  const said = (k) => el("span", { "data-i18n": k, text: t(k) });  // follows the language
  byId("level-elo").replaceChildren(...(n === undefined ? []
    : [said("level_elo"), `: ${n > 0 ? "+" : ""}${n} (`, said("level_elo_zero"), ")"]));
}

// A level chosen: every bot seat gets it, the people keep theirs.
function chooseLevel() {
  const f = levelForm();
  const level = f.elements.level.value;
  if (!level) return;
  const seats = f.elements.players.value.split(",").map((x) => x.trim());
  f.elements.players.value = seats.map((k) => (k === "human" ? k : level)).join(",");
  sayWhoYouPlay();
}

document.addEventListener("DOMContentLoaded", () => {
  // "input" reaches the select before the form's own handler (sayWhoYouPlay, which
  // syncs the select to the players field): the field has the level by then.
  levelForm().elements.level.addEventListener("input", chooseLevel);
  syncLevel();
});
