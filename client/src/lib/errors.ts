import { TRPCClientError } from '@trpc/client';

/** The server's error text (its `error` field, which tRPC carries as the message), else the fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof TRPCClientError) {
    // A network failure or a non-JSON answer has no server text worth showing.
    if (err.data?.httpStatus && err.message) return err.message;
    return fallback;
  }
  return fallback;
}

export function httpStatus(err: unknown): number | undefined {
  return err instanceof TRPCClientError ? (err.data?.httpStatus as number | undefined) : undefined;
}

/** Field messages sent by the server for a 400, keyed by field path. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof TRPCClientError)) return {};
  const issues = (err.data?.issues ?? []) as Array<{ path: string; message: string }>;
  return Object.fromEntries(issues.map((i) => [i.path, i.message]));
}

/**
 * Whether the server could not be reached (no answer, an answer that is not the app's, or a gateway's 502/503/504),
 * as opposed to an answer of the app's own: such calls are worth retrying until it is back.
 */
export function serverUnreachable(err: unknown): boolean {
  if (!(err instanceof TRPCClientError)) return false;
  const status = httpStatus(err);
  return status === undefined || status === 502 || status === 503 || status === 504;
}
