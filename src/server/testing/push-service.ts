import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service on this machine for tests (docs/decisions/0019-reaching-people.md, Push and the
 * installable app): each device is a key pair and auth secret made as a browser makes them, with an
 * endpoint here; what arrives is decrypted with that device's keys (RFC 8291, aes128gcm) and kept.
 * A device can be told to answer a status instead of 201 for its next requests.
 */

export interface TestDevice {
  name: string;
  /** What PushSubscription.toJSON() gives. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

interface DeviceState {
  ecdh: crypto.ECDH;
  auth: Buffer;
  /** Statuses to answer, one per request, before 201 again. */
  answers: number[];
}

export interface ReceivedPush {
  device: string;
  /** The decrypted JSON. */
  message: { title: string; body: string; url: string; tag: string };
  headers: http.IncomingHttpHeaders;
}

function hkdf(ikm: Buffer, salt: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8291 / RFC 8188: one aes128gcm record, decrypted with the receiving device's keys. */
function decrypt(body: Buffer, device: DeviceState): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = device.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), senderPublic]);
  const ikm = hkdf(ecdhSecret, device.auth, keyInfo, 32);
  const key = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2 and then zeros.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

export interface TestPushService {
  device(name: string): TestDevice;
  /** The next requests to this device's endpoint answer these statuses. */
  answer(name: string, ...statuses: number[]): void;
  received: ReceivedPush[];
  /** Messages received for a device since the last clear. */
  to(name: string): ReceivedPush['message'][];
  clear(): void;
  close(): Promise<void>;
}

export async function startTestPushService(): Promise<TestPushService> {
  const devices = new Map<string, DeviceState>();
  const received: ReceivedPush[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = decodeURIComponent((request.url ?? '').replace(/^\/push\//, ''));
      const device = devices.get(name);
      if (!device) {
        response.writeHead(404).end();
        return;
      }
      const status = device.answers.shift();
      if (status !== undefined) {
        response.writeHead(status).end();
        return;
      }
      try {
        const text = decrypt(Buffer.concat(chunks), device);
        received.push({
          device: name,
          message: JSON.parse(text) as ReceivedPush['message'],
          headers: request.headers,
        });
        response.writeHead(201).end();
      } catch (error) {
        response.writeHead(400).end(error instanceof Error ? error.message : 'cannot decrypt');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    device(name) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const state: DeviceState = { ecdh, auth: crypto.randomBytes(16), answers: [] };
      devices.set(name, state);
      return {
        name,
        subscription: {
          endpoint: `http://127.0.0.1:${port}/push/${encodeURIComponent(name)}`,
          keys: {
            p256dh: ecdh.getPublicKey().toString('base64url'),
            auth: state.auth.toString('base64url'),
          },
        },
      };
    },
    answer(name, ...statuses) {
      devices.get(name)?.answers.push(...statuses);
    },
    received,
    to: (name) => received.filter((push) => push.device === name).map((push) => push.message),
    clear: () => {
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
