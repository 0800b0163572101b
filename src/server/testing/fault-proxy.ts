import net from 'node:net';

/**
 * What the proxy does with connections (docs/operations.md, Database faults):
 * - `pass`: forwards both ways, as if it were not there;
 * - `reset`: resets every open connection and every new one at once (a database restart, a
 *   failover, a firewall that rejects);
 * - `cut`: goes silent: new connections are accepted and never answered, open ones stall; nothing
 *   is forwarded and nothing is closed (a network cut, where no packet says the peer is gone);
 * - `heal-new`: new connections pass again, the ones that stalled stay dead.
 */
export type FaultMode = 'pass' | 'reset' | 'cut' | 'heal-new';

export interface FaultProxy {
  /** The port on 127.0.0.1 the proxy listens on. */
  port: number;
  /** The target URL with its host and port replaced by the proxy's. */
  urlThrough(url: string): string;
  setMode(mode: FaultMode): void;
  readonly mode: FaultMode;
  /** Connections accepted so far, and those forwarding now. */
  counts(): { accepted: number; forwarding: number; stalled: number };
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  stalled: boolean;
}

/**
 * A TCP proxy in front of `target` (PostgreSQL, in the tests) that a test switches between the
 * faults above, to see what a server does when its database goes away and comes back.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  let accepted = 0;
  const pairs = new Set<Pair>();
  const sockets = new Set<net.Socket>();

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset peer or a write to a closed socket is part of the game, never an error of the test.
    socket.on('error', () => {});
  };

  const stall = (pair: Pair) => {
    pair.stalled = true;
    // Read nothing more (what arrives stays in the kernel's buffers) and forward nothing.
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };

  const server = net.createServer((client) => {
    accepted += 1;
    track(client);
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'cut') {
      // Accepted, then silence: the client waits for an answer that never comes.
      client.pause();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    const pair: Pair = { client, upstream, stalled: false };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      if (pair.stalled) return;
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the fault proxy has no port');

  return {
    port: address.port,
    urlThrough(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(address.port);
      return through.toString();
    },
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
      if (next === 'reset') {
        for (const pair of pairs) {
          pairs.delete(pair);
          for (const socket of [pair.client, pair.upstream]) {
            if (socket.destroyed) continue;
            try {
              socket.resetAndDestroy();
            } catch {
              socket.destroy();
            }
          }
        }
      } else if (next === 'cut') {
        for (const pair of pairs) if (!pair.stalled) stall(pair);
      }
      // `pass` and `heal-new` change only what new connections get: a stalled pair stays stalled.
    },
    counts() {
      let stalled = 0;
      for (const pair of pairs) if (pair.stalled) stalled += 1;
      return { accepted, forwarding: pairs.size - stalled, stalled };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
