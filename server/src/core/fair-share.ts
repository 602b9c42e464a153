/**
 * Bounded work per user (docs/security.md "Bounded work per request"), applied to every signed-in call of both
 * transports in one place, the procedure builders of core/trpc.ts:
 *
 *   fair share  one user runs at most CALLS_IN_FLIGHT_PER_USER calls at once; the next ones wait in that user's own
 *               queue (first come, first served), at most CALLS_WAITING_PER_USER beyond those running; past that
 *               429 with Retry-After. A call starts at once only when its user has none running; the others are
 *               started one per turn of the event loop, the users in turn (pump). One user's flood of batches then occupies a few slots of the event loop and the
 *               database, never everyone's.
 *   quotas      one user may do a creating action at most createQuota(role, action) times a minute
 *               (shared/src/policy.ts CREATES_PER_MINUTE, docs/decisions.md "Creation quotas"); past that 429.
 *
 * State is per server process and per app (keyed by the app's AppServices object, so each test app starts
 * empty); with several processes on one PostgreSQL database each counts its own (docs/security.md).
 */
import { createQuota, isRoleId, roleName, type PolicyAction } from '@lm/shared';
import { AppError } from '../base/errors.ts';
import type { AppServices } from './context.ts';
import type { AuthUser } from './identity.ts';

export const CALLS_IN_FLIGHT_PER_USER = 4;
export const CALLS_WAITING_PER_USER = 64;

export const BUSY_MESSAGE = 'Too many requests at once from your account. Wait a moment and try again.';

interface Lane {
  userId: number;
  running: number;
  waiting: Array<() => void>;
  /** In the ready ring (has a free slot and a waiting call). */
  ready: boolean;
}

interface QuotaWindow {
  start: number;
  count: number;
}

interface State {
  lanes: Map<number, Lane>;
  /** Users with a waiting call and a free slot, served in turn, one call per turn of the event loop. */
  ring: Lane[];
  pumping: boolean;
  quotas: Map<string, QuotaWindow>;
}

const states = new WeakMap<AppServices, State>();

function stateOf(services: AppServices): State {
  let state = states.get(services);
  if (!state) {
    state = { lanes: new Map(), ring: [], pumping: false, quotas: new Map() };
    states.set(services, state);
  }
  return state;
}

/**
 * Starts one waiting call per turn of the event loop (setImmediate: after pending I/O), taking the users in turn.
 * A queue of calls that read the database synchronously then never runs as one long task: a request of another
 * user that arrives meanwhile is read and served between two of them.
 */
function pump(state: State): void {
  if (state.pumping) return;
  state.pumping = true;
  const step = () => {
    const lane = state.ring.shift();
    if (lane) {
      lane.ready = false;
      const next = lane.waiting.shift();
      if (next && lane.running < CALLS_IN_FLIGHT_PER_USER) {
        lane.running++;
        next();
      } else if (next) lane.waiting.unshift(next);
      markReady(state, lane);
    }
    if (state.ring.length > 0) setImmediate(step);
    else state.pumping = false;
  };
  setImmediate(step);
}

function markReady(state: State, lane: Lane): void {
  if (!lane.ready && lane.waiting.length > 0 && lane.running < CALLS_IN_FLIGHT_PER_USER) {
    lane.ready = true;
    state.ring.push(lane);
  }
}

/** Runs one call of `userId` within that user's fair share: at once, after waiting its turn, or 429. */
export async function withFairShare<T>(services: AppServices, userId: number, run: () => Promise<T>): Promise<T> {
  const state = stateOf(services);
  let lane = state.lanes.get(userId);
  if (!lane) {
    lane = { userId, running: 0, waiting: [], ready: false };
    state.lanes.set(userId, lane);
  }
  // Only an idle user's call starts at once; the others go through pump(), one per turn, so a batch arriving never
  // runs several synchronous calls in the task that read it.
  if (lane.running === 0 && lane.waiting.length === 0) lane.running++;
  else {
    if (lane.running + lane.waiting.length >= CALLS_IN_FLIGHT_PER_USER + CALLS_WAITING_PER_USER) {
      throw new AppError('TOO_MANY_REQUESTS', BUSY_MESSAGE, { retryAfter: 1 });
    }
    // pump() takes a slot for it (running + 1) before it resumes.
    const waited = new Promise<void>((resolve) => lane.waiting.push(resolve));
    markReady(state, lane);
    pump(state);
    await waited;
  }
  try {
    return await run();
  } finally {
    lane.running--;
    if (lane.waiting.length > 0) {
      markReady(state, lane);
      pump(state);
    } else if (lane.running === 0) state.lanes.delete(userId);
  }
}

const MINUTE_MS = 60_000;

/** Counts one call of a creating action against the user's quota for it; 429 once the minute's quota is used up. */
export function takeQuota(
  services: AppServices,
  user: Pick<AuthUser, 'user_id' | 'role_id'>,
  action: PolicyAction,
  now = Date.now(),
): void {
  const limit = createQuota(isRoleId(user.role_id) ? roleName(user.role_id) : null, action);
  if (limit === undefined) return;
  const { quotas } = stateOf(services);
  if (quotas.size > 10_000) for (const [k, w] of quotas) if (now - w.start >= MINUTE_MS) quotas.delete(k);
  const key = `${user.user_id}|${action}`;
  let window = quotas.get(key);
  if (!window || now - window.start >= MINUTE_MS) {
    window = { start: now, count: 0 };
    quotas.set(key, window);
  }
  if (window.count >= limit) {
    const seconds = Math.max(1, Math.ceil((window.start + MINUTE_MS - now) / 1000));
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `You have done this ${limit} times in the last minute, the most allowed. Try again in ${seconds} seconds.`,
      { retryAfter: seconds },
    );
  }
  window.count++;
}
