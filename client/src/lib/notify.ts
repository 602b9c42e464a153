import { notifications } from '@mantine/notifications';
import { errorMessage } from './errors.ts';

/** Toasts (docs/product.md section 9: top-right, 5000 ms; set once on <Notifications/>). */
export const notify = {
  success: (message: string) => notifications.show({ color: 'green', title: 'Success', message }),
  error: (message: string) => notifications.show({ color: 'red', title: 'Error', message }),
  info: (message: string) => notifications.show({ color: 'blue', title: 'Info', message }),
  warning: (message: string) => notifications.show({ color: 'yellow', title: 'Warning', message }),
  /** The server's error text, else the docs/product.md fallback. */
  failure: (err: unknown, fallback: string) => notifications.show({ color: 'red', title: 'Error', message: errorMessage(err, fallback) }),
};
