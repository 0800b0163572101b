import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { insertWaitsBetweenModules, WAIT_FOR_A_TURN } from './yield-between-modules';

const slice = (code: string) => insertWaitsBetweenModules(code, parseAst(code).body);

/** What Rolldown writes for a page's chunk: imports, then each module after a comment naming it. */
const chunk = [
  'import { t as object } from "./index-AbCd1234.js";',
  '// src/domain/users.ts',
  'var userSchema = object({});',
  '// node_modules/lucide-react/dist/esm/icons/car.mjs',
  'var Car = () => null;',
  '// src/web/features/deliveries/api/get-driver-trips.ts',
  'async function getDriverTrips() { return userSchema; }',
  'export { Car as n, getDriverTrips as t };',
  '',
].join('\n');

describe('insertWaitsBetweenModules', () => {
  it('puts a wait before each module, after the imports and never inside a statement', () => {
    const sliced = slice(chunk);
    expect(sliced).not.toBeNull();
    const lines = sliced!.split('\n');
    const wait = WAIT_FOR_A_TURN.trim();
    expect(lines[0]).toMatch(/^import /);
    expect(lines.filter((line) => line === wait)).toHaveLength(3);
    for (const marker of ['// src/domain/users.ts', '// node_modules/lucide-react', '// src/web/features']) {
      const at = lines.findIndex((line) => line.startsWith(marker));
      expect(lines[at - 1]).toBe(wait);
    }
    // Still a module that parses, with the code of each module in its order.
    expect(() => parseAst(sliced!)).not.toThrow();
    expect(sliced!.replaceAll(WAIT_FOR_A_TURN, '')).toBe(chunk);
  });

  it('leaves a module wrapped in a function whole: an await cannot go there', () => {
    const wrapped = [
      'var require_react = __commonJSMin((exports) => {',
      '// node_modules/react/cjs/react.production.js',
      '  exports.version = "19";',
      '});',
      '// src/web/lib/utils.ts',
      'var cn = () => "";',
      'export { cn as t };',
      '',
    ].join('\n');
    const sliced = slice(wrapped)!;
    expect(sliced.split(WAIT_FOR_A_TURN)).toHaveLength(2);
    expect(sliced.indexOf(WAIT_FOR_A_TURN)).toBe(wrapped.indexOf('// src/web/lib/utils.ts'));
    expect(() => parseAst(sliced)).not.toThrow();
  });

  it('leaves a chunk without module markers as it is', () => {
    expect(slice('export const answer = 42;\n')).toBeNull();
  });
});
