/**
 * The first screen rendered on the server (docs/decisions/0014-first-load.md, The first screen in
 * the HTML): the same <App/> the browser runs, for one address, with the API answers that address
 * asks for, fetched from the server's own routes as the caller. The browser hydrates it with the
 * same answers (main.tsx). Built by Vite as a server bundle (dist/ssr) that the server loads.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { dehydrate, skipToken, type Query, type QueryClient } from '@tanstack/react-query';
import { App } from './app/app';
import { productQueryOptions } from './features/catalog/api/get-product';
import { productImagesQueryOptions } from './features/catalog/api/get-product-images';
import { routeApiCallsThrough } from './lib/api-client';
import { setMarketplaceTimeZone } from './lib/format';
import { setPaymentProvider } from './lib/payment-provider';
import { createQueryClient } from './lib/query-client';
import { currentUserQueryOptions } from './lib/use-auth';

/** One API answer, as the server's own routes gave it to the caller. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface FirstScreenRequest {
  /** The page's path, and its query string without '?'. */
  path: string;
  search: string;
  /** MARKETPLACE_TZ, which the browser reads from index.html. */
  timeZone: string;
  /** The active payment provider's name, which the browser reads from index.html too. */
  paymentProvider: string;
  /** GET of an API address as the caller (their cookie, their address). */
  get: (url: string) => Promise<ApiAnswer>;
  /** Give up after this long: the page then goes out as the browser-rendered app. */
  timeoutMs?: number;
}

export interface FirstScreen {
  /** The markup of #root. */
  html: string;
  /** The API answers it was rendered with, as JSON safe inside a <script> element. */
  data: string;
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

const fetchOfThisRender = new AsyncLocalStorage<Fetch>();
routeApiCallsThrough(() => fetchOfThisRender.getStore());

/** Renders in rounds: the page's queries, then those that depend on them. */
const MAX_ROUNDS = 4;
const PRODUCT_PAGE = /^\/products\/([^/]+)\/?$/;

/**
 * What a page is known to ask for at once, asked before its first render: each render it saves is
 * a whole pass over the page. Every page asks who the caller is; a product page, for its product.
 */
function knownQueriesOf(path: string): ((client: QueryClient) => Promise<void>)[] {
  const product = PRODUCT_PAGE.exec(path)?.[1];
  return [
    (client) => client.prefetchQuery(currentUserQueryOptions),
    ...(product
      ? [
          (client: QueryClient) => client.prefetchQuery(productQueryOptions(product)),
          (client: QueryClient) => client.prefetchQuery(productImagesQueryOptions(product)),
        ]
      : []),
  ];
}

/**
 * Whether the component that asked for the query enabled it: one it has not (a quote of an empty
 * cart) is not asked for, as the browser would not. Its key changes when it is enabled.
 */
function isEnabled(query: Query): boolean {
  const { enabled, queryFn } = query.options as {
    enabled?: boolean | ((query: Query) => boolean);
  } & Query['options'];
  if (queryFn === skipToken) return false;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Reads only: a render never writes (a quote, though a read, is a POST and is left to the browser). */
function fetchThrough(get: FirstScreenRequest['get']): Fetch {
  return async (url, init) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new Error(`${method} ${url} is not made while rendering on the server`);
    const answer = await get(url);
    return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

async function renderOnce(
  client: QueryClient,
  request: FirstScreenRequest,
  signal: AbortSignal,
): Promise<string> {
  let failure: unknown;
  const { prelude } = await prerender(
    <StrictMode>
      <App client={client} ssrPath={request.path} ssrSearch={request.search} />
    </StrictMode>,
    {
      signal,
      // Every boundary in place: React would otherwise move a large one to the end of the page with
      // an inline script to put it back, which the CSP (scripts from 'self' only) blocks.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        failure ??= error;
      },
    },
  );
  const html = await new Response(prelude).text();
  // A part that failed would be rendered again by the browser, with an error in its console: the
  // page goes out as the browser-rendered app instead.
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return html;
}

/** JSON that cannot end its <script> element or open a comment in it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Renders the page as the caller would see it once its API answers have arrived. An answer that
 * failed is left out (the browser asks again, and the server's HTML shows it loading, as the
 * browser's first render will); only successful answers go into the page.
 */
export async function renderFirstScreen(request: FirstScreenRequest): Promise<FirstScreen> {
  setMarketplaceTimeZone(request.timeZone);
  setPaymentProvider(request.paymentProvider);
  const client = createQueryClient();
  const cache = client.getQueryCache();
  const fetchApi = fetchThrough(request.get);
  const asked = new Set<string>();
  const signal = AbortSignal.timeout(request.timeoutMs ?? 5000);
  const dropFailed = () => {
    for (const query of cache.getAll()) if (query.state.status === 'error') cache.remove(query);
  };
  try {
    await fetchOfThisRender.run(fetchApi, () =>
      Promise.all(knownQueriesOf(request.path).map((ask) => ask(client))),
    );
    signal.throwIfAborted();
    for (const query of cache.getAll()) asked.add(query.queryHash);
    dropFailed();
    let html = await renderOnce(client, request, signal);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const unasked = cache
        .getAll()
        .filter(
          (query) => query.state.status === 'pending' && isEnabled(query) && !asked.has(query.queryHash),
        );
      if (unasked.length === 0) break;
      for (const query of unasked) asked.add(query.queryHash);
      await fetchOfThisRender.run(fetchApi, () =>
        Promise.all(unasked.map((query) => query.fetch().catch(() => undefined))),
      );
      signal.throwIfAborted();
      dropFailed();
      html = await renderOnce(client, request, signal);
    }
    return { html, data: scriptSafeJson(dehydrate(client)) };
  } finally {
    client.clear();
  }
}
