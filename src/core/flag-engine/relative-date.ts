/**
 * Date filter values: an absolute date PostHog can parse, or a relative one such as `-7d`
 * ("7 days ago"; units h, d, w, m, y), which PostHog resolves against the time of evaluation.
 */
const RELATIVE = /^-?(\d+)([hdwmy])$/;

/** The filter's date as epoch ms; undefined when it is neither relative nor a date. */
export function parseFilterDate(value: unknown, now: number): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const relative = typeof value === 'string' ? RELATIVE.exec(value) : null;
  if (relative) {
    const amount = Number(relative[1]);
    // PostHog ignores absurd offsets rather than reaching back ten thousand years.
    if (amount >= 10_000) return undefined;
    return subtract(now, amount, relative[2] as 'h' | 'd' | 'w' | 'm' | 'y');
  }
  const parsed = new Date(value).getTime();
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** A property value read as a date (a Date, an ISO string, or epoch ms); undefined when it is not one. */
export function parsePropertyDate(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const parsed = new Date(value).getTime();
  return Number.isNaN(parsed) ? undefined : parsed;
}

function subtract(now: number, amount: number, unit: 'h' | 'd' | 'w' | 'm' | 'y'): number {
  const date = new Date(now);
  switch (unit) {
    case 'h':
      date.setUTCHours(date.getUTCHours() - amount);
      break;
    case 'd':
      date.setUTCDate(date.getUTCDate() - amount);
      break;
    case 'w':
      date.setUTCDate(date.getUTCDate() - amount * 7);
      break;
    case 'm':
      return subtractMonths(date, amount);
    case 'y':
      return subtractMonths(date, amount * 12);
  }
  return date.getTime();
}

/** Month arithmetic clamps to the target month's last day (31 March minus one month is 28/29 February). */
function subtractMonths(date: Date, months: number): number {
  const day = date.getUTCDate();
  const target = new Date(date.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}
