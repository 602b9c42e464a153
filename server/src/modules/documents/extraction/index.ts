/**
 * Reading CE certificates in the background (docs/decisions.md "Documents"). CONTRACT STUB: the OCR work replaces this file;
 * callers keep these signatures. The documents module calls queueExtraction after a ce_certificate version
 * commits (its extraction_status is 'pending'); the app re-queues pending versions at start and stops on close.
 */
import type { Db } from '../../../db/client.ts';

/** Queues one version for reading; returns at once. `read` gives the stored bytes. */
export function queueExtraction(_db: Db, _versionId: number, _read: () => Promise<Buffer>): void {}

/** Resolves when every queued reading has finished (tests). */
export async function extractionsSettled(): Promise<void> {}

/** Stops taking work and waits for the reading in progress (app close). */
export async function stopExtraction(): Promise<void> {}
