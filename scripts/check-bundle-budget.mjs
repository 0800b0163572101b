// The first-load budget (docs/decisions/0014-first-load.md): what a phone downloads before the
// landing or the home page can show, that is the entry script, every script index.html preloads
// and its stylesheets, gzip-compressed, must stay within 150 kB (150,000 bytes). Pages, dashboards,
// the payment form, the uploader and charts are loaded on demand and are not counted.
//
//   node scripts/check-bundle-budget.mjs [--budget-kb 150] [--dir dist/web]
//
// Reads the build in dist/web (run `npm run build:web` first); exits 1 above the budget.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const { values } = parseArgs({
  options: {
    'budget-kb': { type: 'string', default: '150' },
    dir: { type: 'string', default: path.resolve(import.meta.dirname, '../dist/web') },
  },
});
const budgetBytes = Number(values['budget-kb']) * 1000;
if (!Number.isFinite(budgetBytes) || budgetBytes <= 0) {
  console.error(`--budget-kb must be a positive number, not ${values['budget-kb']}`);
  process.exit(2);
}
const webRoot = path.resolve(values.dir);
const indexPath = path.join(webRoot, 'index.html');
if (!fs.existsSync(indexPath)) {
  console.error(`No build at ${webRoot}: run npm run build:web first.`);
  process.exit(2);
}
const html = fs.readFileSync(indexPath, 'utf8');

/** The URLs of the tags the browser fetches before the app can start, in document order. */
function firstLoadUrls(page) {
  const urls = [];
  for (const [tag] of page.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const attribute = (name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    if (tag.startsWith('<script')) {
      if (attribute('src')) urls.push(attribute('src'));
    } else if (['modulepreload', 'stylesheet'].includes(attribute('rel') ?? '')) {
      urls.push(attribute('href'));
    }
  }
  return urls;
}

const rows = firstLoadUrls(html).map((url) => {
  if (/^(?:[a-z]+:)?\/\//i.test(url)) {
    console.error(`index.html loads ${url} from another origin: its size cannot be checked.`);
    process.exit(2);
  }
  const file = path.join(webRoot, url.split('?')[0]);
  if (!file.startsWith(webRoot + path.sep) || !fs.existsSync(file)) {
    console.error(`index.html loads ${url}, which is not in the build.`);
    process.exit(2);
  }
  const bytes = fs.readFileSync(file);
  return { url, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
});

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const raw = rows.reduce((sum, row) => sum + row.raw, 0);
for (const row of [...rows].sort((a, b) => b.gzip - a.gzip)) {
  console.log(`${kb(row.gzip).padStart(9)} gzip ${kb(row.raw).padStart(9)} raw  ${row.url}`);
}
console.log(
  `First load of the landing and the home page: ${kb(total)} gzip (${kb(raw)} raw) in ${rows.length} files; budget ${kb(budgetBytes)}.`,
);
if (total > budgetBytes) {
  console.error(
    `Over the first-load budget by ${kb(total - budgetBytes)}: load the page or component that grew ` +
      `on demand (React.lazy / import()) instead of from the entry, or justify raising the budget ` +
      `in docs/decisions/0014-first-load.md.`,
  );
  process.exit(1);
}
