import type { AppContext } from '../../platform/context';
import type { LiveEventReactor } from './dispatch-live-events';

/** Every reactor that turns live events into mail or push (docs/decisions/0019-reaching-people.md). */
export function liveEventReactors(_ctx: AppContext): LiveEventReactor[] {
  return [];
}
