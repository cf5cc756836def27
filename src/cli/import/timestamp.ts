/**
 * Migrated events must carry an ISO 8601 timestamp (docs/wire-protocol.md, "Historical migration"); the server keeps whatever time
 * it is given and the data cannot be deleted afterwards, so a wrong unit or an impossible date is
 * rejected here rather than trusted. Everything accepted leaves as UTC `toISOString()` form.
 */
export type TimestampFormat = 'iso' | 'epoch-s' | 'epoch-ms';
export const TIMESTAMP_FORMATS: readonly TimestampFormat[] = ['iso', 'epoch-s', 'epoch-ms'];

/** `ms` is epoch milliseconds: the client formats it once, so no row pays for two ISO strings. */
export type TimestampResult = { ok: true; ms: number } | { ok: false; reason: string };

// Date, optional time (T or space), optional fraction, optional zone. No zone means UTC: a
// migration must not depend on the time zone of the machine that runs it.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const NUMERIC = /^-?\d+(?:\.\d+)?$/;

// Epoch values outside this window are almost always the wrong unit (seconds read as ms or back).
const PLAUSIBLE_FROM = Date.UTC(1970, 0, 2);
const PLAUSIBLE_TO = Date.UTC(2100, 0, 1);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

const ZERO = 48;
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ`, the form nearly every export writes, read without a regex: on a
 * million rows the general path below cost more than reading the JSON.
 */
function parseCanonical(text: string): TimestampResult | undefined {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */ || text.charCodeAt(10) !== 84 /* T */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const ms = digits(text, 20, 3);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return undefined;
  return { ok: true, ms: Date.UTC(year, month - 1, day, hour, minute, second, ms) };
}

export function parseIsoTimestamp(text: string): TimestampResult {
  const fast = parseCanonical(text);
  if (fast !== undefined) return fast;
  const m = ISO_8601.exec(text.trim());
  if (m === null) {
    return { ok: false, reason: `timestamp ${JSON.stringify(text.slice(0, 60))} is not ISO 8601 (e.g. 2024-05-01T12:30:00Z)` };
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    return { ok: false, reason: `timestamp ${JSON.stringify(text.slice(0, 60))} is not a real date and time` };
  }
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const hours = Number(m[10]);
    const minutes = Number(m[11] ?? 0);
    if (hours > 18 || minutes > 59)
      return { ok: false, reason: `timestamp ${JSON.stringify(text.slice(0, 60))} has an impossible UTC offset` };
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  // Date.UTC maps years 0-99 to 1900-1999; no real event data is that old, so refuse rather than guess.
  if (year < 100) return { ok: false, reason: `timestamp ${JSON.stringify(text.slice(0, 60))} has year ${year}` };
  return { ok: true, ms: time };
}

function parseEpoch(value: unknown, unitMs: number, format: TimestampFormat): TimestampResult {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && NUMERIC.test(value.trim())) number = Number(value.trim());
  else
    return {
      ok: false,
      reason: `timestamp ${describeValue(value)} is not a number of ${format === 'epoch-s' ? 'seconds' : 'milliseconds'} since 1970`,
    };
  const time = Math.round(number * unitMs);
  if (!Number.isFinite(time) || time < PLAUSIBLE_FROM || time >= PLAUSIBLE_TO) {
    const hint = format === 'epoch-s' ? 'milliseconds? use --timestamp-format epoch-ms' : 'seconds? use --timestamp-format epoch-s';
    return { ok: false, reason: `timestamp ${describeValue(value)} read as ${format} is outside 1970-2100 (${hint})` };
  }
  return { ok: true, ms: time };
}

export function normalizeTimestamp(value: unknown, format: TimestampFormat): TimestampResult {
  if (value === undefined || value === null || value === '') {
    return { ok: false, reason: 'timestamp is missing (migrated events need the time they happened)' };
  }
  if (format === 'epoch-s') return parseEpoch(value, 1000, format);
  if (format === 'epoch-ms') return parseEpoch(value, 1, format);
  if (typeof value !== 'string') {
    return {
      ok: false,
      reason: `timestamp ${describeValue(value)} is not an ISO 8601 string (for epoch numbers use --timestamp-format epoch-s or epoch-ms)`,
    };
  }
  return parseIsoTimestamp(value);
}

export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 60));
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
