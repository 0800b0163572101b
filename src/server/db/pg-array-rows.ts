import pg from 'pg';

/** What pg's Result keeps of a statement's columns (its own fields, not in its types). */
interface ResultInternals {
  rowAsArray: boolean;
  fields: unknown[];
  _parsers: ((value: string) => unknown)[] | undefined;
  _types: { getTypeParser(oid: number, format: string): (value: string) => unknown } | undefined;
  addFields(fields: readonly FieldDescription[]): void;
}

interface FieldDescription {
  dataTypeID: number;
  format?: 'text' | 'binary';
}

let installed = false;

/**
 * pg reads the columns of every result (each run of a named statement is described again) and
 * builds, besides the parser of each column, an object with one key a column to copy each row from,
 * spread once more: about 60 µs for the 50 columns of a checkout's read. drizzle asks for its rows
 * as arrays, which never use that object, so for them only the parsers are made
 * (docs/decisions/0025-checkout-statements.md, Columns read). Results of rows as objects are made
 * by pg's own code, unchanged.
 */
export function readArrayRowsCheaply(): void {
  if (installed) return;
  installed = true;
  const prototype = (pg as unknown as { Result: { prototype: ResultInternals } }).Result.prototype;
  const addFields = prototype.addFields;
  prototype.addFields = function (this: ResultInternals, fields: readonly FieldDescription[]) {
    if (!this.rowAsArray) {
      addFields.call(this, fields);
      return;
    }
    this.fields = fields as unknown[];
    if (fields.length === 0) return;
    const types = this._types ?? pg.types;
    const parsers = new Array<(value: string) => unknown>(fields.length);
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldDescription;
      parsers[i] = types.getTypeParser(field.dataTypeID, field.format || 'text') as (
        value: string,
      ) => unknown;
    }
    this._parsers = parsers;
  };
}
