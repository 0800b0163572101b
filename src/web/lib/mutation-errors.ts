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
 * The one way a failed write is reported: a 401 says "You are logged out. Logging in again..."
 * and signs in again after 500 ms (docs/product-rules.md, Client behaviour); anything else shows `fallback`.
 */
export function toastMutationError(
  error: unknown,
  fallback: string,
  options: MutationErrorOptions = {},
): void {
  if (isUnauthorizedError(error)) {
    toast({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
      variant: 'destructive',
    });
    signInAgainSoon();
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
