/**
 * Why a start failed, in one line that names the cause (docs/operations.md, Start-up messages): the
 * database's own words, the port in use, the path that cannot be written, the process holding the
 * data directory. Libraries wrap the cause (drizzle's "Failed query: …" holds the pg error in
 * `cause`; a refused connection to "localhost" is an AggregateError of one refusal per address), so
 * the chain of causes is searched for the error that says what went wrong.
 */

interface ErrnoLike {
  code?: unknown;
  syscall?: unknown;
  address?: unknown;
  port?: unknown;
  path?: unknown;
  hostname?: unknown;
  severity?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/** The error and every error it holds (its `cause`, an AggregateError's `errors`), outermost first. */
function errorsIn(error: unknown): Error[] {
  const found: Error[] = [];
  const visit = (value: unknown, depth: number) => {
    if (!(value instanceof Error) || depth > 8 || found.includes(value)) return;
    found.push(value);
    const { cause, errors } = value as ErrnoLike;
    visit(cause, depth + 1);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOENT: 'no such socket',
};

const FILE_CODES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/** The calls that fail when a path cannot be written (an `open` for reading seldom fails at start). */
const WRITES = new Set([
  'open',
  'mkdir',
  'mkdtemp',
  'write',
  'rename',
  'unlink',
  'rmdir',
  'copyfile',
  'link',
  'symlink',
  'chmod',
]);

/** `host:port`, with IPv6 addresses in brackets. */
function hostPort(address: unknown, port: unknown): string {
  const host = String(address);
  return `${host.includes(':') ? `[${host}]` : host}${port === undefined ? '' : `:${String(port)}`}`;
}

/** The database's answer (a pg DatabaseError: a five-character SQLSTATE and a severity). */
function databaseAnswer(errors: Error[]): Error | undefined {
  return errors.find((error) => {
    const { code, severity } = error as ErrnoLike;
    return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
  });
}

/**
 * The database's answers to a connection it will not take: no such database (3D000), a wrong role
 * or password (class 28), not now (57P03), too many connections (53300).
 */
const OPENING_CODES = /^(3D000|28...|57P03|53300)$/;

/** Connections refused or unreachable, each as "connection refused at 127.0.0.1:5432". */
function connectionFailures(errors: Error[]): string[] {
  const lines = new Set<string>();
  for (const error of errors) {
    const { code, syscall, address, hostname } = error as ErrnoLike;
    if (syscall === 'getaddrinfo') lines.add(`no such host ${String(hostname)} (${String(code)})`);
    if (syscall !== 'connect' || typeof code !== 'string') continue;
    const what = CONNECTION_CODES[code] ?? code;
    const { port } = error as ErrnoLike;
    lines.add(address === undefined ? what : `${what} at ${hostPort(address, port)}`);
  }
  return [...lines];
}

/** The message of the innermost error that has one, without a wrapper's SQL text. */
function innermostMessage(errors: Error[]): string {
  const messages = errors
    .map((error) => error.message.trim())
    .filter((message) => message !== '' && !message.startsWith('Failed query:'));
  return messages.at(-1) ?? errors[0]?.message ?? 'unknown error';
}

/** One line: the cause of a failed start, without a stack. */
export function describeStartupFailure(error: unknown): string {
  const errors = errorsIn(error);
  if (errors.length === 0) return String(error);
  const [outer] = errors;
  // Errors that already say it all in our words (the data directory in use, names its process).
  if (outer?.name === 'DataDirLockedError') return outer.message;

  const answer = databaseAnswer(errors);
  if (answer) {
    const { code } = answer as ErrnoLike;
    return OPENING_CODES.test(String(code))
      ? `could not open the database: ${answer.message}`
      : `the database answered: ${answer.message}`;
  }
  const connections = connectionFailures(errors);
  if (connections.length > 0) return `could not reach the database: ${connections.join(', ')}`;
  for (const candidate of errors) {
    const { code, syscall, address, port, path } = candidate as ErrnoLike;
    if (syscall === 'listen' && code === 'EADDRINUSE')
      return `${hostPort(address, port)} is in use by another process: stop it, or set PORT (or HOST) to another`;
    if (syscall === 'listen' && code === 'EACCES')
      return `no permission to listen on ${hostPort(address, port)}: ports below 1024 need privileges, set PORT`;
    if (typeof code === 'string' && typeof path === 'string' && FILE_CODES[code])
      return `cannot ${WRITES.has(String(syscall)) ? 'write' : 'read'} ${path}: ${FILE_CODES[code]} (${code})`;
  }
  return innermostMessage(errors).replace(/\s*\n\s*/g, ' ');
}

/** The stacks of the error and of each error it holds, for LOG_LEVEL=debug. */
export function startupFailureStacks(error: unknown): string {
  const errors = errorsIn(error);
  if (errors.length === 0) return String(error);
  return errors.map((inner) => inner.stack ?? inner.message).join('\nCaused by: ');
}
