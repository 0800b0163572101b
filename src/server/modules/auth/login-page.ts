import { COMPANY } from '../../../domain/support';
import { LINK_EXPIRED } from '../../../domain/accounts';

/**
 * The server-rendered sign-in page of local mode
 * (docs/rules/running.md, Running modes and adapters). It needs no JavaScript to work; a small
 * script only applies the theme kept in local storage and runs the theme toggle.
 */
export interface LoginPageState {
  mode: 'signin' | 'signup';
  returnTo: string;
  intent: 'seller' | 'driver' | undefined;
  error?: string | undefined;
  fields?: Record<string, string> | undefined;
  values?: { email?: string | undefined; firstName?: string | undefined; lastName?: string | undefined };
  /** The address of an account not confirmed yet: the page offers "Resend the link". */
  resendEmail?: string | undefined;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

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
      <p class="switch"><a href="/api/forgot-password" data-testid="link-forgot-password">Forgot password?</a></p>
      <p class="switch">New here? <a href="${escapeHtml(modeLink('signup', state))}" data-testid="link-create-account">Create account</a></p>`;
  return pageShell(
    title,
    `    <h1 id="title">${title}</h1>
    ${intentText}
    ${state.error ? `<p class="alert" role="alert" data-testid="login-error">${escapeHtml(state.error)}</p>` : ''}
    ${state.resendEmail ? resendForm(state.resendEmail) : ''}
    ${form}`,
  );
}

/**
 * The code step of a sign-in with two factors (docs/decisions/0024-two-factor-sign-in.md): a code
 * of the authenticator app or a recovery code.
 */
export function renderTwoFactorPage(state: { error?: string | undefined }): string {
  return pageShell(
    'Two-factor sign-in',
    `    <h1 id="title">Two-factor sign-in</h1>
    <p class="intent">Enter the 6-digit code from your authenticator app.</p>
    ${state.error ? `<p class="alert" role="alert" data-testid="login-error">${escapeHtml(state.error)}</p>` : ''}
    <form method="post" action="/api/login/two-factor" novalidate>
      <div class="field">
        <label for="code">Code</label>
        <input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="40" required autofocus aria-describedby="code-hint"${
          state.error ? ' aria-invalid="true"' : ''
        } data-testid="input-code">
        <p class="hint" id="code-hint">Lost your phone? Enter one of your recovery codes instead.</p>
      </div>
      <button type="submit" data-testid="button-submit">Verify</button>
    </form>
    <p class="switch"><a href="/api/login" data-testid="link-signin">Start again</a></p>`,
  );
}

function resendForm(email: string): string {
  return `<form method="post" action="/api/resend-verification" class="resend">
      <input type="hidden" name="email" value="${escapeHtml(email)}">
      <button type="submit" data-testid="button-resend-verification">Resend the link</button>
    </form>`;
}

/** The page around every form of local sign-in: header, card, links back. */
function pageShell(title: string, card: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${COMPANY.name}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/login/assets/login.css">
<script src="/api/login/assets/login.js"></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/"><span class="mark" aria-hidden="true"><svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M14 18V6a2 2 0 0 0-2-2H4a2 2 0 0 0-2 2v11a1 1 0 0 0 1 1h2"/><path d="M15 18H9"/><path d="M19 18h2a1 1 0 0 0 1-1v-3.65a1 1 0 0 0-.22-.624l-3.48-4.35A1 1 0 0 0 17.52 8H14"/><circle cx="17" cy="18" r="2"/><circle cx="7" cy="18" r="2"/></svg></span>${COMPANY.name}</a>
  <button type="button" class="theme" id="theme-toggle" aria-label="Toggle theme" data-testid="button-theme-toggle">
    <span class="theme-light" aria-hidden="true">☾</span><span class="theme-dark" aria-hidden="true">☀</span>
  </button>
</header>
<main>
  <section class="card" aria-labelledby="title">
${card}  </section>
  <p class="back"><a href="/">Back to the marketplace</a> · <a href="/support">Support &amp; Contact</a></p>
</main>
</body>
</html>`;
}

/** The pages of a forgotten password and of a mailed link (docs/decisions/0019-reaching-people.md, Accounts). */
export type AccountPageState =
  | {
      page: 'forgot';
      error?: string | undefined;
      fields?: Record<string, string> | undefined;
      email?: string;
    }
  | { page: 'reset'; token: string; error?: string | undefined; fields?: Record<string, string> | undefined }
  | { page: 'sent'; title: string; message: string }
  | { page: 'changed' }
  | { page: 'expired'; purpose: 'reset' | 'verify' };

const formState = (error?: string, fields?: Record<string, string>): LoginPageState => ({
  mode: 'signin',
  returnTo: '/',
  intent: undefined,
  error,
  fields,
});

const alert = (error: string | undefined) =>
  error ? `<p class="alert" role="alert" data-testid="login-error">${escapeHtml(error)}</p>` : '';
const signInLink = '<p class="switch"><a href="/api/login" data-testid="link-signin">Sign in</a></p>';

