/** "2026-11-16" → "Nov 16": a week of an earnings chart by its Monday. */
export function formatWeek(weekStart: string): string {
  const [year, month, day] = weekStart.split('-').map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
