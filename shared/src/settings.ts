import { z } from 'zod';
import { multiLine, singleLine } from './text.ts';
import { EMAIL_RE } from './common.ts';
import { DATE_FORMATS } from './dates.ts';

export const NOTIFICATION_FREQUENCIES = ['immediate', 'daily', 'weekly', 'monthly'] as const;
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
/** How every screen writes a calendar date (Settings › General; docs/decisions.md "One date language"). */

/** Input ranges of docs/product.md section 5 (the number inputs use them as min and max). */
export const SETTINGS_RANGES = {
  default_ce_hours: { min: 0, max: 1000 },
  license_expiry_warning_days: { min: 1, max: 365 },
  password_min_length: { min: 6, max: 50 },
  session_timeout_minutes: { min: 5, max: 480 },
  max_login_attempts: { min: 3, max: 10 },
  lockout_duration_minutes: { min: 5, max: 1440 },
  max_file_size_mb: { min: 1, max: 100 },
} as const;

const intIn = ({ min, max }: { min: number; max: number }, minMessage: string, label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, minMessage)
    .max(max, `${label} must be at most ${max}`);

/** Every system setting with the ranges and messages of docs/product.md section 5. */
export const settingsSchema = z.object({
  app_name: singleLine({ max: 100, required: 'App name is required' }),
  app_description: multiLine(500),
  support_email: singleLine({ max: 254, required: 'Support email is required' }).regex(EMAIL_RE, 'Invalid email address'),
  support_phone: singleLine(40),
  date_format: z.enum(DATE_FORMATS, { error: `Date format must be ${DATE_FORMATS.join(' or ')}` }),
  default_ce_hours: z
    .number({ error: 'CE hours must be a number' })
    .min(0, 'CE hours cannot be negative')
    .max(SETTINGS_RANGES.default_ce_hours.max),
  license_expiry_warning_days: intIn(SETTINGS_RANGES.license_expiry_warning_days, 'Warning days must be at least 1', 'Warning days'),
  auto_renewal_enabled: z.boolean(),
  email_notifications_enabled: z.boolean(),
  sms_notifications_enabled: z.boolean(),
  notification_frequency: z.enum(NOTIFICATION_FREQUENCIES),
  password_min_length: intIn(SETTINGS_RANGES.password_min_length, 'Minimum password length must be at least 6', 'Minimum password length'),
  session_timeout_minutes: intIn(SETTINGS_RANGES.session_timeout_minutes, 'Session timeout must be at least 5 minutes', 'Session timeout'),
  max_login_attempts: intIn(SETTINGS_RANGES.max_login_attempts, 'Max login attempts must be at least 3', 'Max login attempts'),
  lockout_duration_minutes: intIn(
    SETTINGS_RANGES.lockout_duration_minutes,
    'Lockout duration must be at least 5 minutes',
    'Lockout duration',
  ),
  max_file_size_mb: intIn(SETTINGS_RANGES.max_file_size_mb, 'Max file size must be at least 1MB', 'Max file size'),
  allowed_file_types: singleLine(500).regex(/^[a-z0-9]+(\s*,\s*[a-z0-9]+)*$/i, 'Allowed file types must be comma-separated extensions'),
  maintenance_mode: z.boolean(),
  debug_mode: z.boolean(),
  log_level: z.enum(LOG_LEVELS),
});
export type Settings = z.infer<typeof settingsSchema>;

export { DEFAULT_SETTINGS } from './settings-defaults.ts';

export const settingsEnvelope = z.object({ settings: settingsSchema });

/** PUT /api/admin/settings: {settings}; every field optional (omitted ones keep their value). */
export const settingsUpdateInput = z.object({ settings: settingsSchema.partial() });
export type SettingsUpdateInput = z.infer<typeof settingsUpdateInput>;

/** UI strings of the System Settings screen (docs/product.md sections 2 and 8). */
export const SETTINGS_STRINGS = {
  title: 'System Settings',
  save: 'Save Settings',
  reset: 'Reset to Defaults',
  resetConfirm: 'Are you sure you want to reset all settings to their defaults?',
  updated: 'Settings updated successfully!',
  resetDone: 'Settings reset to defaults successfully!',
  updateFailed: 'Failed to update settings',
  fetchFailed: 'Failed to fetch system settings',
} as const;

/** The tabs of the settings screen (docs/product.md section 4) and the fields each one holds. */
export const SETTINGS_TABS = [
  { value: 'general', label: 'General', fields: ['app_name', 'app_description', 'support_email', 'support_phone', 'date_format'] },
  { value: 'license', label: 'License', fields: ['default_ce_hours', 'license_expiry_warning_days', 'auto_renewal_enabled'] },
  {
    value: 'notifications',
    label: 'Notifications',
    fields: ['email_notifications_enabled', 'sms_notifications_enabled', 'notification_frequency'],
  },
  {
    value: 'security',
    label: 'Security',
    fields: ['password_min_length', 'session_timeout_minutes', 'max_login_attempts', 'lockout_duration_minutes'],
  },
  // Both govern uploads: documents (size, types, content) and backup zips (size) (docs/decisions.md "Settings").
  { value: 'uploads', label: 'File Uploads', fields: ['max_file_size_mb', 'allowed_file_types'] },
  { value: 'system', label: 'System', fields: ['maintenance_mode', 'debug_mode', 'log_level'] },
] as const satisfies ReadonlyArray<{ value: string; label: string; fields: ReadonlyArray<keyof Settings> }>;

/**
 * What the signed-out login screen may know (GET /api/settings/public): nothing else is exposed. With the office's
 * calendar: its date format, its time zone (the server's TZ) and its date today there, so every screen writes and
 * counts dates as the office does, whatever the browser's clock and zone (docs/decisions.md "One date language").
 */
export const publicSettingsSchema = z.object({
  app_name: z.string(),
  app_description: z.string(),
  support_email: z.string(),
  support_phone: z.string(),
  date_format: z.enum(DATE_FORMATS),
  /** IANA zone name, e.g. America/New_York. */
  time_zone: z.string(),
  /** The office's calendar date, YYYY-MM-DD. */
  today: z.string(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
