import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackTemplate } from './embedded-database';
import { TEST_DB_KIND } from '../testing/test-app';

/**
 * A new data directory is made from the built template (docs/decisions/0016-embedded-database-process.md,
 * Start-up): a tar archive of a database cluster, as PGlite's `dumpDataDir` writes it.
 */
const dirs: string[] = [];
let template = '';

function newDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mkt-template-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  const source = await PGlite.create();
  await source.exec(`create table marketplace (name text not null); insert into marketplace values ('kept')`);
  const archive = await source.dumpDataDir('none');
  await source.close();
  template = path.join(newDir(), 'template.tar');
  fs.writeFileSync(template, Buffer.from(await archive.arrayBuffer()));
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function namesIn(dir: string): Promise<string[]> {
  const db = await PGlite.create(dir);
  try {
    return (await db.query<{ name: string }>('select name from marketplace')).rows.map((row) => row.name);
  } finally {
    await db.close();
  }
}

describe.runIf(TEST_DB_KIND === 'pglite')('a data directory made from the template', () => {
  it("holds the template's database, in files only their owner can read", async () => {
    const dir = path.join(newDir(), 'db');
    await unpackTemplate(template, dir);
    expect(await namesIn(dir)).toEqual(['kept']);
    expect(fs.statSync(path.join(dir, 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'base')).mode & 0o777).toBe(0o700);
  });

  it('is made again by the next start when a start stopped halfway', async () => {
    const dir = path.join(newDir(), 'db');
    // The archive as far as the entry of PG_VERSION (a header and one block of data) and no further.
    const archive = fs.readFileSync(template);
    let versionAt = 0;
    while (
      versionAt < archive.length &&
      archive.subarray(versionAt, versionAt + 12).toString('latin1') !== '/PG_VERSION\0'
    )
      versionAt += 512;
    expect(versionAt).toBeLessThan(archive.length);
    const cut = path.join(newDir(), 'cut.tar');
    fs.writeFileSync(cut, archive.subarray(0, versionAt + 1024));
    await expect(unpackTemplate(cut, dir)).rejects.toThrow(/template/);
    // Without PG_VERSION the directory holds no database: the next start unpacks again over it.
    expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(false);
    await unpackTemplate(template, dir);
    expect(await namesIn(dir)).toEqual(['kept']);
  });
});
