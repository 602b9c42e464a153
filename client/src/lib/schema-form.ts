/**
 * The one form path (docs/architecture.md "Client"): a Mantine form validated by the shared zod schema the
 * server also checks, so the messages are the schema's, word for word, and the submit handler receives what
 * the schema produced (trimmed, coerced, defaulted): send that. `toInput` maps the form's own values (a Select
 * holds an id as a string, an emptied NumberInput holds '') to the schema's input; by default '' and null
 * become undefined, so an empty optional field is absent and an empty required one gets the schema's message.
 */
import { useRef } from 'react';
import { useForm, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { fieldErrors } from './errors.ts';

/** '' and null become undefined, everything else stays. */
export function blankToUndefined<V extends Record<string, unknown>>(values: V): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === '' || v === null ? undefined : v]));
}

/** The schema's first message per field path ('a.b' for nested fields), empty when the input is valid. */
export function schemaErrors(schema: z.ZodType, input: unknown): Record<string, string> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
}

export type SchemaForm<V extends Record<string, unknown>, S extends z.ZodType> = UseFormReturnType<V, z.output<S>>;

export function useSchemaForm<V extends Record<string, unknown>, S extends z.ZodType>({
  schema,
  initialValues,
  toInput = blankToUndefined,
}: {
  schema: S;
  initialValues: V;
  toInput?: (values: V) => unknown;
}): SchemaForm<V, S> {
  return useForm<V, z.output<S>>({
    mode: 'controlled',
    initialValues,
    validate: (values) => schemaErrors(schema, toInput(values)),
    // Runs after validation passed, so parse cannot throw here.
    transformValues: (values) => schema.parse(toInput(values)),
  });
}

/** Shows the server's field messages of a 400 on the form's fields (they match the schema's paths). */
export function showServerErrors(form: { setErrors: (errors: Record<string, string>) => void }, err: unknown): boolean {
  const errors = fieldErrors(err);
  if (!Object.keys(errors).length) return false;
  form.setErrors(errors);
  return true;
}

/**
 * useSchemaForm for a page that must not load zod up front (the sign-in page, docs/performance.md "First page"):
 * the schema module loads when the person first focuses the form (`prepare`, for onFocusCapture) and at the
 * latest on submit, which waits for it; validation and the values sent are the schema's, as with useSchemaForm.
 */
export function useDeferredSchemaForm<V extends Record<string, unknown>, S extends z.ZodType>({
  load,
  initialValues,
  toInput = blankToUndefined,
}: {
  load: () => Promise<S>;
  initialValues: V;
  toInput?: (values: V) => unknown;
}) {
  const schema = useRef<S | null>(null);
  const loading = useRef<Promise<S> | null>(null);
  const prepare = () =>
    (loading.current ??= load().then(
      (s) => (schema.current = s),
      (err: unknown) => {
        loading.current = null; // a failed download may be retried by the next focus or submit
        throw err;
      },
    ));
  const form = useForm<V, z.output<S>>({
    mode: 'controlled',
    initialValues,
    validate: (values) => (schema.current ? schemaErrors(schema.current, toInput(values)) : {}),
    transformValues: (values) => (schema.current ? schema.current.parse(toInput(values)) : (toInput(values) as z.output<S>)),
  });
  /** Like form.onSubmit, once the schema is there. */
  const onSubmit =
    (handler: (values: z.output<S>) => void, onLoadError: (err: unknown) => void) => (event?: { preventDefault: () => void }) => {
      event?.preventDefault();
      prepare().then(() => form.onSubmit(handler)(), onLoadError);
    };
  return { form, prepare: () => void prepare().catch(() => undefined), onSubmit };
}
