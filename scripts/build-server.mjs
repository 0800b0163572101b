// Bundles the server (src/server + src/domain) into dist/server; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: {
    main: 'src/server/main.ts',
    seed: 'src/server/seed.ts',
    // `npm run reconcile`: the ledger against the records (docs/decisions/0013-money-movement.md).
    reconcile: 'src/server/reconcile.ts',
    // The embedded database's own process (docs/decisions/0016-embedded-database-process.md).
    'embedded-db': 'src/server/db/embedded-process.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
