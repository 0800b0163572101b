import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/**
 * A backup is one gzip-compressed tar archive (POSIX ustar, with a PAX header for a name too long
 * for it), so `tar -tzf` lists it and `tar -xzf` unpacks it without this program
 * (docs/operations.md, Backups). Written and read here with Node's own modules: entries are read
 * one at a time, each whole into memory (an uploaded file, or the embedded database's archive).
 */

const BLOCK = 512;

export interface ArchiveEntry {
  /** Path inside the archive, with `/` separators. */
  name: string;
  /** Permission bits. */
  mode: number;
  mtime: Date;
  data: Buffer;
}

/** An entry whose bytes are streamed from a file of known size (the PostgreSQL dump). */
export interface StreamedArchiveEntry {
  name: string;
  mode: number;
  mtime: Date;
  size: number;
  stream: () => AsyncIterable<Buffer>;
}

export class BackupArchiveError extends Error {
  constructor(file: string, problem: string) {
    super(`The backup ${file} ${problem}`);
    this.name = 'BackupArchiveError';
  }
}

function writeField(header: Buffer, offset: number, length: number, value: string): void {
  header.write(value, offset, length, 'utf8');
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'latin1');
}

function tarHeader(
  name: string,
  prefix: string,
  type: string,
  size: number,
  mode: number,
  mtime: Date,
): Buffer {
  const header = Buffer.alloc(BLOCK);
  writeField(header, 0, 100, name);
  writeOctal(header, 100, 8, mode & 0o7777);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, size);
  writeOctal(header, 136, 12, Math.max(0, Math.floor(mtime.getTime() / 1000)));
  header.write('        ', 148, 8, 'latin1');
  header.write(type, 156, 1, 'latin1');
  header.write('ustar\u000000', 257, 8, 'latin1');
  writeField(header, 345, 155, prefix);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
  return header;
}

/** A PAX record `<length> path=<name>\n`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return Buffer.from(`${length}${body}`);
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The header blocks of an entry: ustar's name and prefix when they fit, a PAX path otherwise. */
function headersOf(name: string, size: number, mode: number, mtime: Date): Buffer[] {
  if (Buffer.byteLength(name) <= 100) return [tarHeader(name, '', '0', size, mode, mtime)];
  for (let cut = name.lastIndexOf('/'); cut > 0; cut = name.lastIndexOf('/', cut - 1)) {
    const prefix = name.slice(0, cut);
    const rest = name.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest.length > 0)
      return [tarHeader(rest, prefix, '0', size, mode, mtime)];
  }
  const pax = paxRecord('path', name);
  return [
    tarHeader('PaxHeader', '', 'x', pax.length, 0o600, mtime),
    pax,
    padding(pax.length),
    tarHeader(name.slice(-100), '', '0', size, mode, mtime),
  ];
}

async function* tarBlocks(
  entries: AsyncIterable<ArchiveEntry | StreamedArchiveEntry>,
): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    if ('data' in entry) {
      yield* headersOf(entry.name, entry.data.length, entry.mode, entry.mtime);
      yield entry.data;
      yield padding(entry.data.length);
      continue;
    }
    yield* headersOf(entry.name, entry.size, entry.mode, entry.mtime);
    let written = 0;
    for await (const chunk of entry.stream()) {
      written += chunk.length;
      if (written > entry.size) throw new Error(`${entry.name} grew while it was being copied`);
      yield chunk;
    }
    if (written !== entry.size) throw new Error(`${entry.name} shrank while it was being copied`);
    yield padding(entry.size);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Writes `entries` into a new file `file` (mode 0600), refusing one that exists. */
export async function writeArchive(
  file: string,
  entries: AsyncIterable<ArchiveEntry | StreamedArchiveEntry>,
): Promise<void> {
  await pipeline(
    Readable.from(tarBlocks(entries)),
    zlib.createGzip(),
    fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }),
  );
}

