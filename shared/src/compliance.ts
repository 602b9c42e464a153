/**
 * The compliance judgement (docs/decisions.md "Compliance"): the one answer to "is this license expired, complete,
 * at risk?", "what does it still need?" and "what is expiring?". Pure and dated by the office's calendar (`today`,
 * YYYY-MM-DD). The server's SQL counterpart is server/src/modules/licenses/compliance.sql.ts; a test holds every
 * screen's query to these functions on one fixture (server/test/compliance.test.ts).
 */
import { z } from 'zod';
import { daysBetween } from './dates.ts';
import { CE_TOPICS, roundHours, type LicenseStatus } from './domain-constants.ts';

/** The states in the order people must act on them: at risk first, complete last (the list's compliance sort). */
export const COMPLIANCE_STATES = ['at_risk', 'expired', 'on_track', 'complete'] as const;
export type ComplianceState = (typeof COMPLIANCE_STATES)[number];

/** A license that is not complete is at risk when it expires within this many days. */
export const AT_RISK_DAYS = 90;

/** Statuses whose licenses still "expire": an Inactive, Suspended or Expired license is not counted as expiring. */
export const EXPIRING_STATUSES = ['Active', 'Pending Renewal'] as const satisfies readonly LicenseStatus[];

export const topicMissingSchema = z.object({ topic: z.enum(CE_TOPICS), hours: z.number() });
export type TopicMissing = z.infer<typeof topicMissingSchema>;

export const complianceSchema = z.object({
  state: z.enum(COMPLIANCE_STATES),
  /** Hours still to take this cycle: the larger of the total still missing and the required topics still missing. */
  hours_remaining: z.number(),
  /** The state rule's required topics not yet met this cycle, with the hours each still needs. */
  topics_missing: z.array(topicMissingSchema),
  /** Days from the office's today to the expiration date (negative once past). */
  days_left: z.number().int(),
});
export type Compliance = z.infer<typeof complianceSchema>;

/** What the judgement reads of a license (the current cycle's figures as the CE ledger keeps them). */
export interface ComplianceFacts {
  expiration_date: string;
  ce_hours_required: number;
  ce_hours_completed: number;
  ce_topics_missing: readonly TopicMissing[];
}

/** The hours a cycle still needs: topic hours count toward the total, so the larger of the two shortfalls. */
export function hoursRemaining(required: number, completed: number, topicsMissing: readonly TopicMissing[]): number {
  const topicHours = topicsMissing.reduce((s, t) => s + t.hours, 0);
  return roundHours(Math.max(0, required - completed, topicHours));
}

/** Past its expiration date: the day after it, in the office's calendar (a license expiring today is not expired). */
export function isExpired(expirationDate: string, today: string): boolean {
  return expirationDate < today;
}

/**
 * The one judgement of a license: expired once its expiration date has passed; otherwise complete when the
 * current cycle's hours and every required topic are met; otherwise at risk within AT_RISK_DAYS of expiry,
 * on track before that.
 */
export function complianceOf(l: ComplianceFacts, today: string): Compliance {
  const hours_remaining = hoursRemaining(l.ce_hours_required, l.ce_hours_completed, l.ce_topics_missing);
  const days_left = daysBetween(today, l.expiration_date);
  const topics_missing = l.ce_topics_missing.map((t) => ({ topic: t.topic, hours: t.hours }));
  const state: ComplianceState = isExpired(l.expiration_date, today)
    ? 'expired'
    : hours_remaining === 0
      ? 'complete'
      : days_left <= AT_RISK_DAYS
        ? 'at_risk'
        : 'on_track';
  return { state, hours_remaining, topics_missing, days_left };
}

/**
 * The status a license reads as: an Active license whose expiration date has passed is Expired, whether or not the
 * daily pass has written it yet. Suspended, Inactive and Pending Renewal stay what an Admin set.
 */
export function licenseStatusOn(status: LicenseStatus, expirationDate: string, today: string): LicenseStatus {
  return status === 'Active' && isExpired(expirationDate, today) ? 'Expired' : status;
}

/** "Expiring within N days": a live status and an expiration date from today to today + N, both included. */
export function isExpiringWithin(l: { status: LicenseStatus; expiration_date: string }, today: string, days: number): boolean {
  const left = daysBetween(today, l.expiration_date);
  return (EXPIRING_STATUSES as readonly LicenseStatus[]).includes(l.status) && left >= 0 && left <= days;
}

/** Hours a month needed to finish in time (a month taken as 30 days; the last month counts whole). */
export function hoursPerMonth(c: Pick<Compliance, 'hours_remaining' | 'days_left'>): number {
  if (c.hours_remaining === 0) return 0;
  const months = Math.max(1, Math.ceil(Math.max(0, c.days_left) / 30));
  return roundHours(c.hours_remaining / months);
}

/** The words people see for each state. */
export const COMPLIANCE_LABELS: Record<ComplianceState, string> = {
  at_risk: 'At risk',
  expired: 'Expired',
  on_track: 'On track',
  complete: 'CE complete',
};
export const COMPLIANCE_COLORS: Record<ComplianceState, 'orange' | 'red' | 'blue' | 'green'> = {
  at_risk: 'orange',
  expired: 'red',
  on_track: 'blue',
  complete: 'green',
};
