import { shareOf, type Cents } from './money';

/**
 * How money taken back from an order is split (docs/decisions/0022-money-in-combinations.md): pure
 * rules, so the server's refunds and lost disputes, and the tests that explore them, use one.
 */

/** What one party (the seller, the driver) or the platform's fee earned from an order, and gave back so far. */
export interface EarnedPart {
  earned: Cents;
  taken: Cents;
}

export interface TakeBackSplit {
  seller: Cents;
  driver: Cents;
  platformFee: Cents;
}

const isCents = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * Splits `amount` taken back from an order of `total` between its seller, its driver and the
 * platform's fee (docs/decisions/0018-money-against-stripe.md, Refunds): each part is its earnings ×
 * taken / total, counted cumulatively over the order's take-backs so that every cent is taken once
 * and taking back the whole order takes exactly each one's earnings. The three parts sum to `amount`,
 * and no part is more than is left of what it earned. Throws a RangeError when `amount` is more than
 * is left of the order, or the earnings do not add up to the total.
 */
export function splitTakeBack(input: {
  total: Cents;
  seller: EarnedPart;
  driver: EarnedPart;
  platformFee: EarnedPart;
  amount: Cents;
}): TakeBackSplit {
  const { total, seller, driver, platformFee: fee, amount } = input;
  const parts = [seller, driver, fee];
  if (![total, amount, ...parts.flatMap((p) => [p.earned, p.taken])].every(isCents))
    throw new RangeError('A take-back is split in whole, non-negative cents');
  if (parts.some((p) => p.taken > p.earned)) throw new RangeError('A part gave back more than it earned');
  if (seller.earned + driver.earned + fee.earned !== total)
    throw new RangeError('The earnings and the fee do not add up to the total');
  const takenSoFar = seller.taken + driver.taken + fee.taken;
  const after = takenSoFar + amount;
  if (amount <= 0 || after > total) throw new RangeError('The take-back exceeds what is left of the order');
  // Cumulative shares: each party's target after this take-back, less what it gave already.
  const shares = [seller, driver].map((party) => {
    const target = shareOf(party.earned, after, total);
    return Math.min(Math.max(target - party.taken, 0), party.earned - party.taken);
  });
  let feePart = amount - shares.reduce((sum, cents) => sum + cents, 0);
  const feeLeft = fee.earned - fee.taken;
  // Rounding can leave the fee's part a cent outside what is left of it: the parties absorb it.
  for (let i = 0; feePart < 0 && i < shares.length; i += 1) {
    const give = Math.min(-feePart, shares[i] ?? 0);
    shares[i] = (shares[i] ?? 0) - give;
    feePart += give;
  }
  const parties = [seller, driver];
  for (let i = 0; feePart > feeLeft && i < parties.length; i += 1) {
    const party = parties[i];
    if (!party) continue;
    const room = party.earned - party.taken - (shares[i] ?? 0);
    const take = Math.min(feePart - feeLeft, room);
    shares[i] = (shares[i] ?? 0) + take;
    feePart -= take;
  }
  // Unreachable while the parts add up to the total; kept as the last guard of the invariant.
  if (feePart < 0 || feePart > feeLeft) throw new RangeError('The take-back cannot be split');
  return { seller: shares[0] ?? 0, driver: shares[1] ?? 0, platformFee: feePart };
}

export interface LostAmountSplit {
  /** Each order's part, in the order given; never more than what is left of it. */
  parts: Cents[];
  /** What no order had left to give: already refunded money the dispute took again, the platform's loss. */
  loss: Cents;
}

/**
 * Splits a lost dispute's amount over a payment's orders in proportion to what is left of each
 * (largest remainder, so the parts add up exactly), never more than is left of one; whatever exceeds
 * what is left of them all is the platform's loss (docs/decisions/0022-money-in-combinations.md, A
 * lost dispute).
 */
export function splitLostAmount(amount: Cents, leftPerOrder: readonly Cents[]): LostAmountSplit {
  if (![amount, ...leftPerOrder].every(isCents)) throw new RangeError('Whole, non-negative cents only');
  const whole = leftPerOrder.reduce((sum, left) => sum + left, 0);
  const covered = Math.min(amount, whole);
  if (whole === 0) return { parts: leftPerOrder.map(() => 0), loss: amount };
  const exact = leftPerOrder.map((left) => (covered * left) / whole);
  const parts = exact.map((value) => Math.floor(value));
  let rest = covered - parts.reduce((sum, part) => sum + part, 0);
  const byRemainder = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (rest <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    rest -= 1;
  }
  return { parts, loss: amount - covered };
}
