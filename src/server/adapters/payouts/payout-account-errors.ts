/**
 * The payout provider does not know the account a user has stored (the data of another provider, or
 * an account removed at the provider): no retry helps, and the user's request must not become a 500.
 */
export class UnknownPayoutAccountError extends Error {
  constructor(accountId: string, options?: { cause?: unknown }) {
    super(`The payout provider does not know the account ${accountId}`, options);
    this.name = 'UnknownPayoutAccountError';
  }
}
