/**
 * The browser app's index.html as this server sends it: with the marketplace time zone the app
 * formats every date and time in (docs/rules/running.md, Dates and times), the payment provider that
 * takes the payments (the footer names Stripe only when it does), and, for a product page,
 * the product's title, description and picture, so a shared link previews as the product
 * (docs/rules/screens-buyer.md, Routes and headers). Everything put in is HTML-escaped.
 */

import { FIRST_SCREEN_DATA_ID } from '../../domain/first-screen';
import { imageSrcSet, PRODUCT_PAGE_IMAGE_SIZES } from '../../domain/image-copies';

export interface PageMeta {
  /** The page's <title> and og:title. */
  title: string;
  description: string;
  /** Absolute URL of the picture, or null for none. */
  imageUrl: string | null;
  /** Absolute URL of the page. */
  url: string | null;
  /** og:type: "product" for a product page. */
  type: string;
  /**
   * The path of the page's largest picture, exactly as the page's <img> asks for it: fetched from
   * the start instead of after the script and the API (docs/decisions/0014-first-load.md).
   */
  preloadImage?: string | null;
}

export const TIME_ZONE_META = 'marketplace-time-zone';
/** The active payment provider's name (`PAYMENT_PROVIDERS` of domain/checkout.ts), for the footer. */
export const PAYMENT_PROVIDER_META = 'payment-provider';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** One line, at most `max` characters, cut at a word with an ellipsis. */
export function summarise(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

const TITLE_PATTERN = /<title>[\s\S]*?<\/title>/;
const DESCRIPTION_PATTERN = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;
const TIME_ZONE_PATTERN = new RegExp(`<meta\\s+name="${TIME_ZONE_META}"\\s+content="[^"]*"\\s*/?>`);
const PAYMENT_PROVIDER_PATTERN = new RegExp(
  `<meta\\s+name="${PAYMENT_PROVIDER_META}"\\s+content="[^"]*"\\s*/?>`,
);

function metaTag(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
}

/** The tag in place of the template's own, or added at the end of <head>. */
function withHeadTag(html: string, pattern: RegExp, tag: string): string {
  return pattern.test(html)
    ? html.replace(pattern, () => tag)
    : html.replace('</head>', () => `  ${tag}\n  </head>`);
}

/**
 * index.html with the time zone, the payment provider when given, and, when given, the page's own
 * title, description and picture.
 */
export function renderIndexHtml(
  template: string,
  options: { timeZone: string; paymentProvider?: string; meta?: PageMeta },
): string {
  let html = withHeadTag(template, TIME_ZONE_PATTERN, metaTag('name', TIME_ZONE_META, options.timeZone));
  if (options.paymentProvider !== undefined) {
    const providerTag = metaTag('name', PAYMENT_PROVIDER_META, options.paymentProvider);
    html = withHeadTag(html, PAYMENT_PROVIDER_PATTERN, providerTag);
  }
  const { meta } = options;
  if (!meta) return html;

  html = html.replace(TITLE_PATTERN, () => `<title>${escapeHtml(meta.title)}</title>`);
  const description = metaTag('name', 'description', meta.description);
  html = DESCRIPTION_PATTERN.test(html)
    ? html.replace(DESCRIPTION_PATTERN, () => description)
    : html.replace('</head>', () => `  ${description}\n  </head>`);
  const tags = [
    metaTag('property', 'og:type', meta.type),
    metaTag('property', 'og:title', meta.title),
    metaTag('property', 'og:description', meta.description),
    ...(meta.url ? [metaTag('property', 'og:url', meta.url)] : []),
    ...(meta.imageUrl
      ? [
          metaTag('property', 'og:image', meta.imageUrl),
          metaTag('name', 'twitter:card', 'summary_large_image'),
        ]
      : [metaTag('name', 'twitter:card', 'summary')]),
  ];
  if (meta.preloadImage) {
    // The same copy the page's <img> picks from its srcset, or the browser fetches two
    // (docs/decisions/0014-first-load.md, Resized copies).
    const srcSet = imageSrcSet(meta.preloadImage);
    const responsive = srcSet
      ? ` imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(PRODUCT_PAGE_IMAGE_SIZES)}"`
      : '';
    tags.push(
      `<link rel="preload" as="image" href="${escapeHtml(meta.preloadImage)}"${responsive} fetchpriority="high" />`,
    );
  }
  return html.replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}

/**
 * The first screen rendered on the server (docs/decisions/0014-first-load.md, The first screen in
 * the HTML): the markup of #root, and the API answers it was rendered with, which the browser
 * hydrates with. Both come from React and from a script-safe JSON writer, escaped there.
 */
export interface FirstScreenMarkup {
  html: string;
  data: string;
}

const EMPTY_ROOT = '<div id="root"></div>';
const IMG_TAG = /<img\b[^>]*>/g;
// React writes attribute names as it spells the props (`srcSet`, `fetchPriority`): matched in any case.
const ATTRIBUTE = (name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i');

/**
 * The first picture the first screen asks for with high priority (the largest one above the fold,
 * docs/decisions/0014-first-load.md, Pictures), as a preload: fetched beside the script, not after
 * the HTML's body has been read. The attribute values are React's, escaped already.
 */
export function preloadOfFirstPicture(html: string): string | null {
  for (const [tag] of html.matchAll(IMG_TAG)) {
    if (!/\sfetchpriority="high"/i.test(tag)) continue;
    const src = ATTRIBUTE('src').exec(tag)?.[1];
    if (!src) return null;
    const srcset = ATTRIBUTE('srcset').exec(tag)?.[1];
    const sizes = ATTRIBUTE('sizes').exec(tag)?.[1];
    return (
      `<link rel="preload" as="image" href="${src}"` +
      (srcset ? ` imagesrcset="${srcset}"` : '') +
      (sizes ? ` imagesizes="${sizes}"` : '') +
      ' fetchpriority="high" />'
    );
  }
  return null;
}

/** index.html (already filled in by renderIndexHtml) with the first screen in #root. */
export function withFirstScreen(
  html: string,
  screen: FirstScreenMarkup,
  options: { preload: boolean; modules?: string | undefined },
): string {
  if (!html.includes(EMPTY_ROOT)) return html;
  let page = html.replace(
    EMPTY_ROOT,
    () =>
      `<div id="root">${screen.html}</div>\n    ` +
      `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${screen.data}</script>`,
  );
  const preload = options.preload ? preloadOfFirstPicture(screen.html) : null;
  if (preload) page = page.replace('</head>', () => `  ${preload}\n  </head>`);
  // The page's own chunks (web-app.ts, pagePreloads), after the page: in <head> they were fetched
  // beside the styles and the app's script and put off the first paint.
  if (options.modules) page = page.replace('</body>', () => `  ${options.modules}\n  </body>`);
  return page;
}
