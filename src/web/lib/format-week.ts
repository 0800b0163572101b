// One formatter for every call: `toLocaleDateString` builds a new one each time, and a chart
// labels its weeks on every draw (tens of milliseconds on a phone's first load).
const weekFormatter = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "2026-11-16" → "Nov 16": a week of an earnings chart by its Monday. */
export function formatWeek(weekStart: string): string {
  const [year, month, day] = weekStart.split('-').map(Number);
  return weekFormatter.format(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}
