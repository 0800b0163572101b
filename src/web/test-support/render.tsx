import type { ReactElement } from 'react';
import { cleanup, render, screen, within, type RenderResult } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { afterEach, vi } from 'vitest';
import { Providers } from '../app/providers';
import { createQueryClient } from '../lib/query-client';
import type { CurrentUser } from '@domain/users';

/** What jsdom lacks and Radix or the router touch. Call once per test file. */
export function installDomStubs(): void {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
  window.scrollTo = () => {};
  window.HTMLElement.prototype.scrollIntoView = () => {};
  window.HTMLElement.prototype.hasPointerCapture = () => false;
  window.HTMLElement.prototype.releasePointerCapture = () => {};
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
    window.history.replaceState(null, '', '/');
  });
}

/** Renders with the app's providers and a fresh query client (so tests never share cache). */
export function renderWithProviders(
  ui: ReactElement,
  client: QueryClient = createQueryClient(),
): RenderResult & { client: QueryClient } {
  return { ...render(<Providers client={client}>{ui}</Providers>), client };
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export type Route = (url: string, init: RequestInit | undefined) => Response | undefined;

/** Replaces fetch with a list of handlers; an unhandled call fails the test loudly. */
export function mockFetch(...routes: Route[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    for (const route of routes) {
      const response = route(url, init);
      if (response) return response;
    }
    throw new Error(`Unexpected fetch ${init?.method ?? 'GET'} ${url}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'sam@example.com',
    firstName: 'Sam',
    lastName: 'Buyer',
    profileImageUrl: null,
    role: 'buyer',
    roles: ['buyer'],
    isVerified: false,
    vehicleImageUrl: null,
    licenseImageUrl: null,
    trailerImageUrl: null,
    stripeOnboardingComplete: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    emailVerified: true,
    localAccount: true,
    ...overrides,
  };
}

export const signedOut: Route = (url) =>
  url === '/api/auth/user'
    ? jsonResponse({ message: 'Unauthorized', code: 'unauthorized', requestId: 'r' }, 401)
    : undefined;

export function signedInAs(user: CurrentUser): Route {
  return (url) => (url === '/api/auth/user' ? jsonResponse(user) : undefined);
}

/** One category, no products (a product by id is a 404), and a buyer without addresses. */
export const emptyCatalog: Route = (url) => {
  if (url === '/api/categories') return jsonResponse([{ id: 'c1', name: 'Books' }]);
  if (url === '/api/addresses') return jsonResponse([]);
  if (/^\/api\/products\/(?!with-distance)[^/?]+/.test(url)) {
    return jsonResponse({ message: 'Product not found', code: 'not_found', requestId: 'r' }, 404);
  }
  if (url.startsWith('/api/products')) return jsonResponse([]);
  return undefined;
};

/**
 * The value a description list gives a term ("Total", "Pickup time"): the definition right after the
 * term that reads so, as a screen reader reads them. A definition cannot be named (ARIA prohibits it),
 * so it is found beside its term.
 */
export function definitionOf(term: string | RegExp, container?: HTMLElement): HTMLElement {
  const scope = container ? within(container) : screen;
  const definition = scope.getByText(term, { selector: 'dt' }).nextElementSibling;
  if (!(definition instanceof HTMLElement) || definition.tagName !== 'DD')
    throw new Error(`No definition follows the term ${String(term)}`);
  return definition;
}
