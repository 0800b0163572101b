// Loaded into the server by `node bench/checkout.bench.mjs --count-statements` (node --import):
// counts every statement the server sends through the pg driver (PostgreSQL, and the embedded
// database in its own process), by its text. SIGUSR2 writes the counts since the last SIGUSR2 to
// the file named by BENCH_STATEMENT_COUNTS as JSON and starts again from zero.
//
// With BENCH_STATEMENT_TRACE=file it also keeps every statement in order, with its parameter
// values and the connection (pg client) it went on: SIGUSR2 writes those since the last SIGUSR2 to
// that file as JSON lines ({ client, text, values }) — `--ceiling` replays them — until a file named
// like it with `.stop` after it exists.
import fs from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_STATEMENT_COUNTS;
const traceFile = process.env.BENCH_STATEMENT_TRACE;
let counts = new Map();
let trace = [];
let tracing = Boolean(traceFile);
const clientIds = new WeakMap();
let nextClientId = 1;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string') {
    // Counted by the text as sent; spaces are folded when the counts are written, so that the
    // counting costs the measured server next to nothing.
    counts.set(text, (counts.get(text) ?? 0) + 1);
    if (tracing) {
      if (!clientIds.has(this)) clientIds.set(this, nextClientId++);
      const values = typeof config === 'string' ? rest[0] : (config.values ?? rest[0]);
      trace.push({ client: clientIds.get(this), text, values: Array.isArray(values) ? values : undefined });
    }
  }
  return query.call(this, config, ...rest);
};
process.on('SIGUSR2', () => {
  // The trace is written first: the counts' file appearing tells the reader both are there.
  if (tracing) fs.writeFileSync(traceFile, trace.map((entry) => JSON.stringify(entry)).join('\n'));
  // A file named like the trace's with `.stop` after it ends the tracing (the measured run is not slowed).
  if (tracing && fs.existsSync(`${traceFile}.stop`)) tracing = false;
  if (file) {
    const folded = new Map();
    for (const [text, count] of counts) {
      const key = text.replace(/\s+/g, ' ').trim();
      folded.set(key, (folded.get(key) ?? 0) + count);
    }
    fs.writeFileSync(file, JSON.stringify(Object.fromEntries(folded)));
  }
  counts = new Map();
  trace = [];
});
