import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { App, AppContext } from './context';
import { AppError } from './errors';
import {
  renderIndexHtml,
  summarise,
  withFirstScreen,
  type FirstScreenMarkup,
  type PageMeta,
} from './index-html';
import { isNotModified } from './public-cache';
import { getProduct } from '../modules/catalog/catalog.service';
import { idSchema } from '../../domain/users';
import { formatMoney } from '../../domain/money';
import { COMPANY } from '../../domain/support';
import { isWebPage } from '../../domain/web-pages';

/** What src/web/entry-server.tsx exports (the server cannot import the browser's code). */
export interface FirstScreenRenderer {
  renderFirstScreen(request: {
    path: string;
    search: string;
    timeZone: string;
    /** The active payment provider's name, which the browser reads from index.html. */
    paymentProvider: string;
    get: (url: string) => Promise<{ status: number; headers: Record<string, string>; body: string }>;
  }): Promise<FirstScreenMarkup>;
}

const PRODUCT_PAGE = /^\/products\/([^/]+)\/?$/;

/**
 * What a shared product link previews as (docs/rules/screens-buyer.md, Routes and headers): its name,
 * price, seller and description, and its picture. Undefined for a path that is not a known product.
 */
async function productPageMeta(
  request: FastifyRequest,
  urlPath: string,
  { db, config }: Pick<AppContext, 'db' | 'config'>,
): Promise<PageMeta | undefined> {
  const id = PRODUCT_PAGE.exec(urlPath)?.[1];
  if (!id || !idSchema.safeParse(id).success) return undefined;
  let product;
  try {
    product = await getProduct(db, null, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
  const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
  const about = product.description?.trim();
  const lead = `${formatMoney(product.price)} from ${product.sellerName}.`;
  return {
    title: `${product.name} · ${COMPANY.name}`,
    description: summarise(about ? `${lead} ${about}` : lead),
    imageUrl: product.imageUrl ? new URL(product.imageUrl, `${base}/`).href : null,
    url: `${base}/products/${id}`,
    type: 'product',
    preloadImage: product.imageUrl,
  };
}

/**
 * Serves the built browser app; a page's GET gets index.html (the client routes it; an address the
 * app has no page for gets it with 404, and the app shows its not-found page),
 * with the marketplace time zone, the payment provider, and a product's own title, description and
 * picture on its page.
 */
export async function serveWebApp(
  app: App,
  webRoot: string,
  ctx: Pick<AppContext, 'db' | 'config' | 'catalogCache' | 'payments'>,
  firstScreen?: FirstScreenRenderer,
): Promise<void> {
  const indexPath = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexPath))
    throw new Error(`The browser app is not built: ${indexPath} is missing (run npm run build)`);
  const template = fs.readFileSync(indexPath, 'utf8');
  // The footer names Stripe only when Stripe takes the payments (docs/rules/screens-buyer.md, Routes and
  // headers).
  const served = { timeZone: ctx.config.marketplaceTz, paymentProvider: ctx.payments.name };
  const plainIndex = renderIndexHtml(template, served);
  const renderer = firstScreen ?? (await loadBuiltRenderer(webRoot));
  const preloads = pagePreloads(webRoot);
  /** index.html filled in for this address: a product's page has its own title and preview. */
  const indexFor = async (request: FastifyRequest, urlPath: string) => {
    const meta = await productPageMeta(request, urlPath, ctx);
    return meta ? renderIndexHtml(template, { ...served, meta }) : plainIndex;
  };
  /** The page with its first screen; keepable when any visitor would be sent the same bytes. */
  const renderPage = async (request: FastifyRequest, urlPath: string, rendering: FirstScreenRenderer) => {
    const html = await indexFor(request, urlPath);
    const screen = await renderFirstScreenOf(app, rendering, request, urlPath, ctx);
    if (!screen) return { body: Buffer.from(html), keepable: false };
    const modules = [...preloads].find(([pagePath]) => pagePath.test(urlPath))?.[1];
    const page = withFirstScreen(html, screen.markup, { preload: html === plainIndex, modules });
    return { body: Buffer.from(page), keepable: screen.sameForEveryVisitor };
  };
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, urlPath: string) => {
    if (!renderer || !FIRST_SCREEN_PAGES.some((page) => page.path.test(urlPath))) {
      return sendIndex(reply, await indexFor(request, urlPath));
    }
    reply.type('text/html; charset=utf-8');
    // The page holds the caller's own data when signed in: never kept, here or by a shared cache.
    if (request.headers.cookie !== undefined) {
      const { body } = await renderPage(request, urlPath, renderer);
      return reply.header('cache-control', 'private, no-store').send(body);
    }
    // A visitor's page is made of public catalog answers only: kept with them, and dropped with them
    // when the catalog changes (docs/decisions/0014-first-load.md, The first screen in the HTML).
    const key = `page ${request.protocol}://${request.host}${request.url}`;
    const page = await ctx.catalogCache.answerIfKeepable(key, () => renderPage(request, urlPath, renderer));
    void reply.header('cache-control', 'no-cache').header('etag', page.etag);
    if (isNotModified(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    return reply.send(page.body);
  };
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    // index.html always goes out filled in (below), never as the bare file; the .br and .gz copies
    // made at build time are not files of their own but answers to an Accept-Encoding
    // (docs/decisions/0014-first-load.md).
    globIgnore: ['index.html', '**/*.br', '**/*.gz', '.vite/**'],
    preCompressed: true,
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      void res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (reply: FastifyReply, html = plainIndex) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(request, reply, '/'));
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    if (urlPath.startsWith('/api/')) {
      return reply.status(404).send({ message: 'Not found', code: 'not_found', requestId: request.id });
    }
    const filePath = path.join(webRoot, path.normalize(urlPath));
    if (filePath === indexPath) return sendIndex(reply);
    if (
      filePath.startsWith(webRoot + path.sep) &&
      // The build's manifest (.vite/) is the server's own reading, not a file of the site.
      !filePath.startsWith(path.join(webRoot, '.vite') + path.sep) &&
      !/\.(?:br|gz)$/.test(filePath) &&
      fs.existsSync(filePath) &&
      fs.statSync(filePath).isFile()
    ) {
      return reply.sendFile(path.relative(webRoot, filePath));
    }
    // A missing file (script, image) is a 404; any other path is a page of the browser app.
    if (/\.[a-z0-9]+$/i.test(urlPath)) {
      return reply.status(404).send({ message: 'Not found', code: 'not_found', requestId: request.id });
    }
    // An address the app has no page for: its not-found page, with the status that says so.
    if (!isWebPage(urlPath)) return sendIndex(reply.status(404));
    return sendPage(request, reply, urlPath);
  });
}

