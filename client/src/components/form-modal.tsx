import { useCallback, useMemo, useRef } from 'react';
import { Modal, type ModalProps } from '@mantine/core';
import { confirmDiscard, DirtyScopeProvider, useDirtyGuard } from '../lib/dirty-guard.tsx';

/**
 * Mantine's Modal for a form: while the form holds unsaved changes, Escape, the × and a click outside ask before
 * closing (docs/decisions.md "Nothing lost"); the form's own Cancel button still closes at once (the person chose
 * to). The form says it is dirty either through `dirty` (a form kept by the dialog's own component) or, from inside,
 * through useDirtyGuard (a form component rendered as the dialog's child).
 */
export function FormModal({ dirty = false, onClose, opened, ...props }: ModalProps & { dirty?: boolean }) {
  useDirtyGuard(opened && dirty);
  const inner = useRef(new Set<string>());
  const scope = useMemo(
    () => ({
      report: (id: string, isDirty: boolean) => {
        if (isDirty) inner.current.add(id);
        else inner.current.delete(id);
      },
    }),
    [],
  );
  const asking = useRef(false);

  const guardedClose = useCallback(() => {
    if (!(dirty || inner.current.size > 0)) return onClose();
    if (asking.current) return;
    asking.current = true;
    void confirmDiscard().then((discard) => {
      asking.current = false;
      if (discard) onClose();
    });
  }, [dirty, onClose]);

  return (
    <Modal opened={opened} onClose={guardedClose} {...props}>
      <DirtyScopeProvider scope={scope}>{props.children}</DirtyScopeProvider>
    </Modal>
  );
}
