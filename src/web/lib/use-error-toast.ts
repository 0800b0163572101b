import { useEffect, useRef } from 'react';
import { toast } from '../components/ui/use-toast';
import { isUnauthorizedError } from './api-client';
import { reportLoggedOut } from './mutation-errors';

/**
 * Shows `description` as an error toast once for each new failure of a read (a poll that fails
 * again shows it again; the same failure re-rendered does not). A 401 is not a failure of the read
 * but of the session: it gets the logged-out handling, so a list read again after a refused write
 * never replaces that write's notice with its own ("Failed to fetch orders").
 */
export function useErrorToast(error: unknown, description: string): void {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    if (isUnauthorizedError(error)) {
      reportLoggedOut();
      return;
    }
    toast({ title: 'Error', description, variant: 'destructive' });
  }, [error, description]);
}
