/**
 * The one way to tell a person something in the notification centre. CONTRACT STUB: the notification-centre work
 * replaces the body (preferences, in-app row, delivery history); callers keep this signature.
 */
import type { InboxEvent } from '@lm/shared';
import type { Tx } from '../../db/client.ts';

export interface InboxMessage {
  user_id: number;
  event: InboxEvent;
  title: string;
  body?: string;
  /** Client path of the object, e.g. /documents?open=12 */
  link?: string | null;
  object_type?: string | null;
  object_id?: number | null;
  /** At most one notification per key (the daily pass uses it). */
  dedup_key?: string | null;
}

/** Inside the transaction of the change it reports, so both commit together. */
export async function notifyUser(_tx: Tx, _message: InboxMessage): Promise<void> {}
