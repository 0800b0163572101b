// Docs that match the code: every repository path and every symbol that the Markdown documentation
// names must exist, so a rename in the code cannot leave a doc pointing at nothing; every section a
// doc or a code comment cites must exist; and nothing points at a tracker's numbers
// (CONTRIBUTING.md, Comments and citations).
//
//   node scripts/check-docs.mjs [file.md ...]
//
// Without arguments it reads README.md and CONTRIBUTING.md and every Markdown file under docs/; with
// arguments, only those files (used to try the check on a copy). Paths in a doc are resolved from
// the repository root, wherever the doc is. Fenced code blocks are skipped; only backticked spans
// (`...`) count. Prints each stranded reference as `docs/file.md:LINE: <what> not found` and exits
// 1, else prints how many paths, symbols and cited sections it checked and exits 0.
//
// Paths. A backticked span (no whitespace, no `://`) is a path when it contains `/` or ends in
// .ts .tsx .mjs .js .json .md .sql .css .html .sh, after a trailing `:LINE`, `#anchor` or `(...)` is
// stripped and a leading `./` dropped. Skipped: spans with `*`, `<`, `{`, `$` or `…` (globs and
// placeholders), spans starting with `/` (URL paths such as `/api/orders/{id}`), and spans whose first
// segment is node_modules, dist, data, test-results or playwright-report (build output, not the
// repository). Then:
//   - rooted: the first segment is a top-level entry of the repository (`fs.readdirSync` of the root,
//     e.g. src/, docs/, e2e/, .ci/, README.md) -> that file or folder must exist;
//   - bare: no `/` and a known extension (`app.ts`, `use-toast.ts`) -> some file of
//     `git ls-files --cached --others --exclude-standard` has that base name;
//   - partial: a `/`, a known extension, not rooted (`orders/cancel-order.ts`,
//     `features/orders/components/order-details.tsx`) -> some such file's path ends with it at a
//     segment boundary;
//   - anything else with a `/` (`text/event-stream`, `PUBLIC_URL/api/callback`, `components/ui/`) is
//     not a repository path and is not checked.
//
// Symbols. A symbol is a backticked identifier of 3+ characters that is camelCase, PascalCase or
// UPPER_CASE (a trailing `(...)` is dropped: `buildApp(options)` is `buildApp`); all-lowercase words
// (`stock`, `pending`) are never symbols. A symbol is checked only where the doc says which file it is
// in, in one of these forms (the whitespace between spans may include one line break):
//   1. `symbol` in `path`                         `deliveryFeeFor` in `src/domain/fees.ts`
//   2. `path` (`symbol`, `symbol` and `symbol`)   `src/domain/order-status.ts` (`canTransition`)
//      the parenthesis holds nothing but backticked symbols, separated by `,` and/or `and`
//   3. (`symbol`, `path`)                         (`IMAGE_COPY_WIDTHS`, `src/domain/image-copies.ts`)
//   4. `symbol` (path) or `symbol` (`path`)       `buildApp` (src/server/app.ts); a plain path here
//                                                 is never a .md file (that is a citation)
//   5. `path` `symbol`                            adjacent spans on one line, only spaces between
//   6. `path: symbol` or `path#symbol`            one span; `#` after a .md path is an anchor, and
//                                                 `#L12` a line
// The path is any of the three kinds above (and must exist); a folder means any file under it, and
// a bare name any tracked file of that name. The symbol must occur as a whole word in that text.
// "Tracked" means listed by git ls-files, untracked files that are not ignored included, so a file
// being added is found before it is committed. CHECK_DOCS_VERBOSE=1 lists every symbol checked.
//
// Sections and tracker numbers, in every tracked text file (code, tests, scripts, docs): a citation of
// a Markdown file of the repository names a section that is a heading of that file, in one of these
// forms (a comment's line breaks and `//`, `--`, `*` or `#` leaders are read as spaces):
//   - `docs/rules/catalog-and-orders.md, Order lifecycle`: after the comma, a heading of the file (or of the
//     file's headings, the longest that the text starts with) at a word boundary; a text after the
//     comma that starts with a lower-case letter or is no heading's start is checked only when it
//     starts with a capital letter;
//   - `docs/rules/catalog-and-orders.md "Order lifecycle"`: the quoted text is a heading;
//   - `rules/catalog-and-orders.md#order-lifecycle`: the anchor is a heading's slug (GitHub's: lower case,
//     punctuation dropped, spaces as hyphens).
// The file is resolved from the repository root, else from the citing file's folder. And no file says
// "issue" followed by a number: say what, not which tracker entry.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js', '.json', '.md', '.sql', '.css', '.html', '.sh'];
const NOT_REPOSITORY = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report', '.git']);
const topLevel = new Set(fs.readdirSync(root).filter((name) => !NOT_REPOSITORY.has(name)));
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file && fs.existsSync(path.join(root, file)));

