// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ProductImage } from './product-image';

afterEach(cleanup);

const UPLOAD = '/objects/uploads/0b5c8a36-3c1e-4b8e-9d43-6b2f7c1e9a10';

describe('product picture (docs/decisions/0014-first-load.md, Resized copies)', () => {
  it('offers the resized copies of an upload with the sizes it is drawn at, and keeps its size and loading', () => {
    render(<ProductImage src={UPLOAD} alt="Lamp" sizes="(min-width: 640px) 50vw, 100vw" />);
    const img = screen.getByRole('img', { name: 'Lamp' });
    expect(img.getAttribute('src')).toBe(UPLOAD);
    expect(img.getAttribute('srcset')).toBe(
      `${UPLOAD}/w160 160w, ${UPLOAD}/w320 320w, ${UPLOAD}/w640 640w, ${UPLOAD}/w1280 1280w`,
    );
    expect(img.getAttribute('sizes')).toBe('(min-width: 640px) 50vw, 100vw');
    expect(img.getAttribute('width')).toBe('400');
    expect(img.getAttribute('height')).toBe('300');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('fetchpriority')).toBe('auto');
  });

  it('draws a thumbnail small by default, and the largest picture first', () => {
    render(<ProductImage src={UPLOAD} alt="Lamp" isPriority />);
    const img = screen.getByRole('img', { name: 'Lamp' });
    expect(img.getAttribute('sizes')).toBe('107px');
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });

  it('has no copies for a picture that is not an upload', () => {
    render(<ProductImage src="https://example.com/lamp.jpg" alt="Lamp" />);
    const img = screen.getByRole('img', { name: 'Lamp' });
    expect(img.hasAttribute('srcset')).toBe(false);
    expect(img.hasAttribute('sizes')).toBe(false);
  });

  it('falls back to the original when the copies fail, and to the placeholder when that fails too', () => {
    render(<ProductImage src={UPLOAD} alt="Lamp" />);
    fireEvent.error(screen.getByRole('img', { name: 'Lamp' }));
    const original = screen.getByRole('img', { name: 'Lamp' });
    expect(original.tagName).toBe('IMG');
    expect(original.getAttribute('src')).toBe(UPLOAD);
    expect(original.hasAttribute('srcset')).toBe(false);
    fireEvent.error(original);
    expect(screen.getByRole('img', { name: 'Lamp' }).tagName.toLowerCase()).toBe('svg');
  });
});
