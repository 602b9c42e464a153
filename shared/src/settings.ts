import { z } from 'zod';
import { EMAIL_RE } from './common.ts';

export const NOTIFICATION_FREQUENCIES = ['immediate', 'daily', 'weekly', 'monthly'] as const;
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

const intIn = (min: number, max: number, minMessage: string, label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, minMessage)
    .max(max, `${label} must be at most ${max}`);

/** Every system setting with the ranges and messages of SPEC.md section 5. */
export const settingsSchema = z.object({
  app_name: z.string({ error: 'App name is required' }).trim().min(1, 'App name is required').max(100),
  app_description: z.string().trim().max(500),
  support_email: z
    .string({ error: 'Support email is required' })
    .trim()
    .min(1, 'Support email is required')
    .regex(EMAIL_RE, 'Invalid email address'),
  support_phone: z.string().trim().max(40),
  default_ce_hours: z.number({ error: 'CE hours must be a number' }).min(0, 'CE hours cannot be negative').max(1000),
  license_expiry_warning_days: intIn(1, 365, 'Warning days must be at least 1', 'Warning days'),
  auto_renewal_enabled: z.boolean(),
  email_notifications_enabled: z.boolean(),
  sms_notifications_enabled: z.boolean(),
  notification_frequency: z.enum(NOTIFICATION_FREQUENCIES),
  password_min_length: intIn(6, 50, 'Minimum password length must be at least 6', 'Minimum password length'),
  session_timeout_minutes: intIn(5, 480, 'Session timeout must be at least 5 minutes', 'Session timeout'),
  max_login_attempts: intIn(3, 10, 'Max login attempts must be at least 3', 'Max login attempts'),
  lockout_duration_minutes: intIn(5, 1440, 'Lockout duration must be at least 5 minutes', 'Lockout duration'),
  max_file_size_mb: intIn(1, 100, 'Max file size must be at least 1MB', 'Max file size'),
  allowed_file_types: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+(\s*,\s*[a-z0-9]+)*$/i, 'Allowed file types must be comma-separated extensions'),
  maintenance_mode: z.boolean(),
  debug_mode: z.boolean(),
  log_level: z.enum(LOG_LEVELS),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Defaults of SPEC.md section 9; stored settings are merged over these. */
export const DEFAULT_SETTINGS: Settings = {
  app_name: 'Real Estate License Manager',
  app_description: 'Track real estate licenses, renewals, continuing education, payments and brokerages.',
  support_email: 'support@example.com',
  support_phone: '',
  default_ce_hours: 0,
  license_expiry_warning_days: 30,
  auto_renewal_enabled: false,
  email_notifications_enabled: true,
  sms_notifications_enabled: false,
  notification_frequency: 'daily',
  password_min_length: 8,
  session_timeout_minutes: 60,
  max_login_attempts: 5,
  lockout_duration_minutes: 30,
  max_file_size_mb: 10,
  allowed_file_types: 'pdf,doc,docx,jpg,jpeg,png',
  maintenance_mode: false,
  debug_mode: false,
  log_level: 'info',
};

export const settingsEnvelope = z.object({ settings: settingsSchema });
