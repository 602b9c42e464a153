import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ZodError } from 'zod';
import type { ErrorBody } from '@lm/shared';
import { isConnectionError, isDataException, isDiskFull } from './driver-code.ts';

/**
 * The one error type of the server. Services throw AppError; the table below maps each code to its
 * tRPC code and HTTP status, and toErrorBody() turns anything thrown into the body of docs/api.md.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { trpc: 'BAD_REQUEST', status: 400 },
  UNAUTHORIZED: { trpc: 'UNAUTHORIZED', status: 401 },
  FORBIDDEN: { trpc: 'FORBIDDEN', status: 403 },
  NOT_FOUND: { trpc: 'NOT_FOUND', status: 404 },
  CONFLICT: { trpc: 'CONFLICT', status: 409 },
  PRECONDITION_FAILED: { trpc: 'PRECONDITION_FAILED', status: 412 },
  PAYLOAD_TOO_LARGE: { trpc: 'PAYLOAD_TOO_LARGE', status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { trpc: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
  TOO_MANY_REQUESTS: { trpc: 'TOO_MANY_REQUESTS', status: 429 },
  // tRPC has no 507; listed before SERVICE_UNAVAILABLE so that a bare tRPC 503 still maps to SERVICE_UNAVAILABLE.
  INSUFFICIENT_STORAGE: { trpc: 'SERVICE_UNAVAILABLE', status: 507 },
  SERVICE_UNAVAILABLE: { trpc: 'SERVICE_UNAVAILABLE', status: 503 },
  INTERNAL_SERVER_ERROR: { trpc: 'INTERNAL_SERVER_ERROR', status: 500 },
} as const satisfies Record<string, { trpc: TRPC_ERROR_CODE_KEY; status: number }>;

export type AppErrorCode = keyof typeof ERROR_CODES;
export interface ErrorIssue {
  path: string;
  message: string;
}

export class AppError extends TRPCError {
  readonly appCode: AppErrorCode;
  readonly issues: ErrorIssue[] | undefined;
  /** Seconds until a retry may succeed (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(code: AppErrorCode, message: string, extra: { issues?: ErrorIssue[]; retryAfter?: number; cause?: unknown } = {}) {
    super({ code: ERROR_CODES[code].trpc, message, cause: extra.cause });
    this.name = 'AppError';
    this.appCode = code;
    this.issues = extra.issues;
    this.retryAfter = extra.retryAfter;
  }
}

export const badRequest = (message: string, issues?: ErrorIssue[]) => new AppError('BAD_REQUEST', message, { issues });
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', message);
export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);

/** docs/security.md "Faults": the database went away mid-request (a restart, a terminated connection). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable at the moment. Please try again in a few seconds.';
/** docs/security.md "Faults": a write refused because the disk holding the data is full. */
export const DISK_FULL_MESSAGE =
  "The server's disk is full, so changes cannot be saved right now. Nothing was changed; viewing still works. Ask your administrator to free space.";
/** Seconds a client is asked to wait before retrying after a lost database connection. */
export const DATABASE_RETRY_AFTER = 2;

/** A database or disk fault as the AppError the client sees (503 with Retry-After, or 507); undefined for anything else. */
export function faultError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return undefined;
  if (isDiskFull(err)) return new AppError('INSUFFICIENT_STORAGE', DISK_FULL_MESSAGE, { cause: err });
  if (isConnectionError(err)) {
    return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, { retryAfter: DATABASE_RETRY_AFTER, cause: err });
  }
  return undefined;
}

export function zodIssues(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

const TRPC_TO_APP: Partial<Record<TRPC_ERROR_CODE_KEY, AppErrorCode>> = Object.fromEntries(
  Object.entries(ERROR_CODES).map(([app, v]) => [v.trpc, app as AppErrorCode]),
);

/** Messages safe to show for errors we did not raise ourselves. */
const GENERIC: Partial<Record<AppErrorCode, string>> = {
  INTERNAL_SERVER_ERROR: 'Something went wrong on the server. Please try again.',
  BAD_REQUEST: 'The request is not valid',
};

/** Maps anything thrown to {status, body}. Never exposes a stack trace or an internal message. */
export function toErrorBody(err: unknown): { status: number; body: ErrorBody; retryAfter?: number } {
  let e: unknown = err;
  // tRPC wraps thrown errors; look through to ours.
  if (e instanceof TRPCError && !(e instanceof AppError) && e.cause) {
    if (e.cause instanceof AppError || e.cause instanceof ZodError) e = e.cause;
  }
  // A lost database connection or a full disk, wherever it surfaced (docs/security.md "Faults").
  if (!(e instanceof AppError) && !(e instanceof ZodError)) e = faultError(e) ?? e;
  if (e instanceof AppError) {
    return {
      status: ERROR_CODES[e.appCode].status,
      body: { error: e.message, code: e.appCode, ...(e.issues ? { issues: e.issues } : {}) },
      retryAfter: e.retryAfter,
    };
  }
  if (e instanceof ZodError) {
    const issues = zodIssues(e);
    return { status: 400, body: { error: issues[0]?.message ?? 'The request is not valid', code: 'BAD_REQUEST', issues } };
  }
  // A value the database cannot hold (e.g. an id beyond PostgreSQL's integer) is the client's input, not a fault.
  if (isDataException(err)) return { status: 400, body: { error: GENERIC.BAD_REQUEST!, code: 'BAD_REQUEST' } };
  if (e instanceof TRPCError) {
    const app = TRPC_TO_APP[e.code] ?? 'INTERNAL_SERVER_ERROR';
    const status = ERROR_CODES[app].status;
    const message = status >= 500 ? GENERIC.INTERNAL_SERVER_ERROR! : e.message || GENERIC[app] || 'Request failed';
    return { status, body: { error: message, code: app } };
  }
  return { status: 500, body: { error: GENERIC.INTERNAL_SERVER_ERROR!, code: 'INTERNAL_SERVER_ERROR' } };
}
