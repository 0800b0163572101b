// Ids for the benchmarks' data: version-4-shaped uuids made from md5 of a name (the API accepts only
// RFC 9562 uuids as ids), the same in SQL (`uuidOf`) and here (`md5Uuid`).
import crypto from 'node:crypto';

/** SQL: the uuid of the text expression `text`. */
export const uuidOf = (text) =>
  `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The uuid `uuidOf` gives in SQL, computed here. */
export function md5Uuid(text) {
  const md5 = crypto.createHash('md5').update(text).digest('hex');
  const hex = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
