/**
 * CSV export of a list screen's current view: GET /api/<list>/export?<the list's filters and sort>.
 * One declaration per list (`listExport({...})`) gives the route and its OpenAPI entry. The rows come from the
 * list's own page function, page after page by cursor (each chunk one indexed range read after the last row of the
 * one before, never OFFSET: docs/decisions.md "Paging at any size"), so the file holds exactly what the screen would
 * show under the same scope (core/scope.ts), filters and sort, without page and limit; they stream (http/csv.ts,
 * which reads the next chunk only when the client has taken the last), formula-safe.
 * Plain Fastify routes, because the REST adapter cannot return files (docs/architecture.md "Layers").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { PolicyAction } from '@lm/shared';
import type { AuthedContext } from '../core/context.ts';
import { today } from '../core/dates.ts';
import { authenticate } from './authenticate.ts';
import type { FileRoutes, RouteDeps } from './file-routes.ts';
import { sendCsv, type CsvCell } from './csv.ts';

/** Rows read per round trip while exporting (docs/performance.md "Exports"). */
export const EXPORT_CHUNK = 2000;

/** One chunk of an export: its rows, and the cursor of the next (null after the last). */
export interface ExportChunk<R> {
  rows: R[];
  next_cursor: string | null;
}

/** An export's chunk from a list's page answer (its rows, and its pagination's next_cursor). */
export const chunkOf = <R>(rows: R[], page: { pagination: { next_cursor: string | null } }): ExportChunk<R> => ({
  rows,
  next_cursor: page.pagination.next_cursor,
});

export interface ListExport<Q, R> {
  /** Path under /api, e.g. '/licenses/export'. */
  path: string;
  /** OpenAPI tag, and the file's name: `{name}_{today}.csv`. */
  name: string;
  /** Who may export: the action of the access policy the list's page procedure has (its read action). */
  action: PolicyAction;
  /** The list's query schema (its filters, sort and order); page and limit are ignored. */
  query: z.ZodType<Q>;
  /** Header text and cell of each column, in file order. */
  columns: ReadonlyArray<{ header: string; value: (row: R) => CsvCell }>;
  /** One page of the list as the page procedure reads it (same scope, filters, sort), asked by cursor (undefined: the first). */
  page: (ctx: AuthedContext, query: Q, cursor: string | undefined, limit: number) => Promise<ExportChunk<R>>;
  /** One line for the OpenAPI document: what a row is. */
  rows: string;
  /** Query parameters for the OpenAPI document (name, description). */
  parameters?: ReadonlyArray<{ name: string; description?: string; schema?: Record<string, unknown> }>;
}

async function exportList<Q, R>(deps: RouteDeps, spec: ListExport<Q, R>, req: FastifyRequest, reply: FastifyReply) {
  const ctx = await authenticate(deps, req, spec.action);
  // A ZodError here goes through the app's error handler: 400 with the schema's message, nothing sent.
  const query = spec.query.parse(req.query ?? {});
  const columns = spec.columns.map((c, i) => ({ key: String(i), header: c.header }));
  // The first page is read before the answer starts, so a refused scope or a database error is a clean error answer.
  const first = await spec.page(ctx, query, undefined, EXPORT_CHUNK);
  const toRow = (r: R) => Object.fromEntries(spec.columns.map((c, i) => [String(i), c.value(r)]));
  return sendCsv(
    reply,
    {
      columns,
      async *chunks() {
        let chunk = first;
        for (;;) {
          if (chunk.rows.length) yield chunk.rows.map(toRow);
          if (!chunk.next_cursor) return;
          chunk = await spec.page(ctx, query, chunk.next_cursor, EXPORT_CHUNK);
        }
      },
    },
    `${spec.name}_${today()}.csv`,
  );
}

/** The routes and OpenAPI paths of some list exports. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry keeps its own Q and R.
export function listExports(...specs: ListExport<any, any>[]): FileRoutes {
  return {
    register(api, deps) {
      for (const spec of specs) api.get(spec.path, (req, reply) => exportList(deps, spec, req, reply));
    },
    access: Object.fromEntries(specs.map((spec) => [`GET ${spec.path.replace(/:(\w+)/g, '{$1}')}`, spec.action])),
    paths: Object.fromEntries(
      specs.map((spec) => [
        spec.path.replace(/:(\w+)/g, '{$1}'),
        {
          get: {
            tags: [spec.name],
            summary: `Download the ${spec.name} list as CSV, with the list's filters and sort (no paging)`,
            description: `${spec.rows}. Saved as ${spec.name}_{today}.csv. The same scope as the list: a caller sees the rows it may list. Cells that a spreadsheet would run as a formula are prefixed with a single quote.`,
            security: [{ Authorization: [] }],
            parameters: (spec.parameters ?? []).map((p) => ({ in: 'query', required: false, schema: { type: 'string' }, ...p })),
            responses: {
              '200': {
                description: `text/csv attachment ${spec.name}_{today}.csv`,
                content: { 'text/csv': { schema: { type: 'string' } } },
              },
              '400': { description: 'Invalid filter: {error, code, issues}' },
              '401': { description: 'Not signed in' },
              '403': { description: 'Not allowed to list these' },
            },
          },
        },
      ]),
    ),
  };
}
