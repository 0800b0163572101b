import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { z } from 'zod';
import { fieldErrorsOf } from './api-client';

/** One message per field name; server answers may name fields the form does not hold (`imageUrl`). */
export type FieldErrors = Readonly<Record<string, string | undefined>>;

/**
 * The first message of each top-level field of a failed zod parse, keyed by field name: the hook's
 * messages, and those of a form checked by rules of its own (the test card form).
 */
export function fieldErrorsFromZod(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** Moves focus to the first invalid control of a form, so keyboard and screen-reader users land on it. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  invalid?.focus();
}

/**
 * What an edit does to the messages already shown:
 * - `keep-errors`: they stay until the next submit;
 * - `clear-field-error`: the edited field's own message goes;
 * - `revalidate-after-submit`: once submitted, every edit checks the whole form again, so a fixed field
 *   clears at once.
 */
export type WhenEdited = 'keep-errors' | 'clear-field-error' | 'revalidate-after-submit';

export interface SchemaFormOptions<Values extends object, Output> {
  /** The body's schema from `src/domain`, the one the server checks the request with. */
  schema: z.ZodType<Output>;
  initialValues: Values | (() => Values);
  /** The schema's input made from the values as typed; the values themselves by default. */
  toInput?: (values: Values) => unknown;
  /** Rules between fields that the body does not carry (a confirmation), checked with the schema. */
  check?: (values: Values) => Record<string, string>;
  whenEdited?: WhenEdited;
}

export interface SchemaForm<Values extends object, Output> {
  /** Goes on the `<form>`: focus moves to its first control marked `aria-invalid`. */
  formRef: RefObject<HTMLFormElement | null>;
  values: Values;
  errors: FieldErrors;
  setValue: <K extends keyof Values>(name: K, value: Values[K]) => void;
  /** Replaces every value and leaves the messages as they are (values the server normalised). */
  setValues: (next: Values) => void;
  /** The submit handler: runs `onValid` with the parsed body, or shows the messages and moves focus. */
  handleSubmit: (onValid: (data: Output) => void) => (event: FormEvent<HTMLFormElement>) => void;
  /** Checks the values against another schema of the same fields (a check before saving). */
  validateWith: <T>(schema: z.ZodType<T>) => { ok: true; data: T } | { ok: false };
  /** Shows the server's field messages beside their fields; false when the error carries none. */
  showServerErrors: (error: unknown) => boolean;
  clearErrors: () => void;
  /** Back to the first values (or the ones given), with no messages, as if never submitted. */
  reset: (next?: Values) => void;
}

/**
 * The state of a form checked by a shared zod schema: the values as typed, one message per field,
 * focus on the first invalid control after a refused submit, and the server's field messages mapped
 * onto the same fields; our own rather than a form library (docs/decisions/0026-one-form-hook.md,
 * Why not a library).
 */
export function useSchemaForm<Values extends object, Output>(
  options: SchemaFormOptions<Values, Output>,
): SchemaForm<Values, Output> {
  const {
    schema,
    toInput = (values: Values): unknown => values,
    check,
    whenEdited = 'keep-errors',
  } = options;
  const formRef = useRef<HTMLFormElement>(null);
  const [initial] = useState(options.initialValues);
  const [values, setValuesState] = useState<Values>(initial);
  // The latest values also between renders, so two edits in one event both count.
  const latest = useRef(values);
  const hasSubmitted = useRef(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [focusRequest, setFocusRequest] = useState(0);

  // Focus moves once the messages it depends on have rendered.
  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  const errorsOf = <T>(target: z.ZodType<T>, current: Values) => {
    const parsed = target.safeParse(toInput(current));
    const found = { ...check?.(current), ...(parsed.success ? {} : fieldErrorsFromZod(parsed.error)) };
    return { parsed, found };
  };

  const show = (next: FieldErrors) => {
    setErrors(next);
    setFocusRequest((count) => count + 1);
  };

  const commit = (next: Values) => {
    latest.current = next;
    setValuesState(next);
  };

  const validateWith = <T>(target: z.ZodType<T>): { ok: true; data: T } | { ok: false } => {
    const { parsed, found } = errorsOf(target, latest.current);
    if (!parsed.success || Object.keys(found).length > 0) {
      show(found);
      return { ok: false };
    }
    setErrors({});
    return { ok: true, data: parsed.data };
  };

  return {
    formRef,
    values,
    errors,
    setValue: (name, value) => {
      const next = { ...latest.current, [name]: value };
      commit(next);
      if (whenEdited === 'clear-field-error') {
        setErrors((current) => ({ ...current, [name]: undefined }));
      } else if (whenEdited === 'revalidate-after-submit' && hasSubmitted.current) {
        setErrors(errorsOf(schema, next).found);
      }
    },
    setValues: commit,
    handleSubmit: (onValid) => (event) => {
      event.preventDefault();
      hasSubmitted.current = true;
      const result = validateWith(schema);
      if (result.ok) onValid(result.data);
    },
    validateWith,
    showServerErrors: (error) => {
      const fields = fieldErrorsOf(error);
      if (!fields) return false;
      show(fields);
      return true;
    },
    clearErrors: () => setErrors({}),
    reset: (next = initial) => {
      commit(next);
      hasSubmitted.current = false;
      setErrors({});
    },
  };
}
