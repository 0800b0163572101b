import { defineConfig, parseAst, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { reactSentinelsWithoutStack, zodWithoutEvalProbe } from './scripts/vite/first-load-errors';
import { insertWaitsBetweenModules } from './scripts/vite/yield-between-modules';
import { THEME_INIT_SCRIPT } from './src/domain/first-screen';

const outDir = path.resolve(import.meta.dirname, 'dist/web');
/** The server's renderer of the first screen (src/web/entry-server.tsx), built with `--ssr`. */
const ssrOutDir = path.resolve(import.meta.dirname, 'dist/ssr');

/** Files that shrink when compressed; pictures and fonts are compressed already. */
const TEXT_FILE = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest)$/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, at the highest
 * settings since it happens once; the server sends the copy the request accepts
 * (docs/decisions/0014-first-load.md). A copy that would not be smaller is not written.
 * index.html is left out: the server fills it in per request and compresses the result itself.
 */
function compressBuiltFiles(): Plugin {
  let builtDir = outDir;
  return {
    name: 'compress-built-files',
    apply: 'build',
    configResolved(config) {
      builtDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(builtDir, { recursive: true }))
        .map((file) => path.join(builtDir, file))
        .filter((file) => TEXT_FILE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const bytes = await fs.readFile(file);
          const copies: [string, Buffer][] = [
            [
              `${file}.br`,
              await brotli(bytes, {
                params: {
                  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
                },
              }),
            ],
            [`${file}.gz`, await gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION })],
          ];
          for (const [copy, compressed] of copies) {
            if (compressed.length < bytes.length) await fs.writeFile(copy, compressed);
          }
        }),
      );
    },
  };
}

/**
 * zod generates JSON Schema for the server's OpenAPI document; the browser never does, but zod
 * wires the generators into every schema class, so no bundler can leave them out. In the browser
 * build they are replaced by one that throws, which takes about 5 kB gzip off the first load
 * (docs/decisions/0014-first-load.md). The build fails if zod (pinned) changes the lines replaced.
 */
function leaveOutZodJsonSchema(): Plugin {
  const replacements: [string, string][] = [
    [
      'import * as processors from "../core/json-schema-processors.js";',
      'import { aggregateChecks } from "../core/json-schema-processors.js";\n' +
        'const processors = new Proxy({ aggregateChecks }, { get: (known, name) => known[name] ?? notInBrowser });',
    ],
    [
      'import { createStandardJSONSchemaMethod, createToJSONSchemaMethod } from "../core/to-json-schema.js";',
      'const notInBrowser = () => { throw new Error("JSON Schema generation is left out of the browser build (vite.config.ts)"); };\n' +
        'const createStandardJSONSchemaMethod = () => notInBrowser;\nconst createToJSONSchemaMethod = () => notInBrowser;',
    ],
  ];
  return {
    name: 'leave-out-zod-json-schema',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/ },
      handler(code) {
        let result = code;
        for (const [line, replacement] of replacements) {
          if (!result.includes(line)) this.error(`zod changed: "${line}" is no longer in classic/schemas.js`);
          result = result.replace(line, () => replacement);
        }
        return { code: result, map: null };
      },
    },
  };
}

/**
 * Evaluating the first load creates no error object: zod starts without its eval probe, and React
 * DOM's client creates its sentinel errors without a stack (scripts/vite/first-load-errors.ts;
 * docs/decisions/0014-first-load.md, Errors while the first load is evaluated). The build fails if
 * either library (pinned) changes the lines replaced.
 */
