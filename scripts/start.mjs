// `npm start`: builds what is missing or out of date, then runs the server (migrations and demo
// data happen at start-up). `--seed` fills a database with the demo marketplace and exits.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist/.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function sourcesChangedSince(stamp) {
  const inputs = ['src', 'package-lock.json', 'vite.config.ts', 'scripts/build-server.mjs'];
  return inputs.some((input) => {
    const full = path.join(root, input);
    if (!fs.existsSync(full)) return false;
    const mtime = fs.statSync(full).isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    return mtime > stamp;
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const stamp = fs.existsSync(stampFile) ? fs.statSync(stampFile).mtimeMs : 0;
if (stamp === 0 || sourcesChangedSince(stamp)) {
  process.stdout.write('Building the marketplace...\n');
  run('npm', ['run', '--silent', 'build']);
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, new Date().toISOString());
}

const entry = process.argv.includes('--seed') ? 'dist/server/seed.js' : 'dist/server/main.js';
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(root, entry)], {
  cwd: root,
  env: { ...SERVER_ENV, ...process.env },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
