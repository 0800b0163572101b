// The stored theme before first paint (docs/rules/screens-shared.md, Client behaviour); index.html says why a file.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.classList.add('dark');
} catch {
  // Storage blocked: light.
}
