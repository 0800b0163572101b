/**
 * The browser build's step that cuts the evaluation of a chunk loaded on demand into slices
 * (docs/decisions/0014-first-load.md, Module evaluation in slices): before each module of the chunk,
 * a wait until the browser has had a turn once 8 ms of evaluation have passed
 * (src/web/lib/yield-during-load.ts). Rolldown marks where each module of a chunk starts with a
 * comment naming its file; a module wrapped in a function (CommonJS, say) has its marker inside a
 * top-level statement and is left whole, since an await cannot go there.
 */
export const WAIT_FOR_A_TURN = 'await globalThis.__yieldDuringLoad?.();\n';

const MODULE_START = /^\/\/ (?:src|node_modules)\/\S+$/gm;

/** A top-level statement of the chunk, by its offsets in the code. */
export interface StatementRange {
  start: number;
  end: number;
}

/**
 * The chunk with a wait before each module that starts at its top level, or null when there is
 * none. `statements` are the chunk's top-level statements in order, as a parser gives them.
 */
export function insertWaitsBetweenModules(
  code: string,
  statements: readonly StatementRange[],
): string | null {
  let next = 0;
  let result = '';
  let copied = 0;
  for (const match of code.matchAll(MODULE_START)) {
    while ((statements[next]?.end ?? Infinity) <= match.index) next++;
    if ((statements[next]?.start ?? Infinity) < match.index) continue;
    result += code.slice(copied, match.index) + WAIT_FOR_A_TURN;
    copied = match.index;
  }
  return copied === 0 ? null : result + code.slice(copied);
}
