/**
 * The tables services query: this process's engine's (db/engine.ts), typed as the SQLite definitions.
 * The PostgreSQL tables have the same names, columns and row types (server/test/schema-parity.test.ts
 * checks it), so one service works on both (docs/architecture.md "Data layer").
 */
import * as sqlite from './sqlite/index.ts';
import * as pg from './pg/index.ts';
import { ENGINE } from '../engine.ts';

export type * from './sqlite/index.ts';

const active = (ENGINE === 'postgres' ? pg : sqlite) as unknown as typeof sqlite;

export const {
  brokerages,
  knownSources,
  loginCounters,
  sessions,
  users,
  licenses,
  completions,
  courses,
  ceAdjustments,
  ceRules,
  licenseCycles,
  payments,
  auditLogs,
  notificationDeliveries,
  notificationTemplates,
  backups,
  settings,
  passwordResetTokens,
  jobRuns,
  documents,
  documentVersions,
  certificateCompletions,
  storedFileChunks,
  notifications,
  notificationPreferences,
  calendarFeeds,
  webhookEndpoints,
  webhookDeliveries,
  webhookAttempts,
  webhookEventKeys,
  apiKeys,
  idempotencyKeys,
  deletions,
  imports,
  importRows,
  licenseTotals,
  licenseMonthTotals,
  paymentTotals,
} = active;
