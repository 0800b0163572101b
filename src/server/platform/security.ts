import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import helmet from 'helmet';
import { THEME_INIT_SCRIPT } from '../../domain/first-screen';
import { AppError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin this server answers as: PUBLIC_URL when set, else what the request says it reached. */
function expectedOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${request.protocol}://${request.host}`;
}

/**
 * State-changing requests from another origin are refused
 * (docs/rules/running.md, Bad input and failure). Browsers send Origin on every cross-origin
 * POST/PATCH/PUT/DELETE and Sec-Fetch-Site on all requests; a request carrying neither is not from
 * a browser page and cannot ride on a visitor's cookies.
 */
export function isCrossOriginWrite(request: FastifyRequest, publicUrl: string | undefined): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin === 'null') return true;
    return origin !== expectedOrigin(request, publicUrl);
  }
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/**
 * A GET that changes state (the sign-out link) is honoured only when a page of this site, or the
 * user typing the address, started it: browsers say so in Sec-Fetch-Site; older ones in Referer.
 */
export function isSameSiteNavigation(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const referer = request.headers.referer;
  if (referer === undefined) return true;
  try {
    return new URL(referer).origin === expectedOrigin(request, publicUrl);
  } catch {
    return false;
  }
}

export interface SecurityOptions {
  publicUrl: string | undefined;
  /** Extra origins the pages may talk to or load images from (an S3 endpoint, an OIDC issuer). */
  connectSources?: string[];
  imageSources?: string[];
  formActions?: string[];
  scriptSources?: string[];
  frameSources?: string[];
}

/** The CSP source that allows one inline script: its SHA-256. */
function inlineScriptSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The security headers (CSP, HSTS behind HTTPS, frame and referrer rules) for these options. */
export function createSecurityHeaders(options: SecurityOptions) {
  const secure = options.publicUrl?.startsWith('https://') ?? false;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // index.html's one inline script, the stored theme applied before the first paint.
        scriptSrc: ["'self'", inlineScriptSource(THEME_INIT_SCRIPT), ...(options.scriptSources ?? [])],
        frameSrc: options.frameSources?.length ? options.frameSources : ["'none'"],
        // Radix (dialogs, menus) injects small <style> blocks at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(options.imageSources ?? [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(options.connectSources ?? [])],
        // The service worker and the web manifest are this origin's files
        // (docs/decisions/0019-reaching-people.md, Push and the installable app).
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        formAction: ["'self'", ...(options.formActions ?? [])],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only when served over HTTPS.
    strictTransportSecurity: secure ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

export type SecurityHeaders = ReturnType<typeof createSecurityHeaders>;

/** The same headers as a plain list, for answers written before any hook runs (a malformed request). */
export function securityHeaderList(headers: SecurityHeaders): Record<string, string> {
  const collected: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      collected[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete collected[name.toLowerCase()];
    },
  };
  const request = { method: 'GET', url: '/', headers: {} };
  headers(request as IncomingMessage, response as unknown as ServerResponse, () => {});
  return collected;
}

/**
 * Every answer carries the security headers; a cross-origin write is refused before anything else.
 * helmet's headers depend on its options only, never on the request, so they are computed once
 * and copied onto each reply instead of running helmet's middlewares for every request
 * (docs/decisions/0015-catalog-and-checkout-throughput.md).
 */
export function registerSecurity(
  app: FastifyInstance,
  headers: SecurityHeaders,
  publicUrl: string | undefined,
): void {
  const list = securityHeaderList(headers);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(list);
    if (isCrossOriginWrite(request, publicUrl)) {
      done(new AppError('forbidden', 'Cross-origin request refused'));
      return;
    }
    done();
  });
}
