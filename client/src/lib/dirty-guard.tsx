/**
 * Nothing typed is lost without a word (docs/decisions.md "Nothing lost"): every form with unsaved changes says so
 * through useDirtyGuard; then leaving the page (a link, Back), closing its dialog (Escape, ×, a click outside) or
 * closing the tab asks first. Long forms also keep a draft in this tab (useFormDraft) until saved or discarded, so a
 * reload or an ended session does not lose them either.
 */
import { createContext, useContext, useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Alert, Button, Group } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { confirm } from '../components/confirm.ts';

/** The question asked before unsaved changes are thrown away. */
export const DISCARD_STRINGS = {
  title: 'Discard unsaved changes?',
  message: 'You have unsaved changes. If you leave now, they will be lost.',
  confirm: 'Discard changes',
  restored: 'Your unsaved changes from earlier were restored.',
  discardDraft: 'Discard changes',
} as const;

// ---- Which forms are dirty right now -------------------------------------------------------------------------

const dirtyForms = new Set<string>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function setDirty(id: string, dirty: boolean) {
  if (dirty === dirtyForms.has(id)) return;
  if (dirty) dirtyForms.add(id);
  else dirtyForms.delete(id);
  emit();
}

/** Whether any mounted form holds unsaved changes. */
export const hasUnsavedChanges = () => dirtyForms.size > 0;

function useAnyDirty(): boolean {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, hasUnsavedChanges);
}

/** Asks whether to throw the unsaved changes away (the app's one confirm dialog); true: discard them. */
export function confirmDiscard(): Promise<boolean> {
  return confirm(DISCARD_STRINGS.message, { title: DISCARD_STRINGS.title, confirmLabel: DISCARD_STRINGS.confirm });
}

/** The dialog a form sits in (components/form-modal.tsx): the forms inside report their state to it too. */
interface DirtyScope {
  report: (id: string, dirty: boolean) => void;
}
const DirtyScopeContext = createContext<DirtyScope | null>(null);

export function DirtyScopeProvider({ scope, children }: { scope: DirtyScope; children: ReactNode }) {
  return <DirtyScopeContext.Provider value={scope}>{children}</DirtyScopeContext.Provider>;
}

/**
 * Declares whether this form has unsaved changes (e.g. `useDirtyGuard(form.isDirty())`): while it has, leaving the
 * page, closing the tab or closing the dialog it sits in asks first. Unmounting the form clears it.
 */
export function useDirtyGuard(dirty: boolean): void {
  const id = useId();
  const scope = useContext(DirtyScopeContext);
  useEffect(() => {
    setDirty(id, dirty);
    scope?.report(id, dirty);
  }, [id, dirty, scope]);
  useEffect(
    () => () => {
      setDirty(id, false);
      scope?.report(id, false);
    },
    [id, scope],
  );
}

/** Forgets every unsaved form (after the person chose to discard them, just before they unmount). */
function clearAll() {
  if (!dirtyForms.size) return;
  dirtyForms.clear();
  emit();
}

/** Where a plain left click on a link inside the app would go, or null when the browser or the router is not asked. */
function inAppTarget(e: MouseEvent): URL | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return null;
  if ((link.getAttribute('target') ?? '_self') !== '_self') return null;
  const url = new URL(link.href, window.location.href);
  return url.origin === window.location.origin ? url : null;
}

/**
 * Mounted once behind sign-in (app/signed-in.tsx): with unsaved changes, following a link to another page (the
 * sidebar, a card, a breadcrumb) asks first, and closing or reloading the tab gets the browser's own "Leave site?"
 * question. Changing only the query (a filter, a page of a list) never asks: it does not unmount the form.
 *
 * The app keeps React Router's declarative BrowserRouter: its data router (the one with useBlocker) would add about
 * 16 KB to the sign-in page (docs/performance.md "First page"). So the question is asked where a person starts to
 * leave: a click on a link, caught before the router's own handler. The browser's Back button is not held
 * (docs/decisions.md "Nothing lost and server trouble"); long forms keep a draft for that case.
 */