/**
 * The pages whose first screen is rendered on the server (docs/decisions/0014-first-load.md, The
 * first screen in the HTML): the landing or home, a product, checkout, and the driver, seller and
 * admin dashboards, whose work should be on screen from the first answer. Every other page is
 * rendered in the browser, as before.
 */
const FIRST_SCREEN_PAGES: { path: RegExp; module?: string }[] = [
  { path: /^\/$/ },
  { path: /^\/products\/[^/]+\/?$/, module: 'app/pages/product-page.tsx' },
  { path: /^\/checkout\/?$/, module: 'app/pages/checkout-page.tsx' },
  { path: /^\/driver\/dashboard\/?$/, module: 'app/pages/driver-dashboard-page.tsx' },
  { path: /^\/seller\/dashboard\/?$/, module: 'app/pages/seller-dashboard-page.tsx' },
  { path: /^\/admin\/?$/, module: 'app/pages/admin-page.tsx' },
];

/** A chunk of Vite's build manifest (dist/web/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/**
 * The `<link rel="prefetch">` tags of each first-screen page's lazy chunks, from the build's
 * manifest: the browser fetches them at low priority from the HTML, and the app's loader, finding a
 * link for each, adds none of its own while the page starts (adding about fifty modulepreload links
 * was a long task on a slow phone). Modulepreload links in the HTML competed with the styles and
 * the app's script and put off the first paint (docs/decisions/0014-first-load.md). The first-load
 * chunk is left out: index.html has it.
 */
function pagePreloads(webRoot: string): Map<RegExp, string> {
  const preloads = new Map<RegExp, string>();
  const file = path.join(webRoot, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return preloads;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  for (const page of FIRST_SCREEN_PAGES) {
    if (!page.module || !manifest[page.module]) continue;
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(page.module);
    const links = [...files].map((chunk) => `<link rel="prefetch" as="script" crossorigin href="/${chunk}">`);
    preloads.set(page.path, links.join('\n    '));
  }
  return preloads;
}

/** The request headers an API call made for the page carries: who the caller is and where from. */
const FORWARDED_HEADERS = [
  'cookie',
  'host',
  'user-agent',
  'accept-language',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
] as const;

/** The built renderer (dist/ssr/entry-server.js beside dist/web), or none. */
export async function loadBuiltRenderer(webRoot: string): Promise<FirstScreenRenderer | undefined> {
  const file = path.join(webRoot, '..', 'ssr', 'entry-server.js');
  if (!fs.existsSync(file)) return undefined;
  // The renderer's module is what src/web/entry-server.tsx exports: checked by its shape.
  const loaded: unknown = await import(pathToFileURL(file).href);
  if (typeof loaded === 'object' && loaded !== null && 'renderFirstScreen' in loaded) {
    return loaded as FirstScreenRenderer;
  }
  return undefined;
}

/**
 * The page's first screen as this caller sees it: the renderer's API calls go through this server's
 * own routes with the caller's headers and address (app.inject), so permissions, private data and
 * rate limits are exactly those of the caller's own calls. Undefined, and the page is rendered in
 * the browser, when the render fails.
 */
async function renderFirstScreenOf(
  app: App,
  renderer: FirstScreenRenderer,
  request: FastifyRequest,
  urlPath: string,
  { config, payments }: Pick<AppContext, 'config' | 'payments'>,
): Promise<{ markup: FirstScreenMarkup; sameForEveryVisitor: boolean } | undefined> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const query = request.url.indexOf('?');
  // A call refused for this caller's rate or failed on the server leaves its part loading: such a
  // page is sent but not kept for other visitors.
  let sameForEveryVisitor = true;
  try {
    const markup = await renderer.renderFirstScreen({
      path: urlPath,
      search: query === -1 ? '' : request.url.slice(query + 1),
      timeZone: config.marketplaceTz,
      paymentProvider: payments.name,
      get: async (url) => {
        const answer = await app.inject({
          method: 'GET',
          url,
          headers,
          remoteAddress: request.socket.remoteAddress ?? request.ip,
        });
        if (answer.statusCode === 429 || answer.statusCode >= 500) sameForEveryVisitor = false;
        const contentType = answer.headers['content-type'];
        const answerHeaders: Record<string, string> = {};
        if (typeof contentType === 'string') answerHeaders['content-type'] = contentType;
        return { status: answer.statusCode, headers: answerHeaders, body: answer.body };
      },
    });
    return { markup, sameForEveryVisitor };
  } catch (error) {
    request.log.warn({ err: error, url: urlPath }, 'the first screen was not rendered on the server');
    return undefined;
  }
}
