import type { Category } from '@domain/categories';
import { cn } from '../../../lib/utils';
import { ALL_CATEGORIES } from '../api/get-products';

interface CategoryChipsProps {
  categories: readonly Category[];
  selected: string;
  onSelect: (category: string) => void;
}

/**
 * "All" plus one chip per category (docs/rules/screens-buyer.md, Catalog screens); the pressed chip is
 * the active filter.
 */
export function CategoryChips({ categories, selected, onSelect }: CategoryChipsProps) {
  const names = [ALL_CATEGORIES, ...categories.map((c) => c.name)];
  return (
    // One swipeable row on phones (the row scrolls, never the page); wrapped lines from sm up.
    <div
      role="group"
      aria-label="Filter by category"
      className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0"
    >
      {names.map((name) => {
        const isSelected = name === selected;
        return (
          <button
            key={name}
            type="button"
            aria-pressed={isSelected}
            onClick={() => onSelect(name)}
            className={cn(
              'shrink-0 whitespace-nowrap rounded-full border px-4 py-1.5 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background',
              isSelected
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-input bg-background hover:bg-accent hover:text-accent-foreground',
            )}
          >
            {name}
          </button>
        );
      })}
    </div>
  );
}
