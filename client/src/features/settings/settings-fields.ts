import {
  DATE_FORMATS,
  LOG_LEVELS,
  NOTIFICATION_FREQUENCIES,
  NOTIFICATION_MANAGEMENT_STRINGS,
  type Settings,
  writeCalendarDate,
} from '@lm/shared';

/** Shown under the SMS switch, which is disabled while no SMS gateway exists. */
export const SMS_UNAVAILABLE = `${NOTIFICATION_MANAGEMENT_STRINGS.noSmsGateway}: text messages cannot be sent, so this switch is not available.`;

/** Labels and hints of every setting (docs/product.md section 3), shown in the tab its SETTINGS_TABS entry names. */
export const SETTING_LABELS: Record<keyof Settings, { label: string; description?: string }> = {
  app_name: { label: 'App Name' },
  app_description: { label: 'App Description' },
  support_email: { label: 'Support Email' },
  support_phone: { label: 'Support Phone' },
  date_format: { label: 'Date Format', description: 'How every screen writes dates, e.g. 07/30/2026 or 2026-07-30' },
  default_ce_hours: { label: 'Default CE Hours' },
  license_expiry_warning_days: {
    label: 'License Expiry Warning (days)',
    description: 'Reminders and the "expiring" counts start this many days before expiry',
  },
  auto_renewal_enabled: { label: 'Auto Renewal' },
  email_notifications_enabled: { label: 'Email Notifications', description: 'Send notifications by email' },
  sms_notifications_enabled: { label: 'SMS Notifications', description: 'Send notifications by text message' },
  notification_frequency: {
    label: 'Notification Frequency',
    description: 'How often brokers receive the digest of their agents’ expiring licenses',
  },
  password_min_length: { label: 'Minimum Password Length', description: 'Applies to every new or changed password' },
  session_timeout_minutes: {
    label: 'Session Timeout (minutes)',
    description: 'Signed-in users are signed out after this long without activity',
  },
  max_login_attempts: { label: 'Max Login Attempts', description: 'Failed sign-ins before the account is locked' },
  lockout_duration_minutes: {
    label: 'Lockout Duration (minutes)',
    description: 'How long a locked account must wait before signing in again',
  },
  max_file_size_mb: {
    label: 'Max File Size (MB)',
    description: 'Largest document, or backup zip under Backup & Restore, that may be uploaded',
  },
  allowed_file_types: {
    label: 'Allowed File Types',
    description: 'Comma-separated extensions accepted for documents, e.g. pdf,docx,jpg; a file’s content must match its extension',
  },
  maintenance_mode: {
    label: 'Maintenance Mode',
    description: 'While on, only Admins can use the system; everyone else is asked to try again later',
  },
  debug_mode: {
    label: 'Debug Mode',
    description: 'While troubleshooting: the server logs everything (debug level), whatever the log level below',
  },
  log_level: { label: 'Log Level', description: 'How much the server writes to its log; applies at once' },
};

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const FREQUENCY_OPTIONS = NOTIFICATION_FREQUENCIES.map((v) => ({ value: v, label: title(v) }));
/** Each format with an example, so the choice shows what it gives: 'MM/DD/YYYY (07/30/2026)'. */
export const DATE_FORMAT_OPTIONS = DATE_FORMATS.map((v) => ({ value: v, label: `${v} (${writeCalendarDate('2026-07-30', v)})` }));
export const LOG_LEVEL_OPTIONS = LOG_LEVELS.map((v) => ({ value: v, label: title(v) }));

export const NUMBER_FIELDS = [
  'default_ce_hours',
  'license_expiry_warning_days',
  'password_min_length',
  'session_timeout_minutes',
  'max_login_attempts',
  'lockout_duration_minutes',
  'max_file_size_mb',
] as const satisfies ReadonlyArray<keyof Settings>;
export const SWITCH_FIELDS = [
  'auto_renewal_enabled',
  'email_notifications_enabled',
  'sms_notifications_enabled',
  'maintenance_mode',
  'debug_mode',
] as const satisfies ReadonlyArray<keyof Settings>;
