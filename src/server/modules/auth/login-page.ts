/**
 * The server-rendered sign-in page of local mode (DECISIONS §1). It needs no JavaScript to work;
 * a small script only applies the theme kept in local storage and runs the theme toggle.
 */
export interface LoginPageState {
  mode: 'signin' | 'signup';
  returnTo: string;
  intent: 'seller' | 'driver' | undefined;
  error?: string | undefined;
  fields?: Record<string, string> | undefined;
  values?: { email?: string | undefined; firstName?: string | undefined; lastName?: string | undefined };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function modeLink(mode: LoginPageState['mode'], state: LoginPageState): string {
  const params = new URLSearchParams();
  if (mode === 'signup') params.set('mode', 'signup');
  if (state.returnTo !== '/') params.set('returnTo', state.returnTo);
  if (state.intent) params.set('intent', state.intent);
  const query = params.toString();
  return `/api/login${query ? `?${query}` : ''}`;
}

function field(
  state: LoginPageState,
  name: string,
  label: string,
  type: string,
  autocomplete: string,
  value = '',
  hint = '',
): string {
  const error = state.fields?.[name];
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return `<div class="field">
    <label for="${name}">${label}</label>
    <input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required value="${escapeHtml(value)}"${
      describedBy ? ` aria-describedby="${describedBy}"` : ''
    }${error ? ' aria-invalid="true"' : ''} data-testid="input-${name}">
    ${hint ? `<p class="hint" id="${name}-hint">${hint}</p>` : ''}
    ${error ? `<p class="field-error" id="${name}-error">${escapeHtml(error)}</p>` : ''}
  </div>`;
}

export function renderLoginPage(state: LoginPageState): string {
  const signup = state.mode === 'signup';
  const title = signup ? 'Create your account' : 'Sign in';
  const intentText =
    state.intent === 'driver'
      ? '<p class="intent">Sign in or create an account to start delivering as a driver.</p>'
      : state.intent === 'seller'
        ? '<p class="intent">Sign in or create an account to start selling.</p>'
        : '';
  const hidden = `<input type="hidden" name="returnTo" value="${escapeHtml(state.returnTo)}">${
    state.intent ? `<input type="hidden" name="intent" value="${state.intent}">` : ''
  }`;
  const form = signup
    ? `<form method="post" action="/api/signup" novalidate>
        ${hidden}
        <div class="row">
          ${field(state, 'firstName', 'First name', 'text', 'given-name', state.values?.firstName)}
          ${field(state, 'lastName', 'Last name', 'text', 'family-name', state.values?.lastName)}
        </div>
        ${field(state, 'email', 'Email', 'email', 'email', state.values?.email)}
        ${field(state, 'password', 'Password', 'password', 'new-password', '', 'At least 8 characters.')}
        <button type="submit" data-testid="button-submit">Create account</button>
      </form>
      <p class="switch">Already have an account? <a href="${escapeHtml(modeLink('signin', state))}" data-testid="link-signin">Sign in</a></p>`
    : `<form method="post" action="/api/login" novalidate>
        ${hidden}
        ${field(state, 'email', 'Email', 'email', 'email', state.values?.email)}
        ${field(state, 'password', 'Password', 'password', 'current-password')}
        <button type="submit" data-testid="button-submit">Sign in</button>
      </form>
      <p class="switch">New here? <a href="${escapeHtml(modeLink('signup', state))}" data-testid="link-create-account">Create account</a></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Local Delivery Marketplace</title>
<link rel="stylesheet" href="/api/login/assets/login.css">
<script src="/api/login/assets/login.js"></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/">Local Delivery Marketplace</a>
  <button type="button" class="theme" id="theme-toggle" aria-label="Toggle theme" data-testid="button-theme-toggle">
    <span class="theme-light" aria-hidden="true">☾</span><span class="theme-dark" aria-hidden="true">☀</span>
  </button>
</header>
<main>
  <section class="card" aria-labelledby="title">
    <h1 id="title">${title}</h1>
    ${intentText}
    ${state.error ? `<p class="alert" role="alert" data-testid="login-error">${escapeHtml(state.error)}</p>` : ''}
    ${form}
  </section>
  <p class="back"><a href="/">Back to the marketplace</a> · <a href="/support">Support &amp; Contact</a></p>
</main>
</body>
</html>`;
}

export const LOGIN_CSS = `
:root{--bg:#f8fafc;--fg:#0f172a;--muted:#475569;--card:#fff;--border:#e2e8f0;--primary:#1d4ed8;--primary-fg:#fff;--danger:#b91c1c;--danger-bg:#fef2f2;--ring:#93c5fd}
html.dark{--bg:#020617;--fg:#f1f5f9;--muted:#cbd5e1;--card:#0f172a;--border:#334155;--primary:#60a5fa;--primary-fg:#020617;--danger:#fca5a5;--danger-bg:#450a0a;--ring:#1d4ed8}
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);line-height:1.5}
.top{display:flex;justify-content:space-between;align-items:center;padding:1rem 1.5rem;border-bottom:1px solid var(--border);background:var(--card)}
.brand{font-weight:700;font-size:1.125rem;color:var(--fg);text-decoration:none}
.theme{border:1px solid var(--border);background:transparent;color:var(--fg);border-radius:.5rem;width:2.5rem;height:2.5rem;font-size:1.1rem;cursor:pointer}
.theme-dark{display:none}html.dark .theme-dark{display:inline}html.dark .theme-light{display:none}
main{max-width:28rem;margin:3rem auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{margin:0 0 1rem;font-size:1.5rem}
.intent{color:var(--muted);margin:-.5rem 0 1rem}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;font-size:.875rem;margin-bottom:.25rem}
input{width:100%;padding:.6rem .75rem;border:1px solid var(--border);border-radius:.5rem;background:var(--bg);color:var(--fg);font-size:1rem}
input:focus,button:focus,a:focus{outline:3px solid var(--ring);outline-offset:1px}
input[aria-invalid=true]{border-color:var(--danger)}
.hint{color:var(--muted);font-size:.8rem;margin:.25rem 0 0}
.field-error{color:var(--danger);font-size:.85rem;margin:.25rem 0 0}
.alert{background:var(--danger-bg);color:var(--danger);border-radius:.5rem;padding:.75rem;margin:0 0 1rem}
button[type=submit]{width:100%;padding:.7rem;border:0;border-radius:.5rem;background:var(--primary);color:var(--primary-fg);font-weight:600;font-size:1rem;cursor:pointer}
.switch,.back{text-align:center;color:var(--muted);margin-top:1rem}
a{color:var(--primary)}
@media (max-width:480px){.row{grid-template-columns:1fr;gap:0}.card{padding:1.25rem}main{margin:1.5rem auto}}
`;

export const LOGIN_JS = `
(function(){
  var root=document.documentElement;
  try{ if(localStorage.getItem('theme')==='dark') root.classList.add('dark'); }catch(e){}
  document.addEventListener('DOMContentLoaded',function(){
    var b=document.getElementById('theme-toggle');
    if(!b) return;
    b.addEventListener('click',function(){
      var dark=!root.classList.contains('dark');
      root.classList.toggle('dark',dark);
      try{ localStorage.setItem('theme',dark?'dark':'light'); }catch(e){}
    });
  });
})();
`;
