import { toast } from '../components/ui/use-toast';
import { errorMessage, isUnauthorizedError } from './api-client';
import { signInAgainSoon } from './navigation';

export interface MutationErrorOptions {
  /** Show the server's own message when it sent one (spec: "the server message, else ..."). */
  preferServerMessage?: boolean;
  /**
   * Keep the spec text and add the server's own message after it, when it sent one
   * ("Failed to add schedule: End date must be on or after the start date").
   */
  appendServerMessage?: boolean;
}

/**
 * The logged-out handling (docs/rules/screens-shared.md, Client behaviour): "You are logged out. Logging in
 * again..." and the sign-in after 500 ms, once however many calls answered 401 together.
 */
export function reportLoggedOut(): void {
  if (!signInAgainSoon()) return;
  toast({
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  });
}

/**
 * The one way a failed write is reported: a 401 says "You are logged out. Logging in again..." and signs in
 * again after 500 ms (docs/rules/screens-shared.md, Client behaviour); anything else shows `fallback`.
 */
export function toastMutationError(
  error: unknown,
  fallback: string,
  options: MutationErrorOptions = {},
): void {
  if (isUnauthorizedError(error)) {
    reportLoggedOut();
    return;
  }
  const serverMessage = errorMessage(error, '');
  const description =
    options.preferServerMessage && serverMessage
      ? serverMessage
      : options.appendServerMessage && serverMessage
        ? `${fallback}: ${serverMessage}`
        : fallback;
  toast({ title: 'Error', description, variant: 'destructive' });
}
