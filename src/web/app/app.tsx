import type { QueryClient } from '@tanstack/react-query';
import { Router } from 'wouter';
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
      <Router ssrPath={ssrPath} ssrSearch={ssrSearch}>
        <AppRouter />
      </Router>
    </Providers>
  );
}
