/**
 * Where the server's log goes (docs/decisions.md "Operations"). JSON lines for services, journald and the bench (stdout
 * not a terminal, or LOG_FORMAT=json); on a person's terminal the same lines read by pino-pretty: time, level (WARN and
 * ERROR in colour), and for a request its method, URL, status and milliseconds on one line.
 *
 * pino-pretty runs in-process as the logger's stream, not as a pino transport: a transport is loaded by module name in
 * a worker thread, and its options (this message format is a function) must cross to it as data.
 */
import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

export type LogFormat = 'json' | 'pretty';

interface RequestLog {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

type Colors = { red: (s: string) => string; yellow: (s: string) => string; dim: (s: string) => string };

/** `GET /api/licenses 200 3.1 ms` for a request's line (app.ts logs one per request), the message otherwise. */
export function requestLine(log: Record<string, unknown>, messageKey: string, colors?: Colors): string {
  const { req, res, responseTime } = log as RequestLog;
  const msg = String(log[messageKey] ?? '');
  if (!req?.method || res?.statusCode === undefined || typeof responseTime !== 'number') return msg;
  const code = res.statusCode;
  const status = colors ? (code >= 500 ? colors.red : code >= 400 ? colors.yellow : String)(String(code)) : String(code);
  const ms = `${responseTime.toFixed(1)} ms`;
  // "request completed" says nothing the line does not; another message (request errored) is kept.
  const extra = msg && msg !== 'request completed' ? ` ${msg}` : '';
  return `${req.method} ${req.url} ${status} ${colors ? colors.dim(ms) : ms}${extra}`;
}

/** Fastify's logger options for a level and a format. */
export function loggerOptions(level: string, format: LogFormat): NonNullable<FastifyServerOptions['logger']> {
  if (format === 'json') return { level };
  const stream = pretty({
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    singleLine: true,
    // Lines in order with the server's console.log lines, and none lost when it exits.
    sync: true,
    messageFormat: (log, messageKey, _levelLabel, { colors }) => requestLine(log, messageKey, colors),
  });
  return { level, stream };
}
