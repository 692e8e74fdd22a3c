/**
 * The embed page's one script, inline and allowed by its hash alone (the page's policy names
 * `'sha256-…'`, never `'unsafe-inline'`): it fetches nothing and reads nothing but the page.
 * Without it the page is whole: the chart, the table, the caption. With it:
 * - the Delta switches between its map and its bars (both drawn by the server; the embed's own
 *   view shows first), as the dashboard's figure does;
 * - a mark under the pointer or the keyboard's focus shows its numbers beside it;
 * - the arrow keys, Home and End move between marks; Enter opens the table at the mark's row;
 *   Escape hides the numbers.
 * Kept as plain ES2020 text (no build step, no bundler helpers inside), so the hash is of exactly
 * what the browser runs.
 */
import { createHash } from "node:crypto";

export const EMBED_SCRIPT = `(() => {
  const tip = document.getElementById("embed-tip");
  const views = Array.from(document.querySelectorAll("[data-embed-view]"));
  const buttons = Array.from(document.querySelectorAll("[data-view-button]"));
  const toolbar = document.getElementById("embed-toolbar");
  const table = document.getElementById("embed-table");
  if (!tip) return;
  const markOf = (node) => (node && node.closest ? node.closest("g.mark") : null);
  const hide = () => { tip.hidden = true; };
  const show = (mark) => {
    tip.textContent = mark.getAttribute("aria-label") || "";
    tip.hidden = false;
    const box = mark.getBoundingClientRect();
    const room = document.documentElement.clientWidth - tip.offsetWidth - 4;
    tip.style.left = Math.max(4, Math.min(box.left + window.scrollX, room)) + "px";
    tip.style.top = box.bottom + window.scrollY + 6 + "px";
  };
  for (const mark of document.querySelectorAll("g.mark > title")) mark.remove();
  const choose = (name) => {
    for (const view of views) view.hidden = view.getAttribute("data-embed-view") !== name;
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.getAttribute("data-view-button") === name));
    document.body.setAttribute("data-view", name);
    hide();
  };
  if (toolbar && views.length > 1) {
    toolbar.hidden = false;
    for (const button of buttons) button.addEventListener("click", () => choose(button.getAttribute("data-view-button")));
  }
  document.addEventListener("focusin", (event) => { const mark = markOf(event.target); if (mark) show(mark); else hide(); });
  document.addEventListener("pointerover", (event) => { const mark = markOf(event.target); if (mark) show(mark); });
  document.addEventListener("pointerout", (event) => { if (markOf(event.target) && !markOf(event.relatedTarget)) hide(); });
  document.addEventListener("keydown", (event) => {
    const mark = markOf(event.target);
    if (!mark) return;
    if (event.key === "Escape") { hide(); return; }
    if (event.key === "Enter" && table) {
      table.open = true;
      for (const row of table.querySelectorAll("tr.current")) row.classList.remove("current");
      const row = Array.from(table.querySelectorAll("tr[data-product]")).find((r) => r.getAttribute("data-product") === mark.getAttribute("data-product"));
      if (row) { row.classList.add("current"); row.focus(); }
      event.preventDefault();
      return;
    }
    const marks = Array.from(mark.ownerSVGElement.querySelectorAll("g.mark"));
    const at = marks.indexOf(mark);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: marks.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = marks[Math.max(0, Math.min(marks.length - 1, to))];
    if (next) next.focus();
  });
})();`;

/** The script's CSP source: `'sha256-<base64>'` of its exact text. */
export const EMBED_SCRIPT_SOURCE = `'sha256-${createHash("sha256").update(EMBED_SCRIPT).digest("base64")}'`;
