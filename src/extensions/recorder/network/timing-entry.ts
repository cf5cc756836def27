/**
 * The browser's timing entry for a request the wrapped fetch or XHR saw: the latest resource
 * entry for its URL and initiator that started between the call and its answer. The browser adds
 * it a little after the answer, so it is looked for again, a little later each time, and the
 * record goes without it (times from the wrapper) when it never comes (a cross-origin timing the
 * page may not read, a full timing buffer).
 */

const ATTEMPTS = 10;
const STEP_MS = 50;

function latest(win: Window, url: string, initiatorType: string, start: number | undefined, end: number | undefined) {
  const entries = win.performance.getEntriesByName(url) as PerformanceResourceTiming[];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.entryType !== 'resource' || entry.initiatorType !== initiatorType) continue;
    if (start !== undefined && entry.startTime < start) continue;
    if (end !== undefined && entry.startTime > end) continue;
    return entry;
  }
  return undefined;
}

export async function findTimingEntry(
  win: Window,
  url: string,
  initiatorType: string,
  start: number | undefined,
  end: number | undefined,
): Promise<PerformanceResourceTiming | undefined> {
  for (let attempt = 0; attempt <= ATTEMPTS; attempt++) {
    const entry = latest(win, url, initiatorType, start, end);
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, STEP_MS * (attempt + 1)));
  }
  return undefined;
}
