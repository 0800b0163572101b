/**
 * Text that PostgreSQL cannot store: a NUL character, or half of a UTF-16 surrogate pair with no
 * other half (docs/rules/running.md, Bad input and failure). Every request is checked for it
 * before its schema runs, so no route answers such text with a 500.
 */
// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'Text cannot contain a NUL character or an unpaired surrogate';

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Where in a parsed request (body, query or params) the first unstorable text sits, as `a.b.0`. */
export function findUnstorableText(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.') || 'value';
  // Parsed JSON nests at most as deep as the body limit allows; stop well before the stack does.
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  if (value instanceof Uint8Array) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const here = [...path, key];
    if (!isStorableText(key)) return here.join('.');
    const found = findUnstorableText(item, here, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
