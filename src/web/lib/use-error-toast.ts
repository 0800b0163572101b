import { useEffect, useRef } from 'react';
import { toast } from '../components/ui/use-toast';

/**
 * Shows `description` as an error toast once for each new failure of a read (a poll that fails
 * again shows it again; the same failure re-rendered does not).
 */
export function useErrorToast(error: unknown, description: string): void {
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    toast({ title: 'Error', description, variant: 'destructive' });
  }, [error, description]);
}
