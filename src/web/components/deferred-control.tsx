import {
  cloneElement,
  lazy,
  useState,
  type ComponentType,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import { useHasHydrated } from '../lib/use-has-hydrated';
import { OptionalPart } from './error-boundary';

/** What a deferred control receives besides its own props. */
export interface DeferredControlProps {
  /** The control's trigger (a button); it stands in, as it is, until the control has loaded. */
  trigger: ReactElement<HTMLAttributes<HTMLElement>>;
  /** Whether the stand-in was pressed before the control loaded: the control then opens at once. */
  defaultOpen: boolean;
}

/** The keys that open a menu from its trigger, as Radix's trigger reads them. */
const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * A menu whose code is not part of the first load (docs/decisions/0014-first-load.md): its
 * trigger shows at once, the menu's code starts loading with the first render, and a press on the
 * trigger before it has arrived opens the menu as soon as it has.
 */
export function deferredControl<Props extends DeferredControlProps>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Omit<Props, 'defaultOpen'>> {
  const Control = lazy(async () => ({ default: await load() }));
  function DeferredControl(props: Omit<Props, 'defaultOpen'>) {
    const [isWanted, setIsWanted] = useState(false);
    const hasHydrated = useHasHydrated();
    const want = () => setIsWanted(true);
    const standIn = cloneElement(props.trigger, {
      onPointerDown: want,
      onClick: want,
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
        if (OPEN_KEYS.has(event.key)) want();
      },
    });
    // The cast adds back the one prop this wrapper owns.
    const controlProps = { ...props, defaultOpen: isWanted } as Props;
    // The server's HTML has the stand-in; the control loads once the page has hydrated
    // (docs/decisions/0014-first-load.md, The first screen in the HTML).
    // If the control's code cannot be fetched, the stand-in stays (the error goes to the console).
    return (
      <OptionalPart fallback={standIn}>{hasHydrated ? <Control {...controlProps} /> : standIn}</OptionalPart>
    );
  }
  return DeferredControl;
}
