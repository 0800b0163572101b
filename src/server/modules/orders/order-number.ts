import crypto from 'node:crypto';

/**
 * Short and readable (docs/rules/catalog-and-orders.md, Checkout and orders); no 0/O or 1/I to misread. 32^6
 * ≈ 10^9 numbers.
 */
const ORDER_NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export function newOrderNumber(): string {
  let code = '';
  for (let i = 0; i < 6; i++)
    code += ORDER_NUMBER_ALPHABET.charAt(crypto.randomInt(ORDER_NUMBER_ALPHABET.length));
  return `ORD-${code}`;
}
