// What the benches share: the server and helper processes they start (all stopped on exit or on a
// signal), and one HTTP request on the loopback.
import { spawn } from 'node:child_process';
import http from 'node:http';

const children = new Set();

/** Stops every process a bench started that still runs. */
export function stopChildren() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

/**
 * Starts `node args…` in `cwd`; resolves once its output matches `ready`, whose first group is the
 * port it listens on; rejects when it exits first or takes over 90 s.
 */
export function startProcess(args, env, ready, cwd) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${args.at(-1)} did not start in time:\n${output}`)),
      90_000,
    );
    const onData = (chunk) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.at(-1)} exited with ${code}:\n${output}`));
    });
  });
}

export async function stopProcess(child) {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** One request to 127.0.0.1:port; answers status, headers and the whole body (a Buffer). */
export function request(port, { method = 'GET', path: urlPath, headers = {}, body, agent }) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}
