/**
 * The provider refused a transfer or a reversal for good (an account that cannot receive money, a
 * transfer already taken back): asking again will not help, so the payout is failed and shown to
 * the admin. Any other error is "try again later".
 */
export class PayoutRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PayoutRefusedError';
  }
}
