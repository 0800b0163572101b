/**
 * The id of the `<script type="application/json">` holding the API answers the server rendered the
 * first screen with (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export const FIRST_SCREEN_DATA_ID = 'first-screen-data';

/** Light by default, stored in local storage under 'theme' (docs/rules/screens-shared.md, Client behaviour). */
export const THEME_STORAGE_KEY = 'theme';

/**
 * The stored theme applied before the first paint (docs/rules/screens-shared.md, Client behaviour):
 * written into index.html's `<head>` by the build (vite.config.ts) and allowed by its hash in the
 * content security policy (src/server/platform/security.ts). Inline rather than a file of its own,
 * which was a request the first paint waited for
 * (docs/decisions/0014-first-load.md, A first paint without a script, fewer requests).
 */
export const THEME_INIT_SCRIPT = `try{localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})==='dark'&&document.documentElement.classList.add('dark')}catch{}`;
