// `npm run dev`: the dev loop (CONTRIBUTING.md, The dev loop). Two processes, nothing built first:
// - the server from its TypeScript sources under tsx's watch mode, which restarts it when a file it
//   imports changes (src/server, src/domain), on the embedded database with the demo data (DATA_DIR,
//   ./data by default). The database runs inside the server's process: its own process is a built
//   program (docs/decisions/0016-embedded-database-process.md) and the sources are not built here.
// - Vite's dev server for the browser app, with hot reload; it sends /api and /objects to the server
//   (vite.config.ts, server.proxy). Open the address Vite prints (http://localhost:5173).
// PORT moves the server (5000 by default), and Vite's proxy with it. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SERVER_ENV } from './server-node-flags.mjs';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const tsx = path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/cli.mjs');
const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');

const children = [
  spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', 'src/server/main.ts'], {
    cwd: root,
    env: { ...SERVER_ENV, ...process.env, EMBEDDED_DATABASE: 'in-process' },
    stdio: 'inherit',
  }),
  // Arguments after `npm run dev --` go to Vite (`--port 5174`, `--host`).
  spawn(process.execPath, [vite, ...process.argv.slice(2)], {
    cwd: root,
    env: process.env,
    stdio: 'inherit',
  }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
// One of the two gone (a server that cannot start, a port in use): the other stops too.
for (const child of children) child.on('exit', (code) => stop(code ?? 1));
