/**
 * The id of the `<script type="application/json">` holding the API answers the server rendered the
 * first screen with (docs/decisions/0014-first-load.md, The first screen in the HTML).
 */
export const FIRST_SCREEN_DATA_ID = 'first-screen-data';
