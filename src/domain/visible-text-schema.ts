import { z } from 'zod';
import { DIRECTION_CONTROL_MESSAGE, hasDirectionControl, removeInvisibleCharacters } from './visible-text';

/**
 * A user-written text field (docs/rules/running.md, Bad input and failure): direction-changing
 * characters are refused with their own message, and invisible characters that mean nothing there
 * are removed before the field's own schema trims the text and checks "required" and length, with
 * its own messages. Wrap the field's string schema itself, before `.optional()` or `.nullish()`.
 * Kept apart from `src/domain/visible-text.ts`, which has no zod, and imported only by modules that
 * build schemas anyway.
 */
export function visibleText<T extends z.ZodType<unknown, string>>(schema: T) {
  return z.preprocess<unknown, T, z.input<T>>((value, context) => {
    // The declared type is the field's; what arrives is any JSON value, which the field refuses.
    const raw: unknown = value;
    if (typeof raw !== 'string') return raw;
    if (hasDirectionControl(raw)) {
      context.addIssue({ code: 'custom', message: DIRECTION_CONTROL_MESSAGE });
      return raw;
    }
    return removeInvisibleCharacters(raw);
  }, schema);
}
