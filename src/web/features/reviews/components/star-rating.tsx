import { useRef, type KeyboardEvent } from 'react';
import { Star } from 'lucide-react';
import { RATING_MAX, RATING_MIN } from '@domain/reviews';
import { cn } from '../../../lib/utils';

const STARS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

const starsWord = (n: number) => `${n} ${n === 1 ? 'star' : 'stars'}`;

/** Stars filled up to `rating` (rounded to the nearest whole star), with the rating read out. */
export function StarsShown({ rating, className }: { rating: number; className?: string }) {
  const filled = Math.round(rating);
  return (
    <span className={cn('inline-flex text-amber-500', className)} aria-hidden="true">
      {STARS.map((n) => (
        <Star
          key={n}
          className={cn('size-4', n <= filled ? 'fill-amber-400' : 'fill-transparent opacity-40')}
        />
      ))}
    </span>
  );
}

/**
 * Choosing 1 to 5 stars (docs/rules/selling.md, Reviews and messages): a radio group, so the
 * arrow keys move between the stars and a screen reader says "3 stars, 3 of 5".
 */
export function StarRatingInput({
  value,
  onChange,
  label,
}: {
  value: number;
  onChange: (rating: number) => void;
  label: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowUp'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown'
          ? -1
          : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = Math.min(RATING_MAX, Math.max(RATING_MIN, (value || 0) + step));
    onChange(next);
    refs.current[next - RATING_MIN]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} className="flex gap-1" onKeyDown={onKeyDown}>
      {STARS.map((n) => {
        const isChecked = value === n;
        return (
          <button
            key={n}
            ref={(element) => {
              refs.current[n - RATING_MIN] = element;
            }}
            type="button"
            role="radio"
            aria-checked={isChecked}
            aria-label={starsWord(n)}
            tabIndex={isChecked || (value === 0 && n === RATING_MIN) ? 0 : -1}
            onClick={() => onChange(n)}
            className="rounded-sm p-0.5 text-amber-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Star
              className={cn('size-6', n <= value ? 'fill-amber-400' : 'fill-transparent')}
              aria-hidden="true"
            />
          </button>
        );
      })}
    </div>
  );
}
