import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, signUpFresh } from './fixtures';

/** A GET answered 200, its JSON body. */
export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url);
  expect(response.status(), `${url}: ${await response.text()}`).toBe(200);
  const body: T = await response.json();
  return body;
}

/** Another person's browser: a fresh account there, signed in; closed by the caller. */
export async function someoneElse(browser: Browser, role?: 'seller' | 'driver') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  const account = await signUpFresh(page, role);
  const { id } = await getJson<{ id: string }>(page.request, '/api/auth/user');
  return { context, page, request: page.request, id, ...account };
}
