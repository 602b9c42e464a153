/** Who is calling: the signed-in user and session as every layer sees them, and the role predicates. */
import { ROLE } from '@lm/shared';

/** The signed-in user as procedures see it. */
export interface AuthUser {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role_id: number;
  brokerage_id: number | null;
}

export interface AuthSession {
  session_id: number;
}

/** The device cookie of one request: its value when sent, and issue() to set it on the answer. */
export interface DeviceCookie {
  token: string | null;
  /** The value to remember: the one the browser sent, else a new one set on the answer. */
  issue(): string;
}

type HasRole = Pick<AuthUser, 'role_id'>;
export const isAdmin = (u: HasRole) => u.role_id === ROLE.Admin;
export const isBroker = (u: HasRole) => u.role_id === ROLE.Broker;
export const isAgent = (u: HasRole) => u.role_id === ROLE.Agent;
export const isSchool = (u: HasRole) => u.role_id === ROLE.School;

/** A request's API key, once resolved (core/api-keys.ts): the key and the user it acts as. */
export interface ApiKeyCaller {
  api_key_id: number;
  name: string;
  /** 'read' or 'write' (write implies read). */
  scope: 'read' | 'write';
  /** The user the key acts as: its creator, with the key's reach (apiKeyUser). */
  user: AuthUser;
  /** The request changes something (any method but GET and HEAD): what a read key may not do. */
  writing: boolean;
}

/**
 * The user an API key acts as (docs/decisions.md "API keys"): its creator (the key's calls share the creator's fair
 * share and own-record rules), with an Admin's reach when the key names no brokerage (only an Admin makes those) and a
 * Broker's over the key's brokerage when it names one, whoever made it.
 */
export function apiKeyUser(creator: AuthUser, brokerageId: number | null): AuthUser {
  return brokerageId === null ? creator : { ...creator, role_id: ROLE.Broker, brokerage_id: brokerageId };
}
