import { writeDemoImageCopies } from './db/seed/demo-image-copies';

/**
 * Run by `npm run build` (scripts/build-server.mjs): the resized copies of the demo pictures
 * (docs/decisions/0014-first-load.md, Resized copies).
 */
writeDemoImageCopies()
  .then(({ made, skipped }) => {
    if (!skipped) process.stdout.write(`Resized copies of ${made} demo pictures made.\n`);
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `Making the demo pictures' copies failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
