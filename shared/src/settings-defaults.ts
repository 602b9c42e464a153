import type { Settings } from './settings.ts';

/**
 * Defaults of docs/product.md section 9; stored settings are merged over these. No zod here, so the sign-in page
 * loads without it (docs/performance.md "First page").
 */
export const DEFAULT_SETTINGS: Settings = {
  app_name: 'Real Estate License Manager',
  app_description: 'Track real estate licenses, renewals, continuing education, payments and brokerages.',
  support_email: 'support@example.com',
  support_phone: '',
  date_format: 'MM/DD/YYYY',
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
