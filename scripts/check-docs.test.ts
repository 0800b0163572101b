import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, 'check-docs.mjs');
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'check-docs-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Runs the docs check on one file of `text`: its exit code and what it printed about the file. */
function checkText(name: string, text: string): { status: number | null; problems: string[] } {
  const file = path.join(folder, name);
  fs.writeFileSync(file, text);
  const result = spawnSync(process.execPath, [script, file], { encoding: 'utf8' });
  const problems = result.stderr
    .split('\n')
    .filter((line) => line.startsWith(`${file}:`))
    .map((line) => line.slice(file.length + 1));
  return { status: result.status, problems };
}

// The check of citations (CONTRIBUTING.md, Comments and citations), on files that cite the real docs.
describe('the docs check', () => {
  it('accepts sections that exist, in each form a citation takes', () => {
    const result = checkText(
      'good.ts',
      [
        '// Cancelled orders (docs/rules/catalog-and-orders.md, Order lifecycle).',
        '// A rule cited over two lines (docs/rules/catalog-and-orders.md,',
        '// Addresses, availability and slots).',
        '// docs/rules/money.md "Fees and commission"; a bold label: docs/decisions/0014-first-load.md, Pictures.',
        '// An anchor: docs/rules/catalog-and-orders.md#order-lifecycle',
      ].join('\n'),
    );
    expect(result).toEqual({ status: 0, problems: [] });
  });

  // What these tests must find wrong is written in parts, so that the check of the repository does
  // not find it in this file.
  const rules = ['docs/rules/money', 'md'].join('.');
  const issue = 'issue';

  it('fails on a section that does not exist, in each form', () => {
    const result = checkText(
      'bad.ts',
      [`// (${rules}, Payout onboarding)`, `// ${rules} "Who sees what"`, `// ${rules}#no-such-section`].join(
        '\n',
      ),
    );
    expect(result.status).toBe(1);
    expect(result.problems).toEqual([
      `1: section "Payout onboarding" of ${rules} not found`,
      `2: section "Who sees what" of ${rules} not found`,
      `3: section ${rules}#no-such-section not found`,
    ]);
  });

  it('fails on a tracker number in code and in docs', () => {
    const code = checkText('tracker.ts', `// The catalog benchmark (${issue} 4, "Shown by").\n`);
    const doc = checkText('tracker.md', `Asked for by ${issue.toUpperCase()} #26.\n`);
    expect(code.status).toBe(1);
    expect(code.problems).toEqual([`1: "${issue} 4": say what, not which tracker entry`]);
    expect(doc.problems).toEqual([`1: "${issue.toUpperCase()} #26": say what, not which tracker entry`]);
  });
});
