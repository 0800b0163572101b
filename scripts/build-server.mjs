// Bundles the server (src/server + src/domain) into dist/server; node_modules stay external.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/server';

const result = await build({
  entryPoints: {
    main: 'src/server/main.ts',
    seed: 'src/server/seed.ts',
    // `npm run reconcile`: the ledger against the records (docs/decisions/0013-money-movement.md).
    reconcile: 'src/server/reconcile.ts',
    // `npm run backup` and `npm run restore` (docs/operations.md, Backups).
    backup: 'src/server/backup.ts',
    restore: 'src/server/restore.ts',
    // The embedded database's own process (docs/decisions/0016-embedded-database-process.md).
    'embedded-db': 'src/server/db/embedded-process.ts',
    // Resized copies of the demo pictures (docs/decisions/0014-first-load.md, Resized copies).
    'make-demo-image-copies': 'src/server/make-demo-image-copies.ts',
  },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // The AWS SDK, Stripe and openid-client are imported only when configured: their adapters become
  // chunks of their own, loaded by `import()` (docs/decisions/0016-embedded-database-process.md, Memory).
  splitting: true,
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

// Chunks are named by their content: remove the code of earlier builds.
const written = new Set(Object.keys(result.metafile.outputs).map((file) => path.resolve(file)));
for (const name of fs.readdirSync(OUT)) {
  const file = path.resolve(OUT, name);
  if (/\.js(\.map)?$/.test(name) && !written.has(file)) fs.rmSync(file);
}

// A new PGlite database cluster with every migration applied: a new data directory starts from a
// copy of it instead of running initdb (about 3 s) and the migrations (about 0.5 s) at its first
// start (src/server/db/embedded-database.ts, createPglite; docs/decisions/0016-embedded-database-process.md,
// Start-up). Made again when PGlite's version or any migration changes; the server still runs the
// migrator at start-up, and finds them applied (drizzle's journal is in the template).
const TEMPLATE = path.join(OUT, 'embedded-template.tar');
const TEMPLATE_STAMP = path.join(OUT, 'embedded-template.json');
const MIGRATIONS = 'src/server/db/migrations';
const require = createRequire(import.meta.url);
const pgliteVersion = JSON.parse(
  fs.readFileSync(
    path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'),
    'utf8',
  ),
).version;
const migrationsHash = crypto.createHash('sha256');
for (const file of fs.readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
  const full = path.join(MIGRATIONS, file);
  if (fs.statSync(full).isFile()) migrationsHash.update(file).update('\0').update(fs.readFileSync(full));
}
const wanted = { pglite: pgliteVersion, migrations: migrationsHash.digest('hex') };
const stamp = fs.existsSync(TEMPLATE_STAMP) ? JSON.parse(fs.readFileSync(TEMPLATE_STAMP, 'utf8')) : {};
if (stamp.pglite !== wanted.pglite || stamp.migrations !== wanted.migrations || !fs.existsSync(TEMPLATE)) {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  // The same extensions as the server's PGlite (createPglite): migration 0001 creates pg_trgm.
  const pglite = new PGlite({ extensions: { pg_trgm } });
  await pglite.waitReady;
  await migrate(drizzle(pglite), { migrationsFolder: MIGRATIONS });
  const tarball = await pglite.dumpDataDir('none');
  await pglite.close();
  const temporary = `${TEMPLATE}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, Buffer.from(await tarball.arrayBuffer()));
  fs.renameSync(temporary, TEMPLATE);
  fs.writeFileSync(TEMPLATE_STAMP, `${JSON.stringify(wanted)}\n`);
}
// The directory an earlier build made instead.
fs.rmSync(path.join(OUT, 'embedded-template'), { recursive: true, force: true });

// The server's renderer of the first screen (docs/decisions/0014-first-load.md, The first screen in
// the HTML): a Vite server build of src/web/entry-server.tsx into dist/ssr, loaded by the server.
const { build: buildWithVite } = await import('vite');
await buildWithVite({ build: { ssr: 'entry-server.tsx' }, logLevel: 'warn' });

// Resized copies of the demo pictures (docs/decisions/0014-first-load.md, Resized copies).
const copies = spawnSync(process.execPath, [path.join(OUT, 'make-demo-image-copies.js')], {
  stdio: 'inherit',
});
if (copies.status !== 0) process.exit(copies.status ?? 1);
