// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';

/** The footer with a fresh provider module, as a page whose index.html says `provider` (or nothing). */
async function renderFooterServedWith(provider: string | null) {
  vi.resetModules();
  document.head.querySelector('meta[name="payment-provider"]')?.remove();
  if (provider !== null) {
    const meta = document.createElement('meta');
    meta.name = 'payment-provider';
    meta.content = provider;
    document.head.append(meta);
  }
  const { SiteFooter } = await import('./site-footer');
  render(<SiteFooter />);
}

afterEach(() => {
  cleanup();
  document.head.querySelector('meta[name="payment-provider"]')?.remove();
});

describe('site footer (docs/rules/screens-buyer.md, Routes and headers)', () => {
  it('links to Stripe, saying it secures the payments, only when Stripe takes them', async () => {
    await renderFooterServedWith('stripe');
    const link = screen.getByRole('link', { name: /Payments secured by Stripe/ });
    expect(link.getAttribute('href')).toBe('https://stripe.com');
    expect(screen.queryByText(/Test payments/)).toBeNull();
  });

  it.each([['test'], [null], ['something else']])(
    'says that no real money is taken with the test provider (index.html says %s), and names no Stripe',
    async (provider) => {
      await renderFooterServedWith(provider);
      expect(screen.getByTestId('text-test-payments').textContent).toBe(
        'Test payments: no real money is taken',
      );
      expect(screen.queryByText(/Stripe/)).toBeNull();
      expect(screen.getByRole('link', { name: 'Support & Contact' }).getAttribute('href')).toBe('/support');
    },
  );
});
