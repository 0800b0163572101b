import { describe, expect, it } from 'vitest';
import { MAX_NAMED, StatementNames } from './statement-names';

describe('the names of repeated statements', () => {
  it('names a data statement the second time its text is sent, and keeps that name', () => {
    const names = new StatementNames();
    const text = 'select "id" from "users" where "users"."id" = $1';
    expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toMatch(/^s\d+$/);
    expect(names.nameOf(text)).toBe(name);
    const other = 'update "products" set "stock" = $1 where "products"."id" = $2';
    names.nameOf(other);
    expect(names.nameOf(other)).not.toBe(name);
  });

  it('never names transaction control, DDL or an overlong text', () => {
    const names = new StatementNames();
    const long = `select ${'1, '.repeat(5_000)}1`;
    for (const text of [
      'begin',
      'commit',
      'savepoint sp1',
      'create table t (id int)',
      'DEALLOCATE ALL',
      long,
    ]) {
      names.nameOf(text);
      expect(names.nameOf(text)).toBeUndefined();
    }
    expect(names.size).toBe(0);
  });

  it(`names at most ${MAX_NAMED} texts, sending the rest unnamed`, () => {
    const names = new StatementNames();
    for (let i = 0; i < MAX_NAMED + 50; i++) {
      const text = `select ${i}`;
      names.nameOf(text);
      names.nameOf(text);
    }
    expect(names.size).toBe(MAX_NAMED);
    expect(names.nameOf('select 0')).toBe('s1');
    expect(names.nameOf(`select ${MAX_NAMED + 10}`)).toBeUndefined();
  });
});
