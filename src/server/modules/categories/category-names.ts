import { confusablesMap } from 'confusables';

/**
 * When two category names read the same (docs/rules/known-differences.md, Admin; docs/rules/running.md, Bad
 * input and failure): "Books", "BOOKS", "Books" with a zero-width space and "Bооks" with Cyrillic o's are one
 * name. The comparison is on a skeleton of each name: compatibility-normalised (NFKC: full-width and ligature
 * forms become plain letters), without default-ignorable characters (zero-width, direction and variation
 * characters), every look-alike character folded to the Latin letter or digit it imitates (the `confusables`
 * package's table), lower-cased, and with runs of white space made one space.
 */

// Every character Unicode says a renderer may leave undrawn, bidirectional controls included.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Each character by the one it imitates; the table maps single characters, ASCII `|` to `l` too. */
function foldConfusables(text: string): string {
  let folded = '';
  for (const character of text) folded += confusablesMap.get(character) ?? character;
  return folded;
}

export function categorySkeleton(name: string): string {
  let text = name.normalize('NFKC').replace(IGNORABLE, '');
  // Twice: a look-alike may fold to an upper-case letter whose lower case is itself in the table,
  // and lower-casing a character may give one that imitates another.
  for (let round = 0; round < 2; round++) text = foldConfusables(text).toLowerCase().normalize('NFKC');
  return text.replace(/\s+/gu, ' ').trim();
}

/** The first category, other than `exceptId`, whose name reads the same as `name`. */
export function findLookAlike<T extends { id: string; name: string }>(
  categories: readonly T[],
  name: string,
  exceptId?: string,
): T | undefined {
  const skeleton = categorySkeleton(name);
  return categories.find(
    (category) => category.id !== exceptId && categorySkeleton(category.name) === skeleton,
  );
}