export function renderAccountPage(state: AccountPageState): string {
  switch (state.page) {
    case 'forgot':
      return pageShell(
        'Reset your password',
        `    <h1 id="title">Reset your password</h1>
    <p class="intent">Enter the email of your account: we will send you a link to set a new password.</p>
    ${alert(state.error)}
    <form method="post" action="/api/forgot-password" novalidate>
      ${field(formState(state.error, state.fields), 'email', 'Email', 'email', 'email', state.email ?? '')}
      <button type="submit" data-testid="button-submit">Send the link</button>
    </form>
    ${signInLink}`,
      );
    case 'reset':
      return pageShell(
        'Set a new password',
        `    <h1 id="title">Set a new password</h1>
    ${alert(state.error)}
    <form method="post" action="/api/reset-password" novalidate>
      <input type="hidden" name="token" value="${escapeHtml(state.token)}">
      ${field(formState(state.error, state.fields), 'password', 'New password', 'password', 'new-password', '', 'At least 8 characters.')}
      <button type="submit" data-testid="button-submit">Set new password</button>
    </form>`,
      );
    case 'sent':
      return pageShell(
        state.title,
        `    <h1 id="title">${escapeHtml(state.title)}</h1>
    <p role="status" data-testid="account-message">${escapeHtml(state.message)}</p>
    ${signInLink}`,
      );
    case 'changed':
      return pageShell(
        'Password changed',
        `    <h1 id="title">Password changed</h1>
    <p role="status" data-testid="account-message">Your password was changed. Every device signed in to your account was signed out.</p>
    <p class="switch"><a href="/api/login" data-testid="link-signin">Sign in with your new password</a></p>`,
      );
    case 'expired':
      return pageShell(
        'Link expired',
        `    <h1 id="title">Link expired</h1>
    <p class="alert" role="alert" data-testid="login-error">${LINK_EXPIRED}</p>
    ${
      state.purpose === 'reset'
        ? '<p class="switch"><a href="/api/forgot-password" data-testid="link-forgot-password">Ask for a new link</a></p>'
        : `<p>Enter your email to get a new link.</p>
    <form method="post" action="/api/resend-verification" novalidate>
      ${field(formState(), 'email', 'Email', 'email', 'email')}
      <button type="submit" data-testid="button-resend-verification">Resend the link</button>
    </form>`
    }
    ${signInLink}`,
      );
  }
}

export const LOGIN_CSS = `
:root{color-scheme:light;--bg:oklch(0.984 0.003 247.858);--fg:oklch(0.208 0.042 265.755);--muted:oklch(0.446 0.043 257.281);--card:#fff;--border:oklch(0.929 0.013 255.508);--input:oklch(0.704 0.04 256.788);--primary:oklch(0.508 0.118 165.612);--primary-hover:oklch(0.432 0.095 166.913);--primary-fg:#fff;--danger:oklch(0.505 0.213 27.518);--danger-bg:oklch(0.971 0.013 17.38);--ring:oklch(0.596 0.145 163.225)}
html.dark{color-scheme:dark;--bg:oklch(0.129 0.042 264.695);--fg:oklch(0.984 0.003 247.858);--muted:oklch(0.769 0.028 257.417);--card:oklch(0.208 0.042 265.755);--border:oklch(0.372 0.044 257.287);--input:oklch(0.554 0.046 257.417);--primary:oklch(0.765 0.177 163.223);--primary-hover:oklch(0.845 0.143 164.978);--primary-fg:oklch(0.262 0.051 172.552);--danger:oklch(0.704 0.191 22.216);--danger-bg:oklch(0.258 0.092 26.042);--ring:oklch(0.765 0.177 163.223)}
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);line-height:1.5}
.top{display:flex;justify-content:space-between;align-items:center;padding:1rem 1.5rem;border-bottom:1px solid var(--border);background:var(--card)}
.brand{display:inline-flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.125rem;color:var(--fg);text-decoration:none}
.mark{display:inline-flex;align-items:center;justify-content:center;width:2.25rem;height:2.25rem;border-radius:.5rem;background:var(--primary);color:var(--primary-fg)}
.theme{border:1px solid var(--border);background:transparent;color:var(--fg);border-radius:.5rem;width:2.5rem;height:2.5rem;font-size:1.1rem;cursor:pointer}
.theme-dark{display:none}html.dark .theme-dark{display:inline}html.dark .theme-light{display:none}
main{max-width:28rem;margin:3rem auto;padding:0 1rem}
.card{background:var(--card);border:1px solid var(--border);border-radius:.75rem;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{margin:0 0 1rem;font-size:1.5rem}
.intent{color:var(--muted);margin:-.5rem 0 1rem}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;font-size:.875rem;margin-bottom:.25rem}
input{width:100%;padding:.6rem .75rem;border:1px solid var(--input);border-radius:.5rem;background:var(--bg);color:var(--fg);font-size:1rem}
input:focus,button:focus,a:focus{outline:3px solid var(--ring);outline-offset:1px}
input[aria-invalid=true]{border-color:var(--danger)}
.hint{color:var(--muted);font-size:.8rem;margin:.25rem 0 0}
.field-error{color:var(--danger);font-size:.85rem;margin:.25rem 0 0}
.alert{background:var(--danger-bg);color:var(--danger);border-radius:.5rem;padding:.75rem;margin:0 0 1rem}
button[type=submit]{width:100%;padding:.7rem;border:0;border-radius:.5rem;background:var(--primary);color:var(--primary-fg);font-weight:600;font-size:1rem;cursor:pointer;font-family:inherit}
button[type=submit]:hover{background:var(--primary-hover)}
.switch,.back{text-align:center;color:var(--muted);margin-top:1rem}
a{color:var(--primary)}
.resend{margin:0 0 1rem}
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
