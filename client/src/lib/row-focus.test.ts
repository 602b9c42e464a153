import { describe, expect, it } from 'vitest';
import { focusTarget } from './row-focus.ts';

function table(rows: number): HTMLTableElement {
  const t = document.createElement('table');
  const body = t.appendChild(document.createElement('tbody'));
  for (let i = 0; i < rows; i++) {
    const b = body
      .appendChild(document.createElement('tr'))
      .appendChild(document.createElement('td'))
      .appendChild(document.createElement('button'));
    b.setAttribute('aria-haspopup', 'menu');
    b.textContent = `row ${i}`;
  }
  document.body.replaceChildren(t);
  return t;
}

const buttons = (t: HTMLTableElement) => Array.from(t.querySelectorAll('button'));
const pending = (t: HTMLTableElement, rowIndex: number) => ({
  button: buttons(t)[rowIndex]!,
  table: t,
  rowIndex,
  buttonIndex: 0,
  until: Date.now() + 1000,
});

describe('focus after a row action (docs/decisions.md "Accessibility")', () => {
  it("goes back to the row's own button while the row is there", () => {
    const t = table(3);
    expect(focusTarget(pending(t, 1))).toBe(buttons(t)[1]);
  });

  it('goes to the row now at its place when the row is gone, or the last row', () => {
    const t = table(3);
    const p = pending(t, 1);
    p.button.closest('tr')!.remove();
    expect(focusTarget(p)?.textContent).toBe('row 2');
    const last = pending(t, 2);
    last.rowIndex = 2;
    t.querySelectorAll('tr')[1]!.remove();
    last.button = document.createElement('button');
    expect(focusTarget(last)?.textContent).toBe('row 0');
  });

  it('goes to the table when it is empty', () => {
    const t = table(1);
    const p = pending(t, 0);
    p.button.closest('tr')!.remove();
    expect(focusTarget(p)).toBe(t);
    expect(t.getAttribute('tabindex')).toBe('-1');
  });

  it("keeps the place of the button among its row's buttons (Edit, Delete) when the row is gone", () => {
    const t = table(2);
    for (const tr of Array.from(t.querySelectorAll('tr'))) {
      const del = tr.appendChild(document.createElement('td')).appendChild(document.createElement('button'));
      del.textContent = `delete ${tr.textContent}`;
    }
    const del = t.querySelectorAll('tr')[0]!.querySelectorAll('button')[1]!;
    const p = { button: del, table: t, rowIndex: 0, buttonIndex: 1, until: Date.now() + 1000 };
    del.closest('tr')!.remove();
    expect(focusTarget(p)?.textContent).toBe('delete row 1');
  });
});
