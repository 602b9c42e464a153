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

/**
 * The one outcome of a mutation, spread into its `useMutation` options (each feature's api.ts):
 *
 *     trpc.licenses.create.useMutation(mutationOutcome(LICENSE_STRINGS.created, LICENSE_STRINGS.createFailed, refresh))
 *
 * On success the `success` toast (a text, or one made from the result and the input; null: no toast), then `then`
 * (refresh what the change touches, keep a cache in step, close something); on failure the server's message, else
 * the `failure` fallback (null: no toast, when the form shows the failure itself). A component's own per-call
 * `onSuccess` / `onError` (close the modal, put a 400's messages on the fields) run after these.
 */
export function mutationOutcome<TData = unknown, TInput = unknown>(
  success: string | ((data: TData, input: TInput) => string) | null,
  failure: string | null,
  then?: (data: TData, input: TInput) => void,
) {
  return {
    onSuccess: (data: TData, input: TInput) => {
      if (success !== null) notify.success(typeof success === 'string' ? success : success(data, input));
      then?.(data, input);
    },
    onError: failure === null ? undefined : (err: unknown) => notify.failure(err, failure),
  };
}
