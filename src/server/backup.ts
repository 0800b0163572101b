import { ConfigError, loadConfig } from './config';
import { createBackup } from './backups/create-backup';
import { BackupError } from './backups/backup-database';
import { BackupArchiveError } from './backups/backup-archive';
import { runCommand, UsageError } from './backups/run-command';
import { EmbeddedBackupUnavailableError } from './db/embedded-backup';

const USAGE = 'use: npm run backup -- [--to <file or directory>] [--pg-bin <directory of pg_dump>]';

function parseArgs(args: string[]): { to: string | undefined; pgBin: string | undefined } {
  let to: string | undefined;
  let pgBin: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    const value = args[i + 1];
    if ((arg === '--to' || arg === '--pg-bin') && (value === undefined || value.startsWith('--')))
      throw new UsageError(`${arg} needs a path; ${USAGE}`);
    if (arg === '--to') to = args[(i += 1)];
    else if (arg === '--pg-bin') pgBin = args[(i += 1)];
    else throw new UsageError(`Unknown argument ${arg ?? ''}; ${USAGE}`);
  }
  return { to, pgBin };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * `npm run backup` (docs/operations.md, Backups): the database of DATABASE_URL (pg_dump) or the
 * embedded one of DATA_DIR (copied by a running server's database process, or opened here when
 * none runs), with the files of DATA_DIR, into one .tar.gz. Exits 0 when written, 1 when it could
 * not be made (nothing is left behind), 2 on a wrong command line.
 */
async function main(): Promise<number> {
  const { to, pgBin } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const result = await createBackup({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    to,
    pgBin,
    onWaiting: () =>
      process.stdout.write('Waiting for the transaction in progress to end before copying the database…\n'),
  });
  const { database, files } = result.manifest;
  const source =
    database.kind === 'postgres'
      ? 'PostgreSQL (pg_dump)'
      : `the embedded database${result.whileRunning ? ', copied by the running server' : ''}`;
  process.stdout.write(
    `Backup written: ${result.file} (${megabytes(result.bytes)})\n` +
      `  Database: ${source}, ${database.migrations.count} migrations (last ${database.migrations.last ?? 'none'})\n` +
      `  Files: ${files.count} from ${config.dataDir} (${megabytes(files.bytes)})\n`,
  );
  for (const skipped of result.skipped)
    process.stdout.write(`  Left out (neither a file nor a directory): ${skipped}\n`);
  return 0;
}

runCommand('Backup', main, [ConfigError, BackupError, BackupArchiveError, EmbeddedBackupUnavailableError]);
