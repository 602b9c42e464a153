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
