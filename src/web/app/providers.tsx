import { lazy, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { OptionalPart } from '../components/error-boundary';
import { queryClient as defaultQueryClient } from '../lib/query-client';
import { ThemeProvider } from '../lib/theme';
import { useHasHydrated } from '../lib/use-has-hydrated';

/**
 * The toast viewport (Radix) is not part of the first load (docs/decisions/0014-first-load.md);
 * a toast raised before it arrives waits in the toast store and shows when it does.
 */
const Toaster = lazy(async () => ({ default: (await import('../components/ui/toaster')).Toaster }));

/** Everything a page needs around it: data, theme and the toast viewport. */
export function Providers({
  children,
  client = defaultQueryClient,
}: {
  children: ReactNode;
  client?: QueryClient;
}) {
  // The viewport is not in the server's HTML: a toast raised before it waits in the toast store.
  const hasHydrated = useHasHydrated();
  return (
    <QueryClientProvider client={client}>
      <ThemeProvider>
        {children}
        {hasHydrated ? (
          <OptionalPart>
            <Toaster />
          </OptionalPart>
        ) : null}
      </ThemeProvider>
    </QueryClientProvider>
  );
}