/** Reads exact byte counts from a stream of chunks. */
class ChunkReader {
  private chunks: Buffer[] = [];
  private length = 0;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** `count` bytes, or fewer at the end of the stream. */
  async read(count: number): Promise<Buffer> {
    while (this.length < count) {
      const next = await this.iterator.next();
      if (next.done) break;
      this.chunks.push(next.value);
      this.length += next.value.length;
    }
    const all = this.chunks.length === 1 ? (this.chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(this.chunks);
    const taken = all.subarray(0, count);
    const rest = all.subarray(taken.length);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }

  async close(): Promise<void> {
    await this.iterator.return?.();
  }
}

function readField(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readOctal(header: Buffer, offset: number, length: number): number {
  const text = readField(header, offset, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** The PAX records of an extended header, as key and value. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  for (let offset = 0; offset < data.length;) {
    const space = data.indexOf(0x20, offset);
    const length = Number.parseInt(data.subarray(offset, space).toString('latin1'), 10);
    if (space < 0 || !Number.isSafeInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    offset += length;
  }
  return records;
}

/** An entry read from an archive; one written to a file of its own (`spill`) has no `data`. */
export interface ReadEntry extends ArchiveEntry {
  spilled?: { file: string; size: number; sha256: string };
}

/** How much of a spilled entry is held in memory at once. */
const SPILL_PIECE = 1 << 20;

/**
 * The regular files of the archive `file`, in order, each whole in memory, or written to the file
 * that `spill` names for it (a PostgreSQL dump may be larger than memory). Directories are skipped
 * (each file's folders are made for it); any other kind of entry, a bad checksum, or an archive cut
 * short is refused.
 */
export async function* readArchive(
  file: string,
  spill: (name: string) => string | undefined = () => undefined,
): AsyncGenerator<ReadEntry> {
  const input = fs.createReadStream(file);
  const gunzip = zlib.createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  const reader = new ChunkReader(input.pipe(gunzip));
  const fail = (problem: string) => new BackupArchiveError(file, problem);
  try {
    let longName: string | undefined;
    for (;;) {
      let header: Buffer;
      try {
        header = await reader.read(BLOCK);
      } catch (error) {
        throw fail(`cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (header.length < BLOCK) throw fail('is cut short (no end of archive)');
      if (header.every((byte) => byte === 0)) return;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
      if (readOctal(header, 148, 8) !== sum) throw fail('is damaged (a header does not match its checksum)');
      const prefix = readField(header, 345, 155);
      const name = longName ?? `${prefix ? `${prefix}/` : ''}${readField(header, 0, 100)}`;
      const size = readOctal(header, 124, 12);
      const type = String.fromCharCode(header[156] ?? 0);
      if (!Number.isSafeInteger(size) || size < 0) throw fail(`has an entry of unreadable size: ${name}`);
      const spillTo = type === '0' || type === '\0' ? spill(name) : undefined;
      let data: Buffer = Buffer.alloc(0);
      let spilled: ReadEntry['spilled'];
      try {
        if (spillTo) {
          const hash = crypto.createHash('sha256');
          const output = await fs.promises.open(spillTo, 'wx', 0o600);
          try {
            for (let left = size; left > 0;) {
              const piece = await reader.read(Math.min(left, SPILL_PIECE));
              if (piece.length === 0) throw fail(`is cut short (in ${name})`);
              hash.update(piece);
              await output.write(piece);
              left -= piece.length;
            }
          } finally {
            await output.close();
          }
          spilled = { file: spillTo, size, sha256: hash.digest('hex') };
        } else {
          data = await reader.read(size);
          if (data.length < size) throw fail(`is cut short (in ${name})`);
        }
        await reader.read((BLOCK - (size % BLOCK)) % BLOCK);
      } catch (error) {
        if (error instanceof BackupArchiveError) throw error;
        throw fail(`cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (type === 'x') {
        longName = paxRecords(data).get('path');
        continue;
      }
      longName = undefined;
      if (type === '5') continue;
      if (type !== '0' && type !== '\0') throw fail(`has an entry of type ${type}: ${name}`);
      yield {
        name,
        mode: readOctal(header, 100, 8),
        mtime: new Date(readOctal(header, 136, 12) * 1000),
        data,
        ...(spilled ? { spilled } : {}),
      };
    }
  } finally {
    await reader.close();
    input.destroy();
  }
}