export function LeaveGuard() {
  const anyDirty = useAnyDirty();
  const navigate = useNavigate();
  const asking = useRef(false);

  useEffect(() => {
    if (!anyDirty) return;
    const onClick = (e: MouseEvent) => {
      const url = inAppTarget(e);
      if (!url || url.pathname === window.location.pathname || !hasUnsavedChanges()) return;
      // Before the link's own handler (the router's) and the browser's default: the question comes first.
      e.preventDefault();
      e.stopPropagation();
      if (asking.current) return;
      asking.current = true;
      void confirmDiscard().then((discard) => {
        asking.current = false;
        if (!discard) return;
        discardDrafts();
        clearAll();
        void navigate(url.pathname + url.search + url.hash);
      });
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when a value is returned.
      e.returnValue = '';
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [anyDirty, navigate]);

  return null;
}

// ---- Drafts of long forms -------------------------------------------------------------------------------------

const DRAFT_PREFIX = 'lm.draft.';
/** The drafts of the forms on screen now, which a confirmed "Discard changes" on leaving removes. */
const liveDrafts = new Set<string>();

function discardDrafts() {
  for (const key of liveDrafts) sessionStorage.removeItem(DRAFT_PREFIX + key);
}

function readDraft<V>(key: string): Partial<V> | null {
  try {
    const raw = sessionStorage.getItem(DRAFT_PREFIX + key);
    return raw ? (JSON.parse(raw) as Partial<V>) : null;
  } catch {
    return null;
  }
}

/** The part of a Mantine form a draft needs. */
export interface DraftableForm<V> {
  values: V;
  isDirty: () => boolean;
  setValues: (values: Partial<V>) => void;
  reset: () => void;
}

/**
 * Keeps the unsaved values of a long form in this tab's sessionStorage under `key` (null: no draft, e.g. while the
 * form's data loads or its dialog is closed) while it is dirty, and puts them back when the form opens again: after a reload, a closed
 * dialog, or an ended session and a new sign-in. Also guards the form (useDirtyGuard). The draft goes when the form
 * is saved (no longer dirty), or discarded (`discard()`, or "Discard changes" on leaving), or its dialog closes.
 * `restored` says the form shows a draft, so the screen can say so.
 */
export function useFormDraft<V>(form: DraftableForm<V>, key: string | null, reset: () => void = form.reset) {
  // A form without a key (its dialog closed) guards nothing, whatever it still holds.
  const dirty = key !== null && form.isDirty();
  useDirtyGuard(dirty);
  const [restored, setRestored] = useState(false);
  const loadedKey = useRef<string | null>(null);
  const restoring = useRef(false);

  // Once per opening: put the draft back (the form's initial values are in place by now). A dialog closed in the
  // app (Cancel, saved, or a confirmed discard) takes its draft with it; a closed tab or an ended session does not.
  useEffect(() => {
    const previous = loadedKey.current;
    if (previous === key) return;
    if (previous) sessionStorage.removeItem(DRAFT_PREFIX + previous);
    loadedKey.current = key;
    if (!key) return setRestored(false);
    const draft = readDraft<V>(key);
    restoring.current = draft !== null;
    if (draft) form.setValues(draft);
    setRestored(draft !== null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Keep it while dirty; a saved or reset form has none.
  const serialized = JSON.stringify(form.values);
  useEffect(() => {
    if (!key || loadedKey.current !== key) return;
    // The render that puts a draft back has not got its values yet.
    if (restoring.current) return void (restoring.current = false);
    if (dirty) sessionStorage.setItem(DRAFT_PREFIX + key, serialized);
    else {
      sessionStorage.removeItem(DRAFT_PREFIX + key);
      setRestored(false);
    }
  }, [key, dirty, serialized]);

  useEffect(() => {
    if (!key) return;
    liveDrafts.add(key);
    return () => void liveDrafts.delete(key);
  }, [key]);

  /** Throws the draft away: the form goes back to its saved values (`reset`, by default the form's own). */
  const discard = () => {
    if (key) sessionStorage.removeItem(DRAFT_PREFIX + key);
    setRestored(false);
    reset();
  };

  return { restored, discard };
}

/** Says above a long form that it shows a draft kept from earlier, with the button that throws it away. */
export function DraftRestoredAlert({ draft }: { draft: { restored: boolean; discard: () => void } }) {
  if (!draft.restored) return null;
  return (
    <Alert color="blue" icon={<IconHistory size={18} />} mb="md" data-testid="draft-restored">
      <Group justify="space-between" gap="sm">
        {DISCARD_STRINGS.restored}
        <Button size="xs" variant="default" onClick={draft.discard}>
          {DISCARD_STRINGS.discardDraft}
        </Button>
      </Group>
    </Alert>
  );
}
