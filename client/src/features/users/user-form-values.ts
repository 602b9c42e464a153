/** The user form's values and how they become the shared schema's input (user-form-modal.tsx). */
import { DEFAULT_NEW_USER_ROLE, ROLE, ROLE_IDS, roleName, type User } from '@lm/shared';

export interface BrokerageOption {
  value: string;
  label: string;
}

/** The role choices by name (the id stays the value). */
export const ROLE_OPTIONS = ROLE_IDS.map((id) => ({ value: String(id), label: roleName(id) }));
export const NO_BROKERAGE = '';

export type FormValues = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  role_id: string;
  brokerage_id: string;
  phone_number: string;
  address: string;
  city: string;
  state: string;
  zip_code: string;
  is_active: boolean;
};

export function initialValues(user: User | null, brokerMode: boolean, ownBrokerage: BrokerageOption | null): FormValues {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    password: '',
    role_id: String(user?.role_id ?? (brokerMode ? ROLE.Agent : DEFAULT_NEW_USER_ROLE)),
    brokerage_id: user
      ? user.brokerage_id === null
        ? NO_BROKERAGE
        : String(user.brokerage_id)
      : brokerMode
        ? (ownBrokerage?.value ?? '')
        : NO_BROKERAGE,
    phone_number: user?.phone_number ?? '',
    address: user?.address ?? '',
    city: user?.city ?? '',
    state: user?.state ?? '',
    zip_code: user?.zip_code ?? '',
    is_active: user?.is_active ?? true,
  };
}

/** What the schema of the mode takes: the Select's strings become ids; a Broker never sends role or brokerage on edit. */
export function toInput(values: FormValues, user: User | null, brokerMode: boolean) {
  const { role_id, brokerage_id, ...fields } = values;
  // A Broker's new users are Agents of its brokerage; the server fixes the brokerage.
  const scope = brokerMode
    ? user
      ? {}
      : { role_id: ROLE.Agent }
    : { role_id: Number(role_id), brokerage_id: brokerage_id === NO_BROKERAGE ? null : Number(brokerage_id) };
  return user ? { id: user.user_id, ...fields, ...scope } : { ...fields, ...scope };
}
