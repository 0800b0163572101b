/**
 * The browser app's index.html as this server sends it: with the marketplace time zone the app
 * formats every date and time in (docs/product-rules.md, Dates and times), and, for a product page,
 * the product's title, description and picture, so a shared link previews as the product
 * (docs/product-rules.md, Routes and headers). Everything put in is HTML-escaped.
 */

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

function metaTag(attribute: 'name' | 'property', key: string, content: string): string {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
}

/** index.html with the time zone and, when given, the page's own title, description and picture. */
export function renderIndexHtml(template: string, options: { timeZone: string; meta?: PageMeta }): string {
  const zoneTag = metaTag('name', TIME_ZONE_META, options.timeZone);
  let html = TIME_ZONE_PATTERN.test(template)
    ? template.replace(TIME_ZONE_PATTERN, () => zoneTag)
    : template.replace('</head>', () => `  ${zoneTag}\n  </head>`);
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
    tags.push(
      `<link rel="preload" as="image" href="${escapeHtml(meta.preloadImage)}" fetchpriority="high" />`,
    );
  }
  return html.replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`);
}
