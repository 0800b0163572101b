import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../lib/theme';
import { useHasHydrated } from '../lib/use-has-hydrated';
import { Button } from './ui/button';
import { WithTooltip } from './ui/tooltip';

/** Switches between the light and dark theme (docs/rules/screens-shared.md, Client behaviour). */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme: storedTheme, toggleTheme } = useTheme();
  // The server cannot read the stored theme: the page it rendered shows the light one's toggle
  // until hydration is done (docs/decisions/0014-first-load.md, The first screen in the HTML).
  const theme = useHasHydrated() ? storedTheme : 'light';
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <WithTooltip label={label}>
      <Button variant="ghost" size="icon" onClick={toggleTheme} aria-label={label} className={className}>
        {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
      </Button>
    </WithTooltip>
  );
}