function firstLoadWithoutErrors(): Plugin {
  const changes: [RegExp, (code: string) => string][] = [
    [/[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/, zodWithoutEvalProbe],
    [
      /[\\/]node_modules[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/,
      reactSentinelsWithoutStack,
    ],
  ];
  return {
    name: 'first-load-without-errors',
    apply: 'build',
    transform: {
      filter: { id: changes.map(([file]) => file) },
      handler(code, id) {
        const change = changes.find(([file]) => file.test(id))?.[1];
        if (!change) return null;
        try {
          return { code: change(code), map: null };
        } catch (error) {
          this.error(error instanceof Error ? error.message : String(error));
        }
      },
    },
  };
}

/**
 * index.html's `<script data-theme-init>` filled in with THEME_INIT_SCRIPT (src/domain/first-screen.ts),
 * the stored theme applied before the first paint, which the server's content security policy allows
 * by its hash (src/server/platform/security.ts): the one text for both.
 */
function inlineThemeScript(): Plugin {
  return {
    name: 'inline-theme-script',
    transformIndexHtml(html) {
      const placeholder = '<script data-theme-init></script>';
      if (!html.includes(placeholder)) throw new Error(`index.html has no ${placeholder}`);
      return html.replace(placeholder, () => `<script>${THEME_INIT_SCRIPT}</script>`);
    },
  };
}

/**
 * Each chunk loaded on demand waits for the browser's turn between its modules once 8 ms of
 * evaluation have passed (scripts/vite/yield-between-modules.ts; src/web/lib/yield-during-load.ts,
 * installed by main.tsx; docs/decisions/0014-first-load.md, Module evaluation in slices): a page's
 * modules are then evaluated in short tasks instead of one long one. The first load is left as it
 * is: an await in it would put the bundler's helpers in a file of their own, a request more.
 */
function yieldBetweenLazyModules(): Plugin {
  return {
    name: 'yield-between-lazy-modules',
    apply: 'build',
    renderChunk(code, chunk) {
      if (chunk.isEntry || !chunk.fileName.startsWith('assets/')) return null;
      const sliced = insertWaitsBetweenModules(code, parseAst(code).body);
      return sliced === null ? null : { code: sliced, map: null };
    },
  };
}

/**
 * The service worker (src/web/sw.ts) built on its own, with the list of the built files put in
 * place of `self.__WB_MANIFEST`: the app shell it keeps (docs/decisions/0019-reaching-people.md,
 * Push and the installable app). index.html is left out (the server fills it in per request), and
 * so are the compressed copies. The page registers it itself, after load
 * (src/web/lib/register-service-worker.ts); the manifest is a file of src/web/public.
 */
function serviceWorker(): Plugin[] {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: '.',
    filename: 'sw.ts',
    injectRegister: false,
    manifest: false,
    injectManifest: {
      // The first load only (the chunk group "first-load" and its styles: built as index-*); each
      // page's chunk is kept when first used.
      globPatterns: [
        'assets/index-*.{js,css}',
        'icons/*.png',
        'favicon.svg',
        'offline.html',
        'manifest.webmanifest',
      ],
      globIgnores: ['**/*.br', '**/*.gz', 'index.html'],
      // The first-load chunk alone is about 500 kB before compression.
      maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
    },
  });
}

/** Where `npm run dev` runs the server (scripts/dev.mjs); Vite's dev server sends it /api and /objects. */
const apiOrigin = `http://localhost:${process.env.PORT || '5000'}`;

// The browser app. `npm run dev` serves it with the API proxied to the server it runs beside.
// `vite build --ssr entry-server.tsx` builds the server's renderer of the first screen into
// dist/ssr (scripts/build-server.mjs; docs/decisions/0014-first-load.md): Node runs it, so it is
// neither compressed nor grouped.
export default defineConfig(({ isSsrBuild }) => ({
  root: path.resolve(import.meta.dirname, 'src/web'),
  plugins: [
    react(),
    tailwindcss(),
    inlineThemeScript(),
    ...(isSsrBuild
      ? []
      : [
          leaveOutZodJsonSchema(),
          firstLoadWithoutErrors(),
          yieldBetweenLazyModules(),
          ...serviceWorker(),
          compressBuiltFiles(),
        ]),
  ],
  resolve: { alias: { '@domain': path.resolve(import.meta.dirname, 'src/domain') } },
  // The renderer's packages bundled into it, shaken to what the pages use: loaded from node_modules
  // (all of lucide-react's icons, say) they held about 30 MB more in the server
  // (docs/decisions/0016-embedded-database-process.md, Memory).
  ssr: { noExternal: true },
  // React's production build in the renderer whatever NODE_ENV the server runs with (the demo sets
  // none): its development build rendered a signed-in home several times slower.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: isSsrBuild
    ? { outDir: ssrOutDir, emptyOutDir: true, sourcemap: false, copyPublicDir: false }
    : {
        outDir,
        emptyOutDir: true,
        sourcemap: false,
        // dist/web/.vite/manifest.json: the chunks of each lazy page, which the server asks for in
        // the HTML of a page it renders (docs/decisions/0014-first-load.md). Never served.
        manifest: true,
        rolldownOptions: {
          output: {
            // Everything the entry needs at once goes in one file: split into the many small chunks
            // it shares with lazy pages, it compressed about 8 kB worse and cost a request each
            // (docs/decisions/0014-first-load.md). Lazy pages keep their own chunks, but for the
            // icons they use: one file of them all (7 kB compressed) instead of a file of 0.2-0.5 kB
            // for each, about ten a dashboard
            // (docs/decisions/0014-first-load.md, A first paint without a script, fewer requests).
            codeSplitting: {
              groups: [
                { name: 'first-load', tags: ['$initial'], priority: 2 },
                { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1 },
              ],
            },
          },
        },
      },
  // `npm run dev` (scripts/dev.mjs): the server runs on PORT (5000 by default) beside this one. The
  // Host header is passed on as the browser sent it: the server refuses a write whose Origin is not
  // the host it was asked for (src/server/platform/security.ts), and a string target would change it.
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiOrigin, changeOrigin: false },
      '/objects': { target: apiOrigin, changeOrigin: false },
    },
  },
}));
