import type { AppContext } from '../../platform/context';
import type { LiveEventReactor } from './dispatch-live-events';
import { mailReactor } from './mail-reactor';
import { pushReactor } from './push-reactor';

/** Every reactor that turns live events into mail or push (docs/decisions/0019-reaching-people.md). */
export function liveEventReactors(ctx: AppContext): LiveEventReactor[] {
  return [mailReactor(ctx.config), pushReactor(ctx)];
}
