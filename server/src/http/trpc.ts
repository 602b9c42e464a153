/**
 * The /trpc transport (docs/architecture.md "The path of one request", docs/performance.md "API throughput").
 *
 * tRPC's own Fastify adapter turns every request into a Fetch `Request` (URL, Headers, AbortController), answers
 * it with a Fetch `Response` and streams that back into Node. For what the browser and integrators send — GET
 * queries and POST mutations in plain JSON, single or batched — this route does the same steps as tRPC's
 * `resolveResponse` directly on Fastify's request: one JSON.parse of the input (lazily, as tRPC does), the
 * procedures called as tRPC calls them, the same envelope, error shapes (getErrorShape, so our errorFormatter),
 * statuses (getHTTPStatusCode), headers and responseMeta/onError/createContext calls, and one JSON string sent.
 * Everything else (HEAD, jsonl streaming, subscriptions, FormData and octet inputs, encoded query names, batches
 * over maxBatchSize) goes to tRPC's own `fastifyRequestHandler`, unchanged, so it answers as tRPC always did.
 * Before either, `refuseBatch` (app.ts: batchRefusal) refuses a batch that is too large or holds an auth.* call.
 * server/test/trpc-transport.test.ts compares both answers request by request.
 *
 * A workaround kept in this one file (docs/architecture.md "Where we reach into a dependency"): it uses only tRPC's
 * public entry points (`@trpc/server`, `@trpc/server/http`, its Fastify adapter) and reads the router's procedure
 * table (`_def.procedures`) as trpc-to-openapi does; the transport test fails on an upgrade that changes an answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  getTRPCErrorFromUnknown,
  getTRPCErrorShape as getErrorShape,
  transformTRPCResponse,
  TRPCError,
  type AnyRouter,
  type AnyTRPCProcedure as AnyProcedure,
} from '@trpc/server';
import { getHTTPStatusCode, type TRPCRequestInfo } from '@trpc/server/http';
import { fastifyRequestHandler, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';

type TRPCRequestInfoProcedureCall = TRPCRequestInfo['calls'][number];
/** One answer of the envelope, as tRPC's getHTTPStatusCode takes it. */
type TRPCResponse = Exclude<Parameters<typeof getHTTPStatusCode>[0], unknown[]>;

const isObject = (value: unknown): value is Record<string, unknown> => !!value && !Array.isArray(value) && typeof value === 'object';
const isPromise = (value: unknown): boolean => isObject(value) && typeof value.then === 'function';
const isAsyncIterable = (value: unknown): boolean => isObject(value) && Symbol.asyncIterator in value;

export type TrpcOptions<TRouter extends AnyRouter> = FastifyTRPCPluginOptions<TRouter>['trpcOptions'];

/**
 * Bounded work per request (docs/security.md "Bounded work per request"): a batch holds at most this many calls
 * (tRPC's documented `maxBatchSize`, set in app.ts, and the client's `maxItems`), so that the sign-in gate, the
 * per-user fair share and every other counter see what one request may cost.
 */
export const MAX_BATCH_CALLS = 10;

/**
 * The largest answer /trpc sends (characters of JSON): lists are capped (docs/security.md "Bounded work per
 * request"), so only a pathological batch comes near; it gets a 413 instead of a string V8 cannot build.
 */
export const MAX_ANSWER_CHARS = 32 * 1024 * 1024;

type RouterConfig = AnyRouter['_def']['_config'];

/** One error for the whole request, as tRPC answers a request it cannot read or answer: its JSON. */
function wholeRequestError(config: RouterConfig, code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE', message: string): string {
  const error = new TRPCError({ code, message });
  const shape = getErrorShape({ config, error, type: 'unknown', path: undefined, input: undefined, ctx: undefined });
  return JSON.stringify(transformTRPCResponse(config, { error: shape }));
}

const TOO_LARGE_MESSAGE = 'The answer would be larger than 32 MiB: ask for fewer rows (limit) or fewer calls in one request.';

