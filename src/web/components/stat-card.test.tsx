// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { Package } from 'lucide-react';
import { formatTrend, StatCard } from './stat-card';

afterEach(cleanup);

describe('statistic card (docs/rules/screens-buyer.md, Order screens)', () => {
  it('shows title, value and a positive trend in green', () => {
    render(<StatCard title="Total Orders" value="12" icon={<Package />} trend={15} />);
    const card = screen.getByRole('region', { name: 'Total Orders' });
    expect(within(card).getByText('12')).toBeVisible();
    const trend = within(card).getByText(/from last week/);
    expect(trend.textContent).toBe('+15% from last week');
    expect(trend.className).toContain('text-emerald-700');
  });

  it('shows a negative or zero trend in red, and no trend when none is given', () => {
    const { rerender } = render(<StatCard title="Sales" value="$5" icon={<Package />} trend={-4} />);
    const card = screen.getByRole('region', { name: 'Sales' });
    expect(within(card).getByText(/from last week/).textContent).toBe('-4% from last week');
    expect(within(card).getByText(/from last week/).className).toContain('text-red-700');
    rerender(<StatCard title="Sales" value="$5" icon={<Package />} />);
    expect(within(card).queryByText(/from last week/)).toBeNull();
  });

  it('formats trends', () => {
    expect(formatTrend(12.345)).toBe('+12.3% from last week');
    expect(formatTrend(0)).toBe('0% from last week');
  });
});
