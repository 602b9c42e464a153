import { PlannedFeatures } from '../../components/planned-features.tsx';

export function NotificationsPage() {
  return (
    <PlannedFeatures
      title="Notifications"
      intro="Personal notification settings are planned for a coming release. They will include:"
      features={[
        'Notification history',
        'Notification preferences',
        'Email and SMS settings',
        'License expiration alerts',
        'Continuing-education reminders',
      ]}
    />
  );
}