/** The answer's JSON, or the 413 error when it would be over MAX_ANSWER_CHARS (or over what V8 can build at all). */
export function answerJson(config: RouterConfig, status: number, value: unknown): { status: number; json: string } {
  try {
    const json = JSON.stringify(value);
    if (json.length <= MAX_ANSWER_CHARS) return { status, json };
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
  }
  return { status: 413, json: wholeRequestError(config, 'PAYLOAD_TOO_LARGE', TOO_LARGE_MESSAGE) };
}

/** The routers whose calls are never batched: each sign-in, password link or session call is a request of its own. */
const UNBATCHED_ROUTERS = ['auth.'];

/**
 * Why a batch is refused, or null: more calls than the limit, or an `auth.*` call in it. Checked on the path alone,
 * before the body is read, a context created or any call run.
 */
export function batchRefusal(paths: string[], maxCalls = MAX_BATCH_CALLS): string | null {
  if (paths.length > maxCalls) {
    return `A batch may hold at most ${maxCalls} calls; this one has ${paths.length}. Send the others in another request.`;
  }
  if (paths.some((p) => UNBATCHED_ROUTERS.some((prefix) => p.startsWith(prefix)))) {
    return 'Sign-in and account calls (auth.*) cannot be batched: send each as a request of its own.';
  }
  return null;
}

/** The calls of a batch request (`?batch=1`, as tRPC reads it), or null for a single call or a path that does not decode. */
function batchPaths(req: FastifyRequest, rawPath: string): string[] | null {
  const q = req.url.indexOf('?');
  if (q === -1) return null;
  const search = req.url.slice(q + 1);
  if (!search.includes('batch')) return null;
  if (new URLSearchParams(search).get('batch') !== '1') return null;
  try {
    return decodeURIComponent(rawPath).split(',');
  } catch {
    return null;
  }
}

/** The fast path never aborts a call (tRPC's signal only aborted when the client went away; no procedure reads it). */
const NEVER_ABORTED = new AbortController().signal;

const SEARCH_SAFE = /^[\x21\x22\x24-\x7e]*$/;

interface FastRequest {
  method: 'GET' | 'POST';
  isBatchCall: boolean;
  paths: string[];
  /** GET: the `input` query parameter; POST: the body. */
  rawInput: string | null;
}

/** Whether tRPC's `new URL(req.url, 'http://' + host)` would succeed: only the Host can make it fail. */
let lastGoodHost: string | undefined;
function hostParses(host: string | undefined): boolean {
  if (host === undefined || host === lastGoodHost) return true;
  try {
    new URL(`http://${host}`);
    lastGoodHost = host;
    return true;
  } catch {
    return false;
  }
}

/** A query value as URLSearchParams decodes it, or undefined when unsure (malformed escapes). */
function decodeValue(value: string): string | undefined {
  if (value.includes('+')) value = value.replace(/\+/g, ' ');
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The `batch` and `input` parameters (first of each, as URLSearchParams.get), or null to leave the request to tRPC. */
function readSearch(search: string): { batch: string | null; input: string | null } | null {
  const out = { batch: null as string | null, input: null as string | null };
  if (search === '') return out;
  if (!SEARCH_SAFE.test(search)) return null;
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (name.includes('%') || name.includes('+') || name === 'connectionParams') return null;
    if ((name === 'batch' && out.batch === null) || (name === 'input' && out.input === null)) {
      const value = decodeValue(eq === -1 ? '' : pair.slice(eq + 1));
      if (value === undefined) return null;
      out[name] = value;
    }
  }
  return out;
}

