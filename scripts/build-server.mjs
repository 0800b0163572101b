// Bundles the server (src/server + src/domain) into dist/server; node_modules stay external.
import fs from 'node:fs';
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
    // The embedded database's own process (docs/decisions/0016-embedded-database-process.md).
    'embedded-db': 'src/server/db/embedded-process.ts',
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

// A new, empty PGlite database cluster: a new data directory starts from a copy of it instead of
// running initdb, about 3 s (src/server/db/embedded-database.ts, createPglite). Made again only when
// PGlite's version changes.
const TEMPLATE = path.join(OUT, 'embedded-template.tar');
const TEMPLATE_STAMP = path.join(OUT, 'embedded-template.json');
const require = createRequire(import.meta.url);
const pgliteVersion = JSON.parse(
  fs.readFileSync(
    path.join(path.dirname(require.resolve('@electric-sql/pglite')), '../package.json'),
    'utf8',
  ),
).version;
const stamp = fs.existsSync(TEMPLATE_STAMP) ? JSON.parse(fs.readFileSync(TEMPLATE_STAMP, 'utf8')) : {};
if (stamp.pglite !== pgliteVersion || !fs.existsSync(TEMPLATE)) {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite();
  await pglite.waitReady;
  const tarball = await pglite.dumpDataDir('none');
  await pglite.close();
  const temporary = `${TEMPLATE}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, Buffer.from(await tarball.arrayBuffer()));
  fs.renameSync(temporary, TEMPLATE);
  fs.writeFileSync(TEMPLATE_STAMP, `${JSON.stringify({ pglite: pgliteVersion })}\n`);
}
