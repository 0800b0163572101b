// Loaded into the server by `node bench/checkout.bench.mjs --count-statements` (node --import):
// counts every statement the server sends through the pg driver (PostgreSQL, and the embedded
// database in its own process), by its text. SIGUSR2 writes the counts since the last SIGUSR2 to
// the file named by BENCH_STATEMENT_COUNTS as JSON and starts again from zero.
import fs from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_STATEMENT_COUNTS;
let counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string') {
    const key = text.replace(/\s+/g, ' ').trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return query.call(this, config, ...rest);
};
process.on('SIGUSR2', () => {
  if (file) fs.writeFileSync(file, JSON.stringify(Object.fromEntries(counts)));
  counts = new Map();
});
