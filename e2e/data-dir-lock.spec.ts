import fs from 'node:fs';
import { test, expect } from './support/fixtures';
import { STATE_FILE } from './support/global-setup';
import { startServer } from './support/server';

test('a second server on the same data directory refuses to start with a clear message', async () => {
  const { dataDir } = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as { dataDir: string };
  const attempt = startServer({ dataDir });
  await expect(attempt).rejects.toThrow(/already in use by another marketplace process \(pid \d+\)/);
});
