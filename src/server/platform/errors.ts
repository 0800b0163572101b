import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '../../domain/errors';

/** The one error type of the server (CONTRIBUTING.md, Code layout rules). */
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
  /** A card was declined (docs/rules/money.md, Payments): 402 Payment Required. */
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  headers_too_large: 431,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
  /** A 403 that tells the browser where to send the administrator (docs/decisions/0024-two-factor-sign-in.md). */
  two_factor_setup_required: 403,
};

/** The code of a framework's error by its status: the first code of each status, `forbidden` for 403. */
const CODE_OF_STATUS: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(STATUS_OF)
    .reverse()
    .map(([code, status]) => [status, code as ErrorCode]),
);

export const notFound = (what = 'Not found') => new AppError('not_found', what);
export const forbidden = (message: string) => new AppError('forbidden', message);
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

/** The SQLSTATE of a database error, looking through drizzle's wrapper (which names the query). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a database error names (a unique violation's index, say), looking through drizzle's wrapper. */
export function constraintOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A database refusal that only input can cause is the client's error, never a 500
 * (docs/rules/running.md, Bad input and failure): class 22 is a value the column cannot hold,
 * 23 a broken constraint. The services check these rules first with better messages; this is the
 * net under them.
 */
function inputErrorOfDatabase(sqlState: string | undefined): AppError | undefined {
  if (!sqlState) return undefined;
  if (sqlState === '23505')
    return new AppError('conflict', 'This conflicts with something that already exists');
  if (sqlState === '23503')
    return new AppError('bad_request', 'The request refers to something that does not exist');
  if (sqlState.startsWith('22') || sqlState.startsWith('23') || sqlState === '54000') {
    return new AppError('bad_request', 'A value in the request cannot be stored');
  }
  return undefined;
}

/**
 * SQLSTATEs of a database that is restarting, refusing or overloaded, or of a statement stopped by
 * a timeout: the same request may well succeed a moment later (docs/operations.md, Database faults).
 */
const TRANSIENT_SQL_STATES = new Set([
  '57P01', // admin_shutdown: the server is shutting down or the session was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting up or in recovery
  '53300', // too_many_connections
  '57014', // query_canceled: the statement timeout
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** Node's socket errors of a connection that could not be made or broke. */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** pg's and its pool's own errors for a connection that broke, timed out or was closed. */
const TRANSIENT_MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout/,
  /^timeout exceeded when trying to connect/,
  /is not queryable$/,
  /^Closed: another connection of the pool stopped answering/,
];

/**
 * Whether an error means the database could not be reached or answer for now (a restart, a
 * failover, a network cut, a timeout), looking through drizzle's wrapper: such a request answers
 * 503 with Retry-After, never 500 (docs/operations.md, Database faults).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (TRANSIENT_SQL_STATES.has(code) || code.startsWith('08') || TRANSIENT_SOCKET_CODES.has(code))
        return true;
    }
    if (typeof message === 'string' && TRANSIENT_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is told to wait before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** Turns any thrown thing into the status and the error body the client sees. */
export function toErrorBody(error: unknown, requestId: string): { status: number; body: ErrorBody } {
  const fromDatabase = inputErrorOfDatabase(sqlStateOf(error));
  if (fromDatabase) return toErrorBody(fromDatabase, requestId);
  if (isTransientDatabaseError(error)) {
    return toErrorBody(
      new AppError('unavailable', 'The service is briefly unavailable; please try again in a moment'),
      requestId,
    );
  }
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
  if (fastifyError.code === 'FST_ERR_BAD_URL') {
    return {
      status: 400,
      body: { message: 'The address is not valid URL encoding', code: 'bad_request', requestId },
    };
  }
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return {
      status: 414,
      body: { message: 'A part of the address is too long', code: 'uri_too_long', requestId },
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

/**
 * What the log keeps of an error: its type, message, code and stack, but never a failed query's
 * text or parameters (they hold what users typed), which drizzle puts in its message.
 */
export function serializeErrorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const sqlState = sqlStateOf(error);
  if (error.name === 'DrizzleQueryError' || sqlState) {
    const cause = error.cause instanceof Error ? error.cause : undefined;
    return {
      type: 'DatabaseError',
      sqlState,
      message: cause?.message ?? 'query failed',
      stack: cause?.stack,
    };
  }
  return {
    type: error.name,
    message: error.message,
    code: (error as { code?: unknown }).code,
    stack: error.stack,
  };
}

/** Sends the error answer; the error hooks and the router's own failures all end here. */
export function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = toErrorBody(error, request.id);
  if (status === 503) {
    // The database or the instance is away for a moment: logged with its cause, not as a fault of ours.
    request.log.warn({ err: error, requestId: request.id }, `unavailable: ${body.message}`);
    void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  } else if (status >= 500) request.log.error({ err: error, requestId: request.id }, 'request failed');
  else request.log.info({ requestId: request.id, status, code: body.code }, body.message);
  return reply
    .status(status)
    .header('x-request-id', request.id)
    .header('cache-control', 'no-store')
    .send(body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    void replyWithError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = { message: 'Not found', code: 'not_found', requestId: request.id };
    void reply.status(404).header('x-request-id', request.id).send(body);
  });
}
