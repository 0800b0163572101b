import { Component, type ErrorInfo, type ReactNode } from 'react';
import { LoadFailed } from './load-failed';
import { Suspense } from './suspense';

/**
 * A part of the app whose code could not be fetched: the connection dropped, or a new version was
 * deployed and replaced the files this one asks for. Browsers word it differently.
 */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /failed to fetch dynamically imported module|importing a module script failed|error loading dynamically imported module|chunkloaderror|loading chunk/i.test(
    text,
  );
}

export const CHUNK_FAILED_MESSAGE =
  'This page could not be loaded. Check your connection; trying again loads the latest version.';
export const RENDER_FAILED_MESSAGE = 'Something went wrong showing this part of the page.';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** A change of this value (e.g. the address) clears a caught error and renders the children again. */
  resetKey?: unknown;
  /** Wraps the message, e.g. in the page's layout so the header stays. */
  frame?: (message: ReactNode) => ReactNode;
}

interface ErrorBoundaryState {
  error: unknown;
  failed: boolean;
  resetKey: unknown;
}

/**
 * Catches what a part of the app throws while loading or drawing, so the rest stays usable: a
 * lazy page or tab whose code cannot be fetched says so and reloads the app on Try Again (React
 * keeps a failed import, so only a reload asks for the files again); any other error says that
 * something went wrong and Try Again draws the part once more. The error goes to the console,
 * never to the screen.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    if (Object.is(props.resetKey, state.resetKey)) return null;
    return { error: null, failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  private readonly retry = () => {
    if (isChunkLoadError(this.state.error)) window.location.reload();
    else this.setState({ error: null, failed: false });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    const message = (
      <LoadFailed
        className="my-6"
        message={isChunkLoadError(this.state.error) ? CHUNK_FAILED_MESSAGE : RENDER_FAILED_MESSAGE}
        onRetry={this.retry}
        isRetrying={false}
      />
    );
    return this.props.frame ? this.props.frame(message) : message;
  }
}

/**
 * A part loaded on demand that the page can do without (a tooltip, a menu's code, the unread
 * count, the toasts, live updates): `fallback` shows while its code loads and, if the code cannot
 * be fetched or the part throws, stays in its place. The part must not be left to the page's
 * boundary: the header is drawn again around the page's message, and a part of the header that
 * fails again there would leave the whole app blank. The error goes to the console.
 */
export function OptionalPart({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <ErrorBoundary frame={() => fallback}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </ErrorBoundary>
  );
}
