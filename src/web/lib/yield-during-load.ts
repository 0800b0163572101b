/**
 * Lets the browser in between the modules of a page's code while they are evaluated
 * (docs/decisions/0014-first-load.md, Module evaluation in slices). A page's modules, evaluated
 * all at once on its first import, were one long task of 50-150 ms on a phone: their zod schemas
 * are built as they load. The browser build puts `await globalThis.__yieldDuringLoad?.();` before
 * each module of every chunk loaded on demand (vite.config.ts), and main.tsx installs the function
 * before any of them loads.
 */
let sliceStart = 0;

/**
 * Nothing while less than 8 ms have passed since the browser last had a turn (`await undefined`
 * does not give way), else a promise kept once it has had one: through a message rather than a
 * timer, which browsers delay by 4 ms once timers nest.
 */
export function yieldDuringLoad(): Promise<void> | undefined {
  if (performance.now() - sliceStart < 8) return undefined;
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      sliceStart = performance.now();
      resolve();
    };
    port2.postMessage(null);
  });
}

/** Makes `yieldDuringLoad` the one the built chunks call. */
export function installYieldDuringLoad(): void {
  (globalThis as { __yieldDuringLoad?: typeof yieldDuringLoad }).__yieldDuringLoad = yieldDuringLoad;
}
