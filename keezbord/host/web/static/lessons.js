// keezbord web page: the lessons (issue 26 part 2, docs/lessons.md). A learner types a
// name (no account), sees the course and which steps they have done, and plays a step
// on the board: on a real one the board is set up as the step's position, in the
// simulator it shows it at once and the step's hand is the simulated hand; then the move
// is judged. Protocol: docs/web.md (`lesson` request, state `lesson`, GET /api/lessons).
"use strict";

/** @type {{ name: string, course: LessonEntry[], lang: string }} */
const lessonsUi = { name: localStorage.getItem("keezbord.learner") || "", course: [], lang: "" };

/** Play a step; the board comes into view (the list sits below it on a narrow page).
 * @param {string} id @param {number} n */
function playStep(id, n) {
  send({ type: "lesson", lesson: id, step: n, learner: lessonsUi.name || null });
  document.getElementById("board")?.scrollIntoView({ block: "nearest", behavior: "smooth" });
}

/** @param {string} name */
async function loadLessons(name) {
  const r = await fetch(`/api/lessons?learner=${encodeURIComponent(name)}`);
  const body = await r.json();
  if (!r.ok) { addLog(tx(body.error), true); return; }
  lessonsUi.course = body.lessons;
  renderLessonList();
}

function renderLessonList() {
  const ul = byId("lesson-list");
  ul.replaceChildren(...lessonsUi.course.map((les) => {
    const steps = les.steps.map((_, i) => {
      const n = i + 1;
      const b = el("button", { type: "button", class: les.done.includes(n) ? "done" : "",
                               text: les.done.includes(n) ? `${n} ✓` : String(n) });
      b.dataset.lesson = les.id;
      b.dataset.step = String(n);
      b.addEventListener("click", () => playStep(les.id, n));
      return b;
    });
    const title = el("span", { text: `${tx(les.title)} (${les.done.length}/${les.steps.length}) ` });
    title.title = tx(les.intro);
    const li = el("li", {}, title, ...steps);
    li.dataset.lesson = les.id;
    return li;
  }));
  lessonsUi.lang = app.lang;
}

/** @param {PageState} st */
function renderLesson(st) {
  byId("lessons").hidden = false;  // a real board and the simulator alike
  if (lessonsUi.course.length && lessonsUi.lang !== app.lang) renderLessonList();  // NL/EN
  const box = byId("lesson");
  const les = st.lesson;
  box.hidden = !les;
  if (!les) return;
  byId("lesson-title").textContent = `${tx(les.title)}: ${t("lesson_step")} ${les.step}/${les.steps}`;
  const intro = byId("lesson-intro");  // the idea the lesson teaches, before its first step
  intro.hidden = les.step !== 1;
  intro.textContent = tx(les.intro);
  byId("lesson-task").textContent = tx(les.task);
  const v = byId("lesson-verdict");
  v.textContent = les.verdict ? tx(les.verdict.text) : "";
  v.dataset.result = les.verdict ? les.verdict.result : "";
  const next = /** @type {HTMLButtonElement} */ (byId("lesson-next"));
  const nx = les.next;
  next.hidden = !nx;
  if (nx) {
    next.textContent = nx.lesson === les.id ? `${t("lesson_next")} (${t("lesson_step")} ${nx.step})`
      : `${t("lesson_next_lesson")}: ${tx(nx.title)}`;
    next.onclick = () => playStep(nx.lesson, nx.step);
  }
  const done = byId("lesson-done");
  done.hidden = !les.course_done;
  done.textContent = t("course_done");
  const key = JSON.stringify([les.id, les.step, les.verdict && les.verdict.result]);
  if (les.verdict && les.verdict.result === "right" && key !== app.lessonKey && lessonsUi.name) {
    loadLessons(lessonsUi.name);  // the step done shows in the list
  }
  app.lessonKey = key;
}

function setupLessons() {
  const f = /** @type {HTMLFormElement} */ (byId("learner-form"));
  const input = /** @type {HTMLInputElement} */ (f.elements.namedItem("learner"));
  input.value = lessonsUi.name;
  f.addEventListener("submit", (ev) => {
    ev.preventDefault();
    lessonsUi.name = input.value.trim();
    localStorage.setItem("keezbord.learner", lessonsUi.name);
    loadLessons(lessonsUi.name);
  });
  loadLessons(lessonsUi.name);
}

Object.assign(UI.nl, {
  lessons: "Lessen", learner: "Je naam", learner_show: "Laat zien", lesson_step: "stap",
  lesson_next: "Volgende stap", lesson_next_lesson: "Volgende les",
  course_done: "Je hebt de hele cursus gedaan! Speel nu een echt spel: kies 'Nieuw spel'.",
});
Object.assign(UI.en, {
  lessons: "Lessons", learner: "Your name", learner_show: "Show", lesson_step: "step",
  lesson_next: "Next step", lesson_next_lesson: "Next lesson",
  course_done: "You have done the whole course! Now play a real game: choose 'New game'.",
});
