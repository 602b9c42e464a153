/**
 * The lists the dashboard opens, each filtered as the figure that opens it is counted (the filters are the lists'
 * own URL keys: lib/use-url-state.ts keeps a list's filters in its URL, so a link can be shared).
 */
export const DASHBOARD_LINKS = {
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
} as const;
