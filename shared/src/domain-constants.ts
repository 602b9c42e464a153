/**
 * Enumerations of the whole data model (docs/product.md section 3, docs/decisions.md), shared by the database
 * schema, the API schemas and the forms. Domain schema files import from here.
 */
export const LICENSE_TYPES = ['Sales', 'Broker', 'Associate Broker'] as const;
export const LICENSE_STATUSES = ['Active', 'Inactive', 'Suspended', 'Expired', 'Pending Renewal'] as const;
export const COURSE_TYPES = ['Online', 'In-Person', 'Webinar'] as const;
export const COMPLETION_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
export const PAYMENT_TYPES = ['License Fee', 'Renewal Fee', 'Course Fee', 'Penalty', 'Other'] as const;
export const PAYMENT_METHODS = ['Credit Card', 'Bank Transfer', 'Check', 'Cash', 'Other'] as const;
export const PAYMENT_STATUSES = ['Completed', 'Pending', 'Failed', 'Refunded'] as const;
/** A notification template's type: the channel it sends through (Notification Management). */
export const NOTIFICATION_TYPES = ['email', 'sms', 'push'] as const;
export const TRIGGER_EVENTS = [
  'license_expiring',
  'license_expired',
  'course_completed',
  'payment_due',
  'user_registered',
  'password_reset',
  'ce_due',
] as const;
export const DELIVERY_STATUSES = ['sent', 'failed', 'pending'] as const;
export const BACKUP_STATUSES = ['completed', 'in_progress', 'failed'] as const;
export const BACKUP_TYPES = ['manual', 'automatic', 'safety', 'uploaded'] as const;
/** Documents (docs/product.md "Documents"). */
export const DOCUMENT_CATEGORIES = ['license_copy', 'ce_certificate', 'eo_insurance', 'agreement', 'other'] as const;
/** Reading a CE certificate in the background: none for other categories. */
export const EXTRACTION_STATUSES = ['none', 'pending', 'done', 'failed'] as const;
/** Events of the notification centre (in-app, e-mail, SMS per user preference). */
export const NOTIFICATION_EVENTS = [
  'license_expiring',
  'license_expired',
  'completion_approved',
  'completion_rejected',
  'payment_recorded',
  'payment_due',
  'password_changed',
  'document_added',
  'ce_due',
  /** A webhook endpoint disabled after failing for days (told to the people who manage webhooks). */
  'webhook_disabled',
] as const;
/** Where a delivery went: the template types plus the in-app notification centre. */
export const DELIVERY_CHANNELS = [...NOTIFICATION_TYPES, 'in_app'] as const;

export type LicenseType = (typeof LICENSE_TYPES)[number];
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
export type CourseType = (typeof COURSE_TYPES)[number];
export type CompletionStatus = (typeof COMPLETION_STATUSES)[number];
export type PaymentType = (typeof PAYMENT_TYPES)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type BackupStatus = (typeof BACKUP_STATUSES)[number];
export type BackupType = (typeof BACKUP_TYPES)[number];
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** The CE topics a course or a state rule may name (what the CA, TX, FL and NY requirements name). */
export const CE_TOPICS = [
  'Agency',
  'Broker Responsibility',
  'Consumer Protection',
  'Contracts',
  'Core Law',
  'Cultural Competency',
  'Ethics',
  'Ethics and Business Practices',
  'Fair Housing',
  'Implicit Bias',
  'Legal Update',
  'Legal Update I',
  'Legal Update II',
  'Management and Supervision',
  'Recent Legal Matters',
  'Risk Management',
  'Trust Fund Handling',
] as const;
export type CeTopic = (typeof CE_TOPICS)[number];

/** Hours rounded to 2 decimals (sums of 0.1-hour figures stay exact for display and comparison). */
export function roundHours(h: number): number {
  return Math.round(h * 100) / 100;
}
