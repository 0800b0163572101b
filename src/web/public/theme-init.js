// The stored theme before first paint (docs/product-rules.md, Client behaviour); index.html says why a file.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch {
  // Storage blocked: light.
}
