// Bundles the server (src/server + src/domain) into dist/server; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', seed: 'src/server/seed.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