const hasKnownExtension = (span) => EXTENSIONS.some((extension) => span.endsWith(extension));
/** camelCase, PascalCase or UPPER_CASE, 3+ characters: an identifier with a capital letter. */
const isSymbol = (span) => /^[A-Za-z_$][A-Za-z0-9_$]{2,}$/.test(span) && /[A-Z]/.test(span);

/** `src/x.ts:12`, `docs/a.md#section`, `buildApp(options)` -> the path or name alone. */
function stripTail(span) {
  return span
    .replace(/\([^()]*\)$/, '')
    .replace(/#[^#/]*$/, '')
    .replace(/:\d+(:\d+)?$/, '');
}

/** The kind of repository path a span is, with the files it stands for; null when it is not one. */
function classifyPath(rawSpan) {
  if (/\s|:\/\//.test(rawSpan)) return null;
  let span = stripTail(rawSpan);
  if (span.startsWith('./')) span = span.slice(2);
  if (!span || span.startsWith('/') || /[*<{$…]/.test(span)) return null;
  if (!span.includes('/') && !hasKnownExtension(span)) return null;
  const first = span.split('/')[0];
  if (NOT_REPOSITORY.has(first)) return null;
  if (topLevel.has(first)) {
    const clean = span.replace(/\/+$/, '');
    const full = path.join(root, clean);
    if (!fs.existsSync(full)) return { span, kind: 'path', files: [] };
    if (!fs.statSync(full).isDirectory()) return { span, kind: 'path', files: [clean] };
    return { span, kind: 'path', files: files.filter((file) => file.startsWith(`${clean}/`)) };
  }
  if (!hasKnownExtension(span)) return null;
  if (!span.includes('/')) {
    return { span, kind: 'file name', files: files.filter((file) => path.posix.basename(file) === span) };
  }
  return { span, kind: 'path', files: files.filter((file) => file === span || file.endsWith(`/${span}`)) };
}

const textCache = new Map();
function textOf(file) {
  if (!textCache.has(file)) textCache.set(file, fs.readFileSync(path.join(root, file), 'utf8'));
  return textCache.get(file);
}
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const occursIn = (symbol, target) => {
  const word = new RegExp(`(?<![A-Za-z0-9_$])${escapeRegExp(symbol)}(?![A-Za-z0-9_$])`);
  return target.files.some((file) => word.test(textOf(file)));
};

/** The Markdown text with fenced code blocks blanked out, line numbers kept. */
function withoutCodeBlocks(markdown) {
  let fence = null;
  return markdown
    .split('\n')
    .map((line) => {
      const opening = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = null;
        return '';
      }
      if (opening) {
        fence = opening[1];
        return '';
      }
      return line;
    })
    .join('\n');
}

/** Text between two spans matches `pattern` and stays in one paragraph (no blank line). */
const joins = (text, pattern) => pattern.test(text) && !/\n[ \t]*\n/.test(text);

function checkDoc(docPath, problems, counts) {
  const text = withoutCodeBlocks(fs.readFileSync(path.resolve(root, docPath), 'utf8'));
  const lineStarts = [0];
  for (let i = 0; i < text.length; i += 1) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => ({
    value: match[1],
    start: match.index,
    end: match.index + match[0].length,
    line: lineOf(match.index),
  }));
  const report = (line, what) => problems.push({ docPath, line, message: `${what} not found` });
  const between = (a, b) => text.slice(a.end, b.start);

  // Paths (and the symbol of a `path: symbol` / `path#symbol` span, form 6).
  const targets = spans.map((span) => {
    const inSpan = /^(\S+?)(?::[ \t]+|#)([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(span.value);
    if (inSpan && !inSpan[1].endsWith('.md') && isSymbol(inSpan[2]) && !/^L\d+$/.test(inSpan[2])) {
      const target = classifyPath(inSpan[1]);
      if (target) return { target, symbol: inSpan[2] };
    }
    return { target: classifyPath(span.value) };
  });
  const seenSymbols = new Set();
  const checkSymbol = (symbolSpan, symbol, target) => {
    const key = `${symbolSpan.start}:${symbol}`;
    if (seenSymbols.has(key) || target.files.length === 0) return;
    seenSymbols.add(key);
    counts.symbols += 1;
    if (process.env.CHECK_DOCS_VERBOSE)
      console.log(`${docPath}:${symbolSpan.line}: ${symbol} in ${target.span}`);
    if (!occursIn(symbol, target)) report(symbolSpan.line, `symbol ${symbol} in ${target.span}`);
  };
  spans.forEach((span, i) => {
    const { target, symbol } = targets[i];
    if (!target) return;
    counts.paths += 1;
    if (target.files.length === 0) report(span.line, `${target.kind} ${target.span}`);
    else if (symbol) checkSymbol(span, symbol, target);
  });

  const symbolOf = (span) => {
    const name = span.value.replace(/\([^()]*\)$/, '');
    return isSymbol(name) ? name : null;
  };
  spans.forEach((span, i) => {
    const next = spans[i + 1];
    const symbol = symbolOf(span);
    // 1. `symbol` in `path`
    if (symbol && next && targets[i + 1].target && joins(between(span, next), /^\s+in\s+$/)) {
      checkSymbol(span, symbol, targets[i + 1].target);
    }
    // 3. (`symbol`, `path`)
    if (
      symbol &&
      next &&
      targets[i + 1].target &&
      text[span.start - 1] === '(' &&
      joins(between(span, next), /^,\s*$/) &&
      text.slice(next.end).startsWith(')')
    ) {
      checkSymbol(span, symbol, targets[i + 1].target);
    }
    // 4. `symbol` (path) or `symbol` (`path`)
    if (symbol) {
      const plain = /^[ \t]*\n?[ \t]*\(([^()\s`]+)\)/.exec(text.slice(span.end, span.end + 300));
      const target = plain && !stripTail(plain[1]).endsWith('.md') ? classifyPath(plain[1]) : null;
      if (target) checkSymbol(span, symbol, target);
      if (
        next &&
        targets[i + 1].target &&
        joins(between(span, next), /^\s*\($/) &&
        text.slice(next.end).startsWith(')')
      ) {
        checkSymbol(span, symbol, targets[i + 1].target);
      }
    }
    const target = targets[i].target;
    if (!target || !next) return;
    // 5. `path` `symbol`
    const nextSymbol = symbolOf(next);
    if (nextSymbol && /^[ \t]+$/.test(between(span, next))) checkSymbol(next, nextSymbol, target);
    // 2. `path` (`symbol`, `symbol` and `symbol`)
    if (!joins(between(span, next), /^\s*\($/)) return;
    const listed = [];
    for (let j = i + 1; j < spans.length; j += 1) {
      const name = symbolOf(spans[j]);
      if (!name || spans[j].value !== name) return;
      listed.push(spans[j]);
      const after = spans[j + 1] ? between(spans[j], spans[j + 1]) : null;
      if (after !== null && joins(after, /^(,\s*|,?\s+and\s+)$/)) continue;
      if (!text.slice(spans[j].end).startsWith(')')) return;
      break;
    }
    for (const listedSpan of listed) checkSymbol(listedSpan, listedSpan.value, target);
  });
}

function markdownUnder(folder) {
  return fs
    .readdirSync(path.join(root, folder), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) return markdownUnder(relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    })
    .sort();
}

/**
 * The sections of a Markdown file (fenced code left out), without `#`s and backticks: its headings,
 * and the bold labels that open a paragraph or a list item (`- **Pictures**: ...`), which the docs
 * cite as sections too.
 */
const headingCache = new Map();
function headingsOf(file) {
  if (!headingCache.has(file)) {
    const headings = withoutCodeBlocks(fs.readFileSync(path.join(root, file), 'utf8'))
      .split('\n')
      .map(
        (line) =>
          /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1] ??
          /^\s*(?:[-*]\s+)?\*\*([^*]+?)[.:]?\*\*/.exec(line)?.[1],
      )
      .filter((heading) => heading !== undefined)
      .map((heading) => heading.replaceAll('`', ''));
    headingCache.set(file, headings);
  }
  return headingCache.get(file);
}

/** Text that goes on with a letter or a digit: a cut in the middle of a word. */
const midWord = (text) => /^[\p{L}\p{N}]/u.test(text);

/** GitHub's anchor of a heading. */
const slugOf = (heading) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The repository file a citation names, from the root or from the citing file's folder. */
function citedFile(cited, citingFile) {
  for (const candidate of [cited, path.posix.join(path.posix.dirname(citingFile), cited)]) {
    const clean = path.posix.normalize(candidate.replace(/^\.\//, ''));
    if (files.includes(clean)) return clean;
  }
  return undefined;
}

/** The text after a citation as one line: a comment's line breaks and leaders become one space. */
const followingText = (text, from) =>
  text
    .slice(from, from + 400)
    .replace(/\s*\n\s*(?:\/\/+|--|\*(?!\/)|#(?!#))?\s*/g, ' ')
    .replace(/\s+/g, ' ');

const TEXT_FILE = /\.(?:ts|tsx|mjs|cjs|js|md|sql|css|html|sh|yml|yaml)$|(?:^|\/)run$/;
const TRACKER_NUMBER = /\bissues? #?\d+/gi;
const CITATION = /[\w./-]*[\w-]\.md(#[\w-]+)?/g;

function checkCitations(file, problems, counts) {
  const text = fs.readFileSync(path.resolve(root, file), 'utf8');
  const lineOf = (offset) => text.slice(0, offset).split('\n').length;
  const report = (offset, message) => problems.push({ docPath: file, line: lineOf(offset), message });
  for (const match of text.matchAll(TRACKER_NUMBER))
    report(match.index, `"${match[0]}": say what, not which tracker entry`);
  for (const match of text.matchAll(CITATION)) {
    const anchor = match[1];
    const cited = citedFile(match[0].slice(0, anchor ? -anchor.length : undefined), file);
    if (!cited) continue;
    const headings = headingsOf(cited);
    if (anchor) {
      counts.sections += 1;
      if (!headings.some((heading) => `#${slugOf(heading)}` === anchor))
        report(match.index, `section ${match[0]} not found`);
      continue;
    }
    const after = followingText(text, match.index + match[0].length);
    const quoted = /^,? "([^"]+)"/.exec(after);
    if (quoted) {
      counts.sections += 1;
      if (!headings.includes(quoted[1])) report(match.index, `section "${quoted[1]}" of ${cited} not found`);
      continue;
    }
    const named = /^, ([A-Z].*)$/.exec(after);
    if (!named) continue;
    counts.sections += 1;
    // The text names a section when it starts with one, or is the start of one (a heading cited short).
    const title = named[1].replace(/[;:.()].*$/, '').trim();
    const found = headings.some(
      (heading) =>
        (named[1].startsWith(heading) && !midWord(named[1].slice(heading.length))) ||
        (heading.startsWith(title) && !midWord(heading.slice(title.length))),
    );
    if (!found) report(match.index, `section "${title.slice(0, 60)}" of ${cited} not found`);
  }
}

const args = process.argv.slice(2);
/** A doc by its path from the repository root, or its absolute path when it is outside (a copy). */
const docName = (arg) => {
  const relative = path.relative(root, path.resolve(arg)).split(path.sep).join('/');
  return relative.startsWith('../') ? path.resolve(arg) : relative;
};
const docs = args.length ? args.map(docName) : ['README.md', 'CONTRIBUTING.md', ...markdownUnder('docs')];
const problems = [];
const counts = { paths: 0, symbols: 0, sections: 0 };
for (const doc of docs) checkDoc(doc, problems, counts);
const cited = args.length
  ? docs
  : files.filter((file) => TEXT_FILE.test(file) && !NOT_REPOSITORY.has(file.split('/')[0]));
for (const file of cited) checkCitations(file, problems, counts);
if (problems.length > 0) {
  problems.sort((a, b) => docs.indexOf(a.docPath) - docs.indexOf(b.docPath) || a.line - b.line);
  for (const { docPath, line, message } of problems) console.error(`${docPath}:${line}: ${message}`);
  console.error(`docs: ${problems.length} stranded reference(s)`);
  process.exit(1);
}
console.log(
  `docs: ${counts.paths} paths, ${counts.symbols} symbols and ${counts.sections} cited sections checked`,
);
