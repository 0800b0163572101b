// Runs before the app to avoid a flash of the wrong theme: key 'theme', light by default
// (docs/product-rules.md, Client behaviour).
// Kept as a file, not inline, because the Content-Security-Policy only allows scripts from 'self'.
(function () {
  try {
    if (window.localStorage.getItem('theme') === 'dark') {
      document.documentElement.classList.add('dark');
    }
  } catch {
    // Storage can be blocked (privacy mode): the light default stays.
  }
})();
