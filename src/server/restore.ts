import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { DataDirLockedError } from './db/embedded-database';
import { restoreBackup } from './backups/restore-backup';
import { BackupError } from './backups/backup-database';
import { BackupArchiveError } from './backups/backup-archive';
import { runCommand, UsageError } from './backups/run-command';

const USAGE =
  'use: npm run restore -- --from <backup.tar.gz> [--data-dir <empty directory>] [--pg-bin <directory of pg_restore>]';

function parseArgs(args: string[]): { from: string; dataDir: string | undefined; pgBin: string | undefined } {
  let from: string | undefined;
  let dataDir: string | undefined;
  let pgBin: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    const value = args[i + 1];
    if (
      (arg === '--from' || arg === '--data-dir' || arg === '--pg-bin') &&
      (value === undefined || value.startsWith('--'))
    )
      throw new UsageError(`${arg} needs a path; ${USAGE}`);
    if (arg === '--from') from = args[(i += 1)];
    else if (arg === '--data-dir') dataDir = args[(i += 1)];
    else if (arg === '--pg-bin') pgBin = args[(i += 1)];
    else throw new UsageError(`Unknown argument ${arg ?? ''}; ${USAGE}`);
  }
  if (!from) throw new UsageError(`Which backup? ${USAGE}`);
  return { from, dataDir, pgBin };
}

/**
 * `npm run restore` (docs/operations.md, Backups): a backup into an empty data directory (DATA_DIR,
 * or --data-dir), and for a backup of PostgreSQL into the empty database of DATABASE_URL. Exits 0
 * when restored, 1 when refused or failed (the data directory is left empty), 2 on a wrong command
 * line.
 */
async function main(): Promise<number> {
  const { from, dataDir, pgBin } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const target = dataDir ? path.resolve(dataDir) : config.dataDir;
  const { manifest, migrations } = await restoreBackup({
    from,
    dataDir: target,
    databaseUrl: config.databaseUrl,
    pgBin,
  });
  process.stdout.write(
    `Restored the backup of ${manifest.createdAt} into ${target}\n` +
      `  Database: ${manifest.database.kind === 'postgres' ? 'PostgreSQL (pg_restore)' : 'embedded'}, ` +
      `${migrations.count} migrations (last ${migrations.last ?? 'none'})\n` +
      `  Files: ${manifest.files.count}\n` +
      `Start the server on it (DATA_DIR=${target}); it applies any newer migrations at start.\n`,
  );
  return 0;
}

runCommand('Restore', main, [ConfigError, BackupError, BackupArchiveError, DataDirLockedError]);
