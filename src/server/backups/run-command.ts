/** A wrong command line: said, and the command exits 2. */
export class UsageError extends Error {}

/**
 * Runs `npm run backup` or `npm run restore` (docs/operations.md, Backups): exits with the code
 * `main` answers; a usage error is said and exits 2; an error the command expects (`known`) is said
 * in one line, anything else with its stack, and exits 1.
 */
export function runCommand(
  verb: 'Backup' | 'Restore',
  main: () => Promise<number>,
  known: readonly (abstract new (...args: never[]) => Error)[],
): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(2);
      }
      if (error instanceof Error && known.some((kind) => error instanceof kind))
        process.stderr.write(`${verb} failed: ${error.message}\n`);
      else
        process.stderr.write(
          `${verb} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      process.exit(1);
    },
  );
}
