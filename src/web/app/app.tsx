import type { QueryClient } from '@tanstack/react-query';
import { Router } from 'wouter';
import { ErrorBoundary } from '../components/error-boundary';
import { Providers } from './providers';
import { AppRouter } from './router';

/**
 * The app. The server renders it for one address (`ssrPath`, `ssrSearch`) with its own query
 * client; the browser with neither (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export function App({
  client,
  ssrPath,
  ssrSearch,
}: {
  client?: QueryClient;
  ssrPath?: string;
  ssrSearch?: string;
}) {
  return (
    <Providers client={client}>
      {/* The last resort: each page has its own boundary under the header (router.tsx); an error
          that escapes it (the header itself failing) shows the message instead of a blank page. */}
      <ErrorBoundary>
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch}>
          <AppRouter />
        </Router>
      </ErrorBoundary>
    </Providers>
  );
}
