/**
 * The service worker (docs/decisions/0019-reaching-people.md, Push and the installable app). Built on its own
 * by vite-plugin-pwa (injectManifest, vite.config.ts), which puts the list of the built files in place of the
 * injection point (`__WB_MANIFEST`). It keeps the app shell (the first load's script and styles, icons) and
 * the offline page, and each page's chunk once loaded; pages come from the network and, when it is down, the
 * offline page answers. The API is never cached. On a push it shows the notification; a click opens or
 * focuses its page.
 */

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data?: unknown };
}
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  __WB_MANIFEST: { url: string; revision: string | null }[];
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

/** The worker's global scope (the DOM typings the rest of the app uses know only windows). */
const worker = self as unknown as ServiceWorkerScope;

const OFFLINE_PAGE = '/offline.html';
// vite-plugin-pwa puts the list of built files here.
const precached = (self as unknown as ServiceWorkerScope).__WB_MANIFEST;
/** A new build gets a new cache: the old one is dropped once this worker takes over. */
const CACHE = `shell-${precached
  .map((entry) => entry.revision ?? entry.url)
  .join('')
  .split('')
  .reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) >>> 0, 7)
  .toString(36)}`;
const shellUrls = new Set(precached.map((entry) => new URL(entry.url, worker.location.href).href));

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...shellUrls]))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

async function offlinePage(): Promise<Response> {
  const cached = await caches.match(OFFLINE_PAGE);
  return (
    cached ?? new Response('You are offline.', { status: 503, headers: { 'content-type': 'text/plain' } })
  );
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // Pages hold the caller's own data: always from the network, never kept.
    event.respondWith(fetch(request).catch(() => offlinePage()));
    return;
  }
  if (shellUrls.has(url.href)) {
    event.respondWith(caches.match(request).then((cached) => cached ?? fetch(request)));
    return;
  }
  // A page's own chunk (hashed, never changes) is kept the first time it is loaded.
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ??
          fetch(request).then(async (response) => {
            if (response.ok) await (await caches.open(CACHE)).put(request, response.clone());
            return response;
          }),
      ),
    );
  }
});

interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

function readMessage(event: PushEvent): PushMessage {
  try {
    const data = event.data?.json() as Partial<PushMessage> | undefined;
    if (data && typeof data.title === 'string') {
      return { title: data.title, body: data.body ?? '', url: data.url ?? '/', tag: data.tag ?? '' };
    }
  } catch {
    // Not JSON: shown as text below.
  }
  return { title: 'Local Delivery Marketplace', body: event.data?.text() ?? '', url: '/', tag: '' };
}

worker.addEventListener('push', (event) => {
  const message = readMessage(event);
  event.waitUntil(
    worker.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | undefined;
  // Only a page of this app is opened.
  const target = new URL(typeof data?.url === 'string' ? data.url : '/', worker.location.origin);
  const url = target.origin === worker.location.origin ? target.href : worker.location.origin;
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => client.url === url) ?? windows[0];
      if (open) {
        const focused = await open.focus();
        if (focused.url !== url) await focused.navigate(url);
        return;
      }
      await worker.clients.openWindow(url);
    }),
  );
});
