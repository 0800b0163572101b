import type { FastifyBaseLogger } from 'fastify';

/**
 * A promise that failed with nobody awaiting it (a timer's work, a stream's, a connection's) is
 * logged with its cause, and the server goes on serving: Node's default would end the process, and
 * a database that is away for a moment must not take a healthy instance down (docs/operations.md,
 * Database faults). An exception thrown and never caught still ends it, as the process's state is
 * then unknown; so does the embedded database process's end (docs/operations.md, Embedded database).
 */
export function logUnhandledRejections(log: Pick<FastifyBaseLogger, 'error'>): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'a promise failed with nobody awaiting it');
  });
}
