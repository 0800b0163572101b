// @vitest-environment jsdom
import {
  act,
  lazy,
  type ComponentType,
  type ReactNode,
  Suspense as ReactSuspense,
  useState,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Suspense } from '../components/suspense';
import { AfterHydration, holdEarlyInput } from './early-input';

// React's act() in a plain test file (testing-library sets this for its own renders).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
});

/**
 * A search box whose filter shows, and a message box where Enter sends, as on the real pages. The
 * message box is inside a Suspense boundary, which React hydrates after the rest (as a lazy page);
 * like the app, the page ends in `AfterHydration` there and in the root.
 */
function Page({
  onSend,
  onSave,
  released = true,
}: {
  onSend: (text: string) => void;
  onSave: (name: string) => void;
  /** Whether it releases the early input as the app's pages do; false shows what React alone does. */
  released?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [message, setMessage] = useState('');
  const [name, setName] = useState('');
  const onKeyDown = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Enter' || event.shiftKey) return;
    event.preventDefault();
    if (message.trim() === '') return;
    onSend(message);
    setMessage('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSave(name);
  };
  return (
    <>
      <input aria-label="Search" value={search} onChange={(event) => setSearch(event.target.value)} />
      <p data-testid="filter">{search}</p>
      <ReactSuspense fallback={null}>
        <textarea
          aria-label="Message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {released ? <AfterHydration /> : null}
      </ReactSuspense>
      <form onSubmit={onSubmit}>
        <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />
        <button type="submit">Save</button>
      </form>
      {released ? <AfterHydration /> : null}
    </>
  );
}

function serverRender(page: React.ReactElement): void {
  container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
}

function get<T extends Element>(selector: string): T {
  const element = container.querySelector<T>(selector);
  if (!element) throw new Error(`no ${selector}`);
  return element;
}

/** Typing as the browser does it: the value changes, then an input event. */
function type(box: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  box.focus();
  box.value += text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
}

function pressEnter(box: HTMLElement, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true, ...init });
  box.dispatchEvent(event);
  return event;
}

async function hydrate(page: React.ReactElement): Promise<void> {
  await act(async () => {
    root = hydrateRoot(container, page);
  });
  // The held presses are replayed in the task after hydration.
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
}

