/**
 * The lists a figure opens (the dashboards' cards and rows, the Broker's e-mailed digest), each filtered as the
 * figure is counted. The filters are the lists' own URL keys (the client keeps a list's filters in its URL,
 * client/src/lib/use-url-state.ts), so a link can be shared.
 */
export const LIST_LINKS = {
  users: '/users',
  agents: '/users?role=Agent',
  licenses: '/licenses',
  atRisk: '/licenses?compliance=at_risk',
  expired: '/licenses?compliance=expired',
  expiring: (days: number) => `/licenses?expiring_within=${days}`,
  /** One license found by its number (an expiring row). */
  license: (number: string) => `/licenses?search=${encodeURIComponent(number)}`,
  courses: '/courses',
  coursesOf: (schoolId: number) => `/courses?school_id=${schoolId}`,
  completions: '/courses?tab=completions',
  pending: '/courses?tab=completions&completion_status=Pending',
  /** One person's pending completions (a row of the School's pending approvals). */
  pendingOf: (name: string) => `/courses?tab=completions&completion_status=Pending&search=${encodeURIComponent(name)}`,
  completedSince: (date: string) => `/courses?tab=completions&completed_from=${date}`,
  completedPayments: '/payments?status=Completed',
  pendingPayments: '/payments?status=Pending',
} as const;
