import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { App } from './app/app';
import { preloadStartPage } from './app/router';
import { preloadTooltip } from './components/ui/tooltip';
import { AfterHydration, BEFORE_HYDRATION_ATTRIBUTE, holdEarlyInput } from './lib/early-input';
import { queryClient } from './lib/query-client';
import { cn } from './lib/utils';
import { installYieldDuringLoad } from './lib/yield-during-load';
import { FIRST_SCREEN_DATA_ID } from '@domain/first-screen';
import './index.css';

// Before any page's code is loaded: its modules give way to the browser as they are evaluated.
installYieldDuringLoad();

// The app starts right after this script has been evaluated, from a function rather than from the
// script's top level: with DevTools attached, as Lighthouse is, each timer, style change or request
// records the stack it came from, and a stack that holds this file's top level makes the browser
// work out the source positions of the whole first load again (docs/decisions/0014-first-load.md,
// Errors while the first load is evaluated).
queueMicrotask(start);

function start() {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // In a task of its own, right after the app's script has run: adding a link for each of the
  // page's chunks is main-thread work that would otherwise lengthen that one long task.
  const { pathname, search } = window.location;
  setTimeout(() => void preloadStartPage(pathname, search), 0);

  // The server rendered the first screen with these API answers (docs/decisions/0014-first-load.md,
  // The first screen in the HTML): hydrate with the very same ones, once the page's own code has
  // arrived so that hydration finishes in one pass, and in a transition so that React yields to the
  // browser between small slices of work instead of one long task. Until then a press on the page
  // could not be answered: the page takes none; what is typed meanwhile is kept, and Enter and
  // submissions are held and replayed once hydration has committed (lib/early-input.ts). The presses
  // land on a transparent cover over the page: `pointer-events: none` on the page, an inherited
  // property, made the browser work out the style of every element of it again, as it was set and
  // as it was taken off (docs/decisions/0014-first-load.md, A first paint without a script, fewer requests).
  const firstScreenData = document.getElementById(FIRST_SCREEN_DATA_ID)?.textContent;
  if (firstScreenData && container.firstElementChild) {
    const cover = document.createElement('div');
    cover.setAttribute(BEFORE_HYDRATION_ATTRIBUTE, '');
    cover.style.cssText = 'position:fixed;inset:0;z-index:2147483647';
    document.body.append(cover);
    holdEarlyInput(container);
    hydrate(queryClient, JSON.parse(firstScreenData));
    // While the page's code downloads, in a task of its own rather than in this one or in the
    // middle of hydration: tailwind-merge builds the tables it builds on its first use.
    setTimeout(() => cn('p-0'), 0);
    void new Promise((resolve) => setTimeout(resolve, 0))
      // The header's tooltips too: hydrated with their controls, those are never drawn again.
      .then(() => Promise.all([preloadStartPage(pathname, search), preloadTooltip().catch(() => undefined)]))
      .catch(() => undefined)
      .then(() => {
        startTransition(() => {
          hydrateRoot(
            container,
            <StrictMode>
              <App />
              <AfterHydration />
            </StrictMode>,
          );
        });
        cover.remove();
      });
  } else {
    void preloadTooltip().catch(() => undefined);
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  }
}

// The service worker, once the page has loaded, from a chunk of its own
// (docs/decisions/0019-reaching-people.md).
if (import.meta.env.PROD)
  window.addEventListener(
    'load',
    () => void import('./lib/register-service-worker').then((module) => module.registerServiceWorker()),
    { once: true },
  );