describe('typing before hydration (docs/decisions/0014-first-load.md, The first screen in the HTML)', () => {
  it('is lost to React without it: the filter stays empty and the message is not sent', async () => {
    const onSend = vi.fn();
    const page = <Page onSend={onSend} onSave={vi.fn()} released={false} />;
    serverRender(page);
    type(get('input[aria-label="Search"]'), 'lamp');
    type(get('textarea'), 'Is it assembled?');
    await hydrate(page);
    pressEnter(get('textarea'));
    expect(get('[data-testid="filter"]').textContent).toBe('');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('hands what was typed to React, so the search filters and Enter after hydration sends it', async () => {
    const onSend = vi.fn();
    const page = <Page onSend={onSend} onSave={vi.fn()} />;
    serverRender(page);
    holdEarlyInput(container);
    type(get('input[aria-label="Search"]'), 'lamp');
    type(get('textarea'), 'Is it assembled?');
    await hydrate(page);
    expect(get('[data-testid="filter"]').textContent).toBe('lamp');
    expect(get<HTMLInputElement>('input[aria-label="Search"]').value).toBe('lamp');

    act(() => void pressEnter(get('textarea')));
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Is it assembled?');
    expect(get<HTMLTextAreaElement>('textarea').value).toBe('');
  });

  it('holds Enter pressed before hydration and replays it once, after the text it follows', async () => {
    const onSend = vi.fn();
    const page = <Page onSend={onSend} onSave={vi.fn()} />;
    serverRender(page);
    holdEarlyInput(container);
    const box = get<HTMLTextAreaElement>('textarea');
    type(box, 'Is it assembled?');
    // Shift+Enter is the browser's own new line: not held.
    expect(pressEnter(box, { shiftKey: true }).defaultPrevented).toBe(false);
    expect(pressEnter(box).defaultPrevented).toBe(true);
    await hydrate(page);
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Is it assembled?');
    expect(box.value).toBe('');
    // Released: Enter is the page's own again, and an empty box sends nothing.
    act(() => void pressEnter(box));
    expect(onSend).toHaveBeenCalledOnce();
  });

  it("keeps a form from the browser's own submission and submits it through the page once hydrated", async () => {
    const onSave = vi.fn();
    const page = <Page onSend={vi.fn()} onSave={onSave} />;
    serverRender(page);
    holdEarlyInput(container);
    const name = get<HTMLInputElement>('input[aria-label="Name"]');
    type(name, 'Ada');
    expect(pressEnter(name).defaultPrevented).toBe(true);
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    get('form').dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    await hydrate(page);
    // The Enter (through the form's Save button) and the submission: each once, with the name.
    expect(onSave.mock.calls).toEqual([['Ada'], ['Ada']]);
  });

  it('holds a click on a button before hydration and replays it once to the page', async () => {
    const onSignOut = vi.fn();
    const page = (
      <>
        <button type="button" onClick={onSignOut}>
          Log out
        </button>
        <AfterHydration />
      </>
    );
    serverRender(page);
    holdEarlyInput(container);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    get('button').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await hydrate(page);
    expect(onSignOut).toHaveBeenCalledOnce();
    // Released: a click is the page's own again.
    act(() => get<HTMLButtonElement>('button').click());
    expect(onSignOut).toHaveBeenCalledTimes(2);
  });

  it('replays a held click on the button that replaced the clicked one, as a tooltip does once loaded', async () => {
    const onSignOut = vi.fn();
    function Header({ wrapped }: { wrapped: boolean }) {
      const button = (
        <button type="button" aria-label="Log out" onClick={onSignOut}>
          Out
        </button>
      );
      return (
        <>
          {wrapped ? <span>{button}</span> : button}
          <AfterHydration />
        </>
      );
    }
    serverRender(<Header wrapped={false} />);
    holdEarlyInput(container);
    get('button').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    const clicked = get('button');
    await act(async () => {
      root = hydrateRoot(container, <Header wrapped={false} />);
    });
    // Before the held click is replayed, the button moves into a wrapper: a new element.
    act(() => root?.render(<Header wrapped />));
    expect(get('button')).not.toBe(clicked);
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(onSignOut).toHaveBeenCalledOnce();
  });

  it('without it, a click on a button before hydration is lost', async () => {
    const onSignOut = vi.fn();
    const page = (
      <button type="button" onClick={onSignOut}>
        Log out
      </button>
    );
    serverRender(page);
    get('button').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    await hydrate(page);
    expect(onSignOut).not.toHaveBeenCalled();
  });

  it('leaves values the server sent alone', async () => {
    const onSend = vi.fn();
    const page = <Page onSend={onSend} onSave={vi.fn()} />;
    serverRender(page);
    holdEarlyInput(container);
    const changes = vi.fn();
    container.addEventListener('input', changes);
    await hydrate(page);
    expect(changes).not.toHaveBeenCalled();
  });
});

/** A list's search, as in an admin tab: what is typed filters the list. */
function SearchTab() {
  const [search, setSearch] = useState('');
  return (
    <>
      <input aria-label="Search users" value={search} onChange={(event) => setSearch(event.target.value)} />
      <p data-testid="users-filter">{search}</p>
    </>
  );
}

/** A page whose tab is in a boundary of its own, as the admin page's. */
function Tabbed({
  Tab,
  Boundary,
}: {
  Tab: ComponentType;
  Boundary: ComponentType<{ fallback: ReactNode; children: ReactNode }>;
}) {
  return (
    <>
      <h1>Admin Dashboard</h1>
      <Boundary fallback={null}>
        <Tab />
      </Boundary>
      <AfterHydration />
    </>
  );
}

describe('typing into a boundary hydrated after the rest of the page (src/web/components/suspense.tsx)', () => {
  /**
   * The server rendered the tab; in the browser its code comes later, so React hydrates the page
   * and leaves the tab's boundary until it has. Typed in between, the search reaches a box React
   * does not see yet. Returns the filter the tab shows once it has hydrated.
   */
  async function typeWhileTheTabLoads(
    Boundary: ComponentType<{ fallback: ReactNode; children: ReactNode }>,
  ): Promise<string | null> {
    serverRender(<Tabbed Tab={SearchTab} Boundary={Boundary} />);
    holdEarlyInput(container);
    let loadTab = () => {};
    const LazyTab = lazy(
      () =>
        new Promise<{ default: typeof SearchTab }>((resolve) => {
          loadTab = () => resolve({ default: SearchTab });
        }),
    );
    await hydrate(<Tabbed Tab={LazyTab} Boundary={Boundary} />);
    act(() => type(get('input'), 'ada@example.com'));
    await act(async () => loadTab());
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(get<HTMLInputElement>('input').value).toBe('ada@example.com');
    return get('[data-testid="users-filter"]').textContent;
  }

  it("is lost to React with React's own Suspense: the search does not filter", async () => {
    expect(await typeWhileTheTabLoads(ReactSuspense)).toBe('');
  });

  it("is handed over as the app's Suspense hydrates: the search filters", async () => {
    expect(await typeWhileTheTabLoads(Suspense)).toBe('ada@example.com');
  });

  it('leaves alone a boundary the browser renders later, and the boxes typed into meanwhile', async () => {
    function More() {
      const [shown, setShown] = useState(false);
      return (
        <>
          <input aria-label="Quantity" type="number" defaultValue="1" />
          <button type="button" onClick={() => setShown(true)}>
            More
          </button>
          {shown ? (
            <Suspense fallback={null}>
              <p>More</p>
            </Suspense>
          ) : null}
          <AfterHydration />
        </>
      );
    }
    serverRender(<More />);
    holdEarlyInput(container);
    await hydrate(<More />);
    // Typed after hydration: React saw it (the box differs from the server's value all the same).
    type(get('input'), '2');
    const changes = vi.fn();
    container.addEventListener('input', changes);
    act(() => get<HTMLButtonElement>('button').click());
    expect(container.textContent).toContain('More');
    expect(changes).not.toHaveBeenCalled();
  });
});
