import { errorBodySchema } from '@domain/errors';

/**
 * Every non-success response becomes this error. Its message is exactly `${status}: ${bodyText ||
 * statusText}` (docs/rules/screens-shared.md, Client behaviour); status and body are kept so callers need not
 * parse the message.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, text);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;
let fetchOfThisRender: () => Fetch | undefined = () => undefined;

/**
 * Server rendering only: where the API calls of the render under way go (the server's own routes,
 * as the signed-in caller); the browser always uses fetch (docs/decisions/0014-first-load.md).
 */
export function routeApiCallsThrough(current: () => Fetch | undefined): void {
  fetchOfThisRender = current;
}

/** fetch, or the server render's own. */
export function apiFetch(url: string, init: RequestInit): Promise<Response> {
  return (fetchOfThisRender() ?? fetch)(url, init);
}

/** One request with the session cookie; a body goes as JSON (docs/rules/screens-shared.md, Client behaviour). */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  data?: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  const res = await apiFetch(url, {
    method,
    credentials: 'include',
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    signal,
  });
  await throwIfResNotOk(res);
  return res;
}

/** Reads a JSON answer; an empty answer (204) reads as null. */
export async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  const value: unknown = JSON.parse(text);
  return value;
}

/** GET a URL and return its JSON answer (unchecked: callers parse it with their schema). */
export async function apiGet(url: string, signal?: AbortSignal): Promise<unknown> {
  return readJson(await apiRequest('GET', url, undefined, signal));
}

/** A write that answers JSON (unchecked: callers parse it with their schema). */
export async function apiSend(
  method: Exclude<HttpMethod, 'GET'>,
  url: string,
  data?: unknown,
): Promise<unknown> {
  return readJson(await apiRequest(method, url, data));
}

const STATUS_PREFIX = /^(\d{3}): ([\s\S]*)$/;

/** The status of an error made by this client, also when only its message survived. */
export function statusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (error instanceof Error) {
    const match = STATUS_PREFIX.exec(error.message);
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

export function isUnauthorizedError(error: unknown): boolean {
  return statusOf(error) === 401;
}

function errorBodyOf(error: unknown) {
  if (!(error instanceof Error)) return undefined;
  const body = error instanceof ApiError ? error.body : STATUS_PREFIX.exec(error.message)?.[2];
  if (!body) return undefined;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The server's own `message` for a toast, or the fallback when the body carries none. */
export function errorMessage(error: unknown, fallback: string): string {
  return errorBodyOf(error)?.message || fallback;
}

/** The server's per-field messages of a 400 answer, if any. */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  return errorBodyOf(error)?.fields;
}
