/**
 * What a third-party integrator writes: types generated from /api/openapi.json with openapi-typescript
 * (src/api.d.ts) and calls made with openapi-fetch. It compiles with TypeScript 5 in CI
 * (npm run typecheck) and runs against a real server in integrator/test/integrator.test.ts.
 * If the document lied about a body, this file would stop compiling or the test would fail.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './api.d.ts';

export type ApiError = components['schemas']['Error'];

export interface IntegratorReport {
  signedInAs: string;
  licenseCount: number;
  createdBrokerageId: number;
  /** The text of a validation error, read from `error.error` as the document says. */
  validationMessage: string;
  validationCode: ApiError['code'];
  validationFields: string[];
  /** A failed sign-in, typed as the Error body. */
  loginFailure: { status: number; message: string; code: ApiError['code'] };
}

export async function runIntegrator(baseUrl: string, email: string, password: string): Promise<IntegratorReport> {
  const client = createClient<paths>({ baseUrl: `${baseUrl}/api` });

  // A failed sign-in: the error is typed as {error, code, issues?}, so error.error is the message.
  const failed = await client.POST('/auth/login', { body: { email, password: `${password}-wrong` } });
  if (!failed.error) throw new TypeError('a wrong password signed in');
  const loginFailure = { status: failed.response.status, message: failed.error.error, code: failed.error.code };

  const login = await client.POST('/auth/login', { body: { email, password } });
  if (login.error) throw new TypeError(`sign-in failed: ${login.error.error}`);
  const token = login.data.token;
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(auth);

  const list = await client.GET('/licenses', { params: { query: { status: 'Active', limit: 50 } } });
  if (list.error) throw new TypeError(`listing licenses failed: ${list.error.error}`);

  const created = await client.POST('/brokerages', { body: { name: `Integrator Realty ${Date.now()}`, address: '1 Main St' } });
  if (created.error) throw new TypeError(`creating a brokerage failed: ${created.error.error}`);

  // A validation error: the text is under `error`, each field under `issues[].path`.
  const invalid = await client.POST('/brokerages', { body: { name: '' } });
  if (!invalid.error) throw new TypeError('an empty brokerage name was accepted');

  return {
    signedInAs: login.data.user.email,
    licenseCount: list.data.length,
    createdBrokerageId: created.data.brokerage_id,
    validationMessage: invalid.error.error,
    validationCode: invalid.error.code,
    validationFields: (invalid.error.issues ?? []).map((i) => i.path),
    loginFailure,
  };
}