/** The plain JSON request of the fast path, or null when tRPC's own handler should answer it. */
function fastRequest(req: FastifyRequest, rawPath: string): FastRequest | null {
  const method = req.method;
  if (method !== 'GET' && method !== 'POST') return null;
  const headers = req.headers;
  if (headers['trpc-accept'] !== undefined) return null;
  if (headers.accept !== undefined && headers.accept.includes('application/jsonl')) return null;
  const contentType = headers['content-type'];
  let body: string | null = null;
  if (method === 'POST') {
    if (contentType === undefined || !contentType.startsWith('application/json') || typeof req.body !== 'string') return null;
    body = req.body;
  } else if (contentType !== undefined && !contentType.startsWith('application/json')) return null;
  if (!hostParses(headers.host)) return null;

  const url = req.url;
  const q = url.indexOf('?');
  const search = readSearch(q === -1 ? '' : url.slice(q + 1));
  if (!search) return null;
  let path: string;
  try {
    // tRPC decodes the (already decoded) route parameter once more.
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  const isBatchCall = search.batch === '1';
  return { method, isBatchCall, paths: isBatchCall ? path.split(',') : [path], rawInput: method === 'GET' ? search.input : body };
}

/** tRPC's isDataStream: an answer only a streaming link could carry. */
function isDataStream(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (isAsyncIterable(v)) return true;
  return Object.values(v).some(isPromise) || Object.values(v).some(isAsyncIterable);
}

type HeaderBag = Record<string, string | string[]>;

function appendHeader(headers: HeaderBag, key: string, value: string) {
  key = key.toLowerCase();
  const current = headers[key];
  if (current === undefined) headers[key] = key === 'set-cookie' ? [value] : value;
  else if (Array.isArray(current)) current.push(value);
  else headers[key] = `${current}, ${value}`;
}

function setHeader(headers: HeaderBag, key: string, value: string) {
  key = key.toLowerCase();
  headers[key] = key === 'set-cookie' ? [value] : value;
}

type CallResult = [TRPCError, undefined] | [undefined, unknown];

/** The serializer of an answer already written as JSON text. */
const asIs = (text: unknown): string => text as string;

async function answerFast<TRouter extends AnyRouter>(
  opts: TrpcOptions<TRouter>,
  fast: FastRequest,
  procedures: Array<AnyProcedure | null>,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const { router } = opts;
  const config = router._def._config;
  const { method, isBatchCall, paths } = fast;

  // The inputs, read and parsed once, on the first call that asks (tRPC's memo): a procedure without input, or
  // one refused by a middleware before its input is read, never sees a malformed one.
  let inputs: unknown[] | undefined;
  let inputsError: TRPCError | undefined;
  const readInputs = (): unknown[] => {
    if (inputs) return inputs;
    if (inputsError) throw inputsError;
    try {
      let raw: unknown = undefined;
      if (method === 'GET') {
        if (fast.rawInput) raw = JSON.parse(fast.rawInput);
      } else {
        // Request.json() decodes the body as UTF-8, which drops a byte order mark.
        const body = fast.rawInput!;
        raw = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
      }
      const acc: unknown[] = [];
      if (raw !== undefined) {
        const deserialize = config.transformer.input.deserialize;
        if (!isBatchCall) acc[0] = deserialize(raw);
        else {
          if (!isObject(raw)) {
            throw new TRPCError({ code: 'BAD_REQUEST', message: '"input" needs to be an object when doing a batch call' });
          }
          for (let i = 0; i < paths.length; i++) {
            const input = (raw as Record<number, unknown>)[i];
            if (input !== undefined) acc[i] = deserialize(input);
          }
        }
      }
      inputs = acc;
      return acc;
    } catch (cause) {
      inputsError =
        cause instanceof TRPCError
          ? cause
          : new TRPCError({ code: 'BAD_REQUEST', message: cause instanceof Error ? cause.message : 'Invalid input', cause });
      throw inputsError;
    }
  };

  const calls: TRPCRequestInfoProcedureCall[] = paths.map((path, index) => ({
    batchIndex: index,
    path,
    procedure: procedures[index]!,
    getRawInput: async () => readInputs()[index],
    result: () => inputs?.[index],
  }));
  const type = procedures.find((p) => p !== null)?._def.type ?? 'unknown';
  const info: TRPCRequestInfo = {
    isBatchCall,
    accept: null,
    calls,
    type,
    connectionParams: null,
    signal: NEVER_ABORTED,
    url: null,
  };

  let ctx: unknown = undefined;
  let ctxError: TRPCError | undefined;
  try {
    ctx = await opts.createContext?.({ req, res: reply, info });
  } catch (cause) {
    ctxError = getTRPCErrorFromUnknown(cause);
  }
  const ctxOrUndefined = ctxError ? undefined : ctx;

  const runCall = async (call: TRPCRequestInfoProcedureCall): Promise<CallResult> => {
    const proc = call.procedure;
    try {
      if (!proc) throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${call.path}"` });
      if ((proc._def.type === 'mutation') !== (method === 'POST')) {
        throw new TRPCError({
          code: 'METHOD_NOT_SUPPORTED',
          message: `Unsupported ${method}-request to ${proc._def.type} procedure at path "${call.path}"`,
        });
      }
      if (ctxError) throw ctxError;
      const data: unknown = await proc({
        path: call.path,
        getRawInput: call.getRawInput,
        ctx,
        type: proc._def.type,
        signal: undefined,
        batchIndex: call.batchIndex,
      });
      return [undefined, data];
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      opts.onError?.({ error, path: call.path, input: call.result(), ctx: ctxOrUndefined, type: proc?._def.type ?? 'unknown', req });
      return [error, undefined];
    }
  };
  const rpcCalls = calls.map(runCall);

  const headers: HeaderBag = { vary: 'trpc-accept, accept', 'content-type': 'application/json' };
  // tRPC's initResponse: the status from the answers, then responseMeta's headers and status.
  const initResponse = (untransformed: TRPCResponse | TRPCResponse[], errors: TRPCError[]): number => {
    let status = getHTTPStatusCode(untransformed);
    const meta =
      opts.responseMeta?.({
        ctx: ctxOrUndefined as never,
        info,
        paths: calls.map((c) => c.path),
        data: (Array.isArray(untransformed) ? untransformed : [untransformed]) as never,
        errors,
        eagerGeneration: false,
        type: calls.find((c) => c.procedure?._def.type)?.procedure?._def.type ?? 'unknown',
      }) ?? {};
    if (meta.headers) {
      if (meta.headers instanceof Headers) for (const [key, value] of meta.headers.entries()) appendHeader(headers, key, value);
      else
        for (const [key, value] of Object.entries(meta.headers)) {
          if (Array.isArray(value)) for (const v of value) appendHeader(headers, key, v);
          else if (typeof value === 'string') setHeader(headers, key, value);
        }
    }
    if (meta.status) status = meta.status;
    return status;
  };
  const send = (statusIfFits: number, value: unknown) => {
    const { status, json } = answerJson(config, statusIfFits, value);
    void reply.code(status);
    for (const key in headers) void reply.header(key, headers[key]);
    // The text as it is, under tRPC's content type: with a serializer of its own (Fastify's documented reply.serializer)
    // Fastify adds no "; charset=utf-8", and the text is not copied into a Buffer first.
    return reply.serializer(asIs).send(json);
  };

  try {
    if (!isBatchCall) {
      const call = calls[0]!;
      const [error, data] = await rpcCalls[0]!;
      if (isDataStream(data)) {
        throw new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
        });
      }
      const res: TRPCResponse = error
        ? { error: getErrorShape({ config, ctx: ctxOrUndefined, error, input: call.result(), path: call.path, type }) }
        : { result: { data } };
      const status = initResponse([res], error ? [error] : []);
      return send(status, transformTRPCResponse(config, res));
    }

    const results = (await Promise.all(rpcCalls)).map((res): CallResult => {
      if (res[0] === undefined && isDataStream(res[1])) {
        const error = new TRPCError({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Cannot use stream-like response in non-streaming request - use httpBatchStreamLink',
        });
        return [error, undefined];
      }
      return res;
    });
    const answers: TRPCResponse[] = results.map(([error, data], index) => {
      const call = calls[index]!;
      if (!error) return { result: { data } };
      const callType = call.procedure?._def.type ?? 'unknown';
      return { error: getErrorShape({ config, ctx: ctxOrUndefined, error, input: call.result(), path: call.path, type: callType }) };
    });
    const errors = results.flatMap(([error]) => (error ? [error] : []));
    const status = initResponse(answers, errors);
    return send(status, transformTRPCResponse(config, answers));
  } catch (cause) {
    // tRPC's caughtErrorToData: one error for the whole request, without a path.
    const error = getTRPCErrorFromUnknown(cause);
    opts.onError?.({ error, path: undefined, input: undefined, ctx: ctxOrUndefined, type, req });
    const untransformed: TRPCResponse = {
      error: getErrorShape({ config, error, type, path: undefined, input: undefined, ctx: ctxOrUndefined }),
    };
    const status = initResponse(untransformed, [error]);
    return send(status, transformTRPCResponse(config, untransformed));
  }
}

