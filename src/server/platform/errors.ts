import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '../../domain/errors';

/** The one error type of the server (CONVENTIONS rule 5). */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  /** A card was declined (DECISIONS §5): 402 Payment Required. */
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

const CODE_OF_STATUS: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(STATUS_OF).map(([code, status]) => [status, code as ErrorCode]),
);

export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const unauthorized = () => new AppError('unauthorized', 'Unauthorized');
export const conflict = (message: string) => new AppError('conflict', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('bad_request', message, fields);

/** `/address/zipCode` becomes `address.zipCode`; an unknown key is named by itself. */
function fieldName(instancePath: string, params: Record<string, unknown>, where: string): string {
  const joined = instancePath.split('/').filter(Boolean).join('.');
  const keys = params.keys;
  if (Array.isArray(keys) && keys.length > 0)
    return [joined, keys.map(String).join(',')].filter(Boolean).join('.');
  return joined || where;
}

/** Turns any thrown thing into the status and the error body the client sees. */
export function toErrorBody(error: unknown, requestId: string): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return {
      status: STATUS_OF[error.code],
      body: {
        message: error.message,
        code: error.code,
        requestId,
        ...(error.fields ? { fields: error.fields } : {}),
      },
    };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError)) {
    const fields: Record<string, string> = {};
    for (const issue of fastifyError.validation) {
      const name = fieldName(issue.instancePath, issue.params, fastifyError.validationContext ?? 'body');
      fields[name] ??= issue.message ?? 'Invalid value';
    }
    const summary = Object.entries(fields)
      .map(([name, message]) => `${name}: ${message}`)
      .join('; ');
    return {
      status: 400,
      body: { message: `Invalid request. ${summary}`, code: 'bad_request', requestId, fields },
    };
  }
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { message: 'Request body is too large', code: 'payload_too_large', requestId },
    };
  }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return { status: 415, body: { message: 'Unsupported content type', code: 'bad_request', requestId } };
  }
  if (
    fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    (fastifyError instanceof SyntaxError && fastifyError.statusCode === 400)
  ) {
    return {
      status: 400,
      body: { message: 'The request body is not valid JSON', code: 'bad_request', requestId },
    };
  }
  const status = fastifyError.statusCode;
  if (!isResponseSerializationError(error) && typeof status === 'number' && status >= 400 && status < 500) {
    const code = CODE_OF_STATUS[status] ?? 'bad_request';
    return { status, body: { message: fastifyError.message || 'Bad request', code, requestId } };
  }
  return { status: 500, body: { message: 'Something went wrong on our side', code: 'internal', requestId } };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorBody(error, request.id);
    if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
    else request.log.info({ requestId: request.id, status, code: body.code }, body.message);
    void reply.status(status).header('x-request-id', request.id).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = { message: 'Not found', code: 'not_found', requestId: request.id };
    void reply.status(404).header('x-request-id', request.id).send(body);
  });
}
