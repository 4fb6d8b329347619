'use client';
/**
 * The error state of a form backed by a procedure: fields first (the same zod schema in the
 * browser, then the server's `fieldErrors`), and one message for what no field claims.
 */
import { useState } from 'react';
import type { z } from 'zod';
import { failureOf, formMessageOf, type TProcedureFailure } from '../lib/trpc-errors.ts';

export function useFormErrors() {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  return {
    fieldErrors,
    message,
    /** Checks `values` with the schema; shows its messages and returns null when they fail. */
    check<TSchema extends z.ZodType>(schema: TSchema, values: unknown): z.infer<TSchema> | null {
      const parsed = schema.safeParse(values);
      if (parsed.success) {
        setFieldErrors({});
        setMessage(null);
        return parsed.data;
      }
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        errors[issue.path.map(String).join('.') || 'form'] ??= issue.message;
      setFieldErrors(errors);
      setMessage('Revise los campos marcados.');
      return null;
    },
    /** Shows a failed call: its field messages where they belong, the rest as the form's message. */
    fail(error: unknown, fieldOfCode: Record<string, string> = {}): TProcedureFailure {
      const failure = failureOf(error);
      const errors = { ...failure.fieldErrors };
      const field = failure.appCode === null ? undefined : fieldOfCode[failure.appCode];
      if (field !== undefined) errors[field] = formMessageOf(failure);
      setFieldErrors(errors);
      setMessage(field === undefined ? formMessageOf(failure) : null);
      return failure;
    },
    /** Shows messages the form decides itself (two passwords that differ). */
    show(errors: Record<string, string>) {
      setFieldErrors(errors);
      setMessage('Revise los campos marcados.');
    },
    clear() {
      setFieldErrors({});
      setMessage(null);
    },
  };
}