/**
 * Registers /trpc/:path in its own scope under `prefix`, with the JSON and multipart body handling of tRPC's
 * plugin (bodies kept as they arrive: tRPC's handler reads them itself).
 */
export async function registerTrpcTransport<TRouter extends AnyRouter>(
  app: FastifyInstance,
  options: {
    prefix: string;
    trpcOptions: TrpcOptions<TRouter>;
    /** Refuses a batch (400, the message) before anything else runs; app.ts passes `batchRefusal`. */
    refuseBatch?: (paths: string[]) => string | null;
  },
) {
  const opts = options.trpcOptions;
  const config = opts.router._def._config;
  // The options the fast path does not implement leave every request to tRPC (maxBatchSize: only the batches over it).
  const fastPathOn = opts.allowBatching === undefined && opts.batching === undefined && !opts.allowMethodOverride;
  const maxBatchSize = opts.maxBatchSize;

  /** A refused batch: one error for the whole request, as tRPC answers a request it cannot read (400). */
  const refuse = (reply: FastifyReply, message: string) =>
    reply
      .code(400)
      .header('vary', 'trpc-accept, accept')
      .header('content-type', 'application/json')
      .send(Buffer.from(wholeRequestError(config, 'BAD_REQUEST', message)));

  await app.register(
    async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      scope.removeContentTypeParser('multipart/form-data');
      scope.addContentTypeParser('multipart/form-data', {}, (_req, body, done) => done(null, body));

      // A refused batch is answered before its body is read.
      const refuseBatch = options.refuseBatch;
      if (refuseBatch) {
        scope.addHook('onRequest', (req, reply, done) => {
          const paths = batchPaths(req, (req.params as { path?: string }).path ?? '');
          const refusal = paths && refuseBatch(paths);
          // Answered here: the rest of the request's hooks and its handler do not run.
          if (refusal) return void refuse(reply, refusal);
          done();
        });
      }

      // Every method, as tRPC's plugin: tRPC itself answers HEAD (204) and the methods it does not serve.
      scope.all('/:path', async (req, reply) => {
        const rawPath = (req.params as { path: string }).path;
        const fast = fastPathOn ? fastRequest(req, rawPath) : null;
        // A batch over tRPC's maxBatchSize is answered by tRPC itself (its 400), as without the fast path.
        if (fast && !(fast.isBatchCall && maxBatchSize !== undefined && fast.paths.length > maxBatchSize)) {
          const procedures = fast.paths.map((p) => (opts.router._def.procedures[p] as AnyProcedure | undefined) ?? null);
          // Subscriptions (SSE) and mixed batches (tRPC refuses them as a whole) stay with tRPC.
          let type: string | undefined;
          let oneType = true;
          for (const p of procedures) {
            if (!p) continue;
            if (type !== undefined && p._def.type !== type) oneType = false;
            type ??= p._def.type;
          }
          if (type !== 'subscription' && oneType) return answerFast(opts, fast, procedures, req, reply);
        }
        await fastifyRequestHandler({ ...opts, req, res: reply, path: rawPath });
      });
    },
    { prefix: options.prefix },
  );
}
