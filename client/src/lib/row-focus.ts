/**
 * Focus after a row action (docs/decisions.md "Accessibility"): when an item of a table row's actions menu is
 * chosen (Edit, Renew, Delete, ...) or a row's own button is pressed, the focus goes back to that row's button
 * once the dialog it opened closes; if the row is gone, to the same button of the row now at its place (the next
 * one, or the last); if the table is empty, to the table. One listener for every list screen, installed by the
 * signed-in layout.
 */

export interface Pending {
  button: HTMLElement;
  table: HTMLElement;
  rowIndex: number;
  /** The button's place among its row's buttons. */
  buttonIndex: number;
  until: number;
}

const KEEP_MS = 15_000;
let pending: Pending | null = null;
/** A list's rows: a table's body rows, or at phone width the list's cards (components/list-cards.tsx). */
const ROWS = 'tbody tr, [data-list-card]';
const TABLES = 'table, [data-list-cards]';

function rowButtons(row: Element | undefined): HTMLElement[] {
  return row ? Array.from(row.querySelectorAll<HTMLElement>('button')) : [];
}

function dialogOpen(): boolean {
  return Array.from(document.querySelectorAll('[role="dialog"], [role="menu"]')).some((el) => el.getClientRects().length > 0);
}

/** Where the focus should go now, or null when it should stay. */
export function focusTarget(p: Pending): HTMLElement | null {
  if (p.button.isConnected) return p.button;
  if (!p.table.isConnected) return null;
  const rows = Array.from(p.table.querySelectorAll(ROWS)).filter((r) => rowButtons(r).length > 0);
  const buttons = rowButtons(rows[Math.min(p.rowIndex, rows.length - 1)]);
  const button = buttons[p.buttonIndex] ?? buttons[0];
  if (button) return button;
  if (!p.table.hasAttribute('tabindex')) p.table.setAttribute('tabindex', '-1');
  return p.table;
}

function restore() {
  if (!pending) return;
  if (Date.now() > pending.until) {
    pending = null;
    return;
  }
  const active = document.activeElement;
  if (active && active !== document.body) return;
  if (dialogOpen()) return;
  const target = focusTarget(pending);
  if (!target) return;
  if (target !== pending.table) pending.button = target;
  target.focus();
}

/** The actions button of the menu an element (a menu item) belongs to, found through its aria-controls. */
function menuButtonOf(item: Element): HTMLElement | null {
  const menu = item.closest('[role="menu"]');
  if (!menu?.id) return null;
  return document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
}

function onClick(e: Event) {
  const target = e.target as Element | null;
  const item = target?.closest?.('[role="menuitem"]');
  const button = item ? menuButtonOf(item) : target?.closest?.<HTMLElement>(`:is(${ROWS}) button`);
  if (!button) {
    // A click elsewhere (outside any dialog) ends the wait: the person has moved on.
    if (pending && !target?.closest?.('[role="dialog"]')) pending = null;
    return;
  }
  const row = button.closest(ROWS);
  const table = row?.closest<HTMLElement>(TABLES);
  if (!row || !table) return;
  const rows = Array.from(table.querySelectorAll(ROWS));
  const buttonIndex = rowButtons(row).indexOf(button);
  pending = { button, table, rowIndex: rows.indexOf(row), buttonIndex, until: Date.now() + KEEP_MS };
}

/** Installs the listeners; returns the function that removes them. */
export function installRowFocusReturn(): () => void {
  let scheduled = false;
  const check = () => {
    if (!pending || scheduled) return;
    scheduled = true;
    // After the dialog's own focus return and React's commit.
    setTimeout(() => {
      scheduled = false;
      restore();
    }, 50);
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('click', onClick, true);
  document.addEventListener('focusout', check, true);
  return () => {
    observer.disconnect();
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('focusout', check, true);
    pending = null;
  };
}
