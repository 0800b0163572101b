// The landing page's lazy parts, apart from the page so that its module exports only its component
// (React's fast refresh keeps its state on an edit).
import { preloadableLazy } from '../../lib/preloadable-lazy';

/**
 * The featured strip comes with its own code and data. The server renders it into the landing's
 * HTML with its products, its first picture preloaded: on a phone it is the largest thing on the
 * first screen (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export const { Component: FeaturedStrip, preload: preloadLandingParts } = preloadableLazy(
  async () => (await import('../../features/catalog/components/featured-strip')).FeaturedStrip,
);
