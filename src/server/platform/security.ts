import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import { AppError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin this server answers as: PUBLIC_URL when set, else what the request says it reached. */
function expectedOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${request.protocol}://${request.host}`;
}

/**
 * DECISIONS §12: state-changing requests from another origin are refused. Browsers send Origin on
 * every cross-origin POST/PATCH/PUT/DELETE and Sec-Fetch-Site on all requests; a request carrying
 * neither is not from a browser page and cannot ride on a visitor's cookies.
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

export interface SecurityOptions {
  publicUrl: string | undefined;
  /** Extra origins the pages may talk to or load images from (an S3 endpoint, an OIDC issuer). */
  connectSources?: string[];
  imageSources?: string[];
  formActions?: string[];
  scriptSources?: string[];
  frameSources?: string[];
}

export async function registerSecurity(app: FastifyInstance, options: SecurityOptions): Promise<void> {
  const secure = options.publicUrl?.startsWith('https://') ?? false;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(options.scriptSources ?? [])],
        frameSrc: options.frameSources?.length ? options.frameSources : ["'none'"],
        // Radix (dialogs, menus) injects small <style> blocks at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(options.imageSources ?? [])],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(options.connectSources ?? [])],
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

  app.addHook('onRequest', async (request) => {
    if (isCrossOriginWrite(request, options.publicUrl)) {
      throw new AppError('forbidden', 'Cross-origin request refused');
    }
  });
}
