/**
 * Text that shows what it says (docs/rules/running.md, Bad input and failure): what people write in
 * names, category and product names, descriptions, addresses, messages, review comments and the
 * contact form. Without zod, so any page may use it without building schemas
 * (docs/decisions/0014-first-load.md); the schemas take it through `visibleText` in
 * `src/domain/visible-text-schema.ts`.
 */

/**
 * Bidirectional controls: embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069), the
 * left-to-right, right-to-left and Arabic letter marks. They reorder what is shown, so a name can
 * read differently from what it is: refused, never removed silently.
 */
const DIRECTION_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

export const DIRECTION_CONTROL_MESSAGE = 'Must not contain invisible direction-changing characters';

export function hasDirectionControl(text: string): boolean {
  return DIRECTION_CONTROL.test(text);
}

/** Scripts whose spelling uses the zero-width joiner and non-joiner between letters (Persian, Hindi). */
const JOINING_SCRIPT =
  '[\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Nko}\\p{Script=Devanagari}\\p{Script=Bengali}' +
  '\\p{Script=Gurmukhi}\\p{Script=Gujarati}\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}' +
  '\\p{Script=Kannada}\\p{Script=Malayalam}\\p{Script=Sinhala}]';

/**
 * Invisible format characters, and the exceptions where they carry meaning. The first three
 * alternatives are kept whole (the replacer returns their group); anything the last matches is
 * removed:
 * 1. a zero-width joiner between two pictographs, as in the family emoji 👨‍👩‍👧 (the pictograph
 *    before it may carry a skin tone or a variation selector);
 * 2. a joiner or non-joiner between two letters of a script that spells with it;
 * 3. a flag's tag sequence (🏴 then tag letters then the cancel tag, as in the flag of Scotland);
 * 4. otherwise the soft hyphen, the Mongolian vowel separator, the zero-width space, non-joiner and
 *    joiner, the word joiner and the invisible operators (U+2060–U+2064), the deprecated format
 *    characters (U+206A–U+206F), the byte order mark and the tag characters.
 */
const INVISIBLE = new RegExp(
  [
    '(?<=\\p{Extended_Pictographic}[\\p{Emoji_Modifier}\\p{M}]*)(\\u200D)(?=\\p{Extended_Pictographic})',
    `(?<=${JOINING_SCRIPT})([\\u200C\\u200D])(?=${JOINING_SCRIPT})`,
    '(\\u{1F3F4}[\\u{E0020}-\\u{E007E}]+\\u{E007F})',
    '[\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\u206A-\\u206F\\uFEFF\\u{E0001}\\u{E0020}-\\u{E007F}]',
  ].join('|'),
  'gu',
);

/**
 * The text without the invisible characters that mean nothing in it, before it is trimmed and
 * checked for "required" and length: a name of zero-width spaces is no name.
 */
export function removeInvisibleCharacters(text: string): string {
  return text.replace(
    INVISIBLE,
    (_match, emojiJoiner?: string, scriptJoiner?: string, flagTags?: string) =>
      emojiJoiner ?? scriptJoiner ?? flagTags ?? '',
  );
}

/**
 * A line break or another control character (C0, DEL, C1, the line and paragraph separators): a
 * name refuses it (docs/rules/running.md, Bad input and failure), as it goes into mail headers,
 * greetings, exports and lists that are read one line per name.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is refused
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

export function isOneLine(text: string): boolean {
  return !CONTROL_CHARACTER.test(text);
}
