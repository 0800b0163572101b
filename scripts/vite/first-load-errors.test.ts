import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  ERROR_WITHOUT_STACK,
  REACT_SENTINEL_ERRORS,
  reactSentinelsWithoutStack,
  zodWithoutEvalProbe,
} from './first-load-errors';

/** The installed file a change is made to, as the browser build reads it. */
const installed = (file: string) =>
  fs.readFileSync(path.resolve(import.meta.dirname, '../../node_modules', file), 'utf8');

describe('zodWithoutEvalProbe', () => {
  it('starts the installed zod with jitless on, so it never probes for eval', () => {
    const changed = zodWithoutEvalProbe(installed('zod/v4/core/core.js'));
    expect(changed).toContain('(_a.__zod_globalConfig = { jitless: true })');
    expect(changed).not.toContain('(_a.__zod_globalConfig = {})');
    expect(() => parseAst(changed)).not.toThrow();
  });

  it('fails the build when zod no longer has the line', () => {
    expect(() => zodWithoutEvalProbe('export const globalConfig = {};')).toThrow(/zod changed/);
  });
});

describe('reactSentinelsWithoutStack', () => {
  const client = installed('react-dom/cjs/react-dom-client.production.js');

  it('creates every top-level sentinel error of the installed React DOM through the helper', () => {
    const changed = reactSentinelsWithoutStack(client);
    for (const code of REACT_SENTINEL_ERRORS) {
      expect(client).toMatch(new RegExp(`= Error\\(formatProdErrorMessage\\(${code}\\)\\)`));
      expect(changed).not.toMatch(new RegExp(`= Error\\(formatProdErrorMessage\\(${code}\\)\\)`));
      expect(changed).toContain(`= errorWithoutStack(formatProdErrorMessage(${code}))`);
    }
    expect(changed).toContain(ERROR_WITHOUT_STACK);
    expect(() => parseAst(changed)).not.toThrow();
  });

  it('fails the build when React DOM no longer creates one of them at its top level', () => {
    const without461 = client.replace('Error(formatProdErrorMessage(461))', 'makeError(461)');
    expect(() => reactSentinelsWithoutStack(without461)).toThrow(/error 461/);
  });
});

describe('errorWithoutStack', () => {
  const errorWithoutStack = new Function(`${ERROR_WITHOUT_STACK}\nreturn errorWithoutStack;`)() as (
    message: string,
  ) => Error;

  it('makes an Error with its message and no stack, and puts the stack limit back', () => {
    const limit = Error.stackTraceLimit;
    const error = errorWithoutStack('Suspense Exception');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Suspense Exception');
    expect(error.stack).toBeUndefined();
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after').stack).toContain('after');
  });

  it('leaves a runtime without a stack limit as it was', () => {
    const limit = Error.stackTraceLimit;
    try {
      // @ts-expect-error: a runtime without the (V8) property
      delete Error.stackTraceLimit;
      expect(errorWithoutStack('x').message).toBe('x');
      expect('stackTraceLimit' in Error).toBe(false);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
});
