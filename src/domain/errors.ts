import * as z from 'zod/mini';

/** The one error body every failing call answers with (docs/rules/running.md, Bad input and failure). */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  requestId: z.string(),
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'payment_failed',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'uri_too_long',
  'headers_too_large',
  'rate_limited',
  'unavailable',
  'internal',
  /** An administrator without two-factor sign-in where it is required (docs/decisions/0024-two-factor-sign-in.md). */
  'two_factor_setup_required',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
