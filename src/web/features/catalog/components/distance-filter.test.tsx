// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { installDomStubs, renderWithProviders } from '../../../test-support/render';
import { DistanceFilter, distanceLabel } from './distance-filter';

installDomStubs();
afterEach(() => vi.unstubAllGlobals());

describe('distance filter (docs/rules/catalog-and-orders.md, Catalog and distance)', () => {
  it('shows the slider value in miles, and 500 as "Any distance"', () => {
    expect(distanceLabel(1)).toBe('1 mile');
    expect(distanceLabel(25)).toBe('25 miles');
    expect(distanceLabel(499)).toBe('499 miles');
    expect(distanceLabel(500)).toBe('Any distance');
  });

  it('is a slider from 1 to 500 in steps of 1 once switched on', () => {
    const onToggle = vi.fn();
    const onMilesChange = vi.fn();
    const { rerender } = renderWithProviders(
      <DistanceFilter
        locationStatus="available"
        isOn={false}
        onToggle={onToggle}
        miles={500}
        onMilesChange={onMilesChange}
      />,
    );
    expect(screen.queryByRole('slider')).toBeNull();
    fireEvent.click(screen.getByRole('switch', { name: 'Filter by distance' }));
    expect(onToggle).toHaveBeenCalledWith(true);

    rerender(
      <DistanceFilter
        locationStatus="available"
        isOn
        onToggle={onToggle}
        miles={25}
        onMilesChange={onMilesChange}
      />,
    );
    const slider = screen.getByRole('slider', { name: 'Maximum distance' });
    expect(slider.getAttribute('min')).toBe('1');
    expect(slider.getAttribute('max')).toBe('500');
    expect(slider.getAttribute('step')).toBe('1');
    expect(slider.getAttribute('aria-valuetext')).toBe('25 miles');
    expect(screen.getByTestId('text-distance-value').textContent).toBe('25 miles');
    fireEvent.change(slider, { target: { value: '7' } });
    expect(onMilesChange).toHaveBeenCalledWith(7);
  });

  it("waits for the buyer's addresses before it can be switched on", () => {
    renderWithProviders(
      <DistanceFilter
        locationStatus="loading"
        isOn={false}
        onToggle={vi.fn()}
        miles={500}
        onMilesChange={vi.fn()}
      />,
    );
    const toggle = screen.getByRole('switch', { name: 'Filter by distance' });
    expect(toggle instanceof HTMLButtonElement && toggle.disabled).toBe(true);
  });
});
