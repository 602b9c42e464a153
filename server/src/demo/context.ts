/** What each demo seed (seed-*.ts) receives and fills in for the later ones. */
export interface DemoContext {
  passwordHash: string;
  adminId: number;
  brokerageIds: number[];
  brokerIds: number[];
  agentIds: number[];
  schoolIds: number[];
  /** Filled by seedLicensing, for later seeds (completions, payments). */
  licenseIds: number[];
  /** ISO timestamp `days` days before now. */
  daysAgo: (days: number) => string;
}
