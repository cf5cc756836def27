/**
 * LCP, CLS, FCP and INP measured as Google's web-vitals library measures them (its definitions,
 * thresholds and field names), on the browser's performance observers directly. The library
 * alone took 3,129 B gzipped of this file's 3,483 B budget (docs/budgets.md, "Issue #26"); this
 * is about a third of that. What it leaves out: soft navigations (posthog-js has them behind a
 * preview flag) and new metrics after a back/forward-cache restore.
 *
 * Each metric is reported when its value is known: FCP at the first contentful paint; LCP at the
 * first input or when the page is hidden; CLS (the largest session window of shifts no input
 * caused) and INP (about the 98th percentile of the page's interactions, the longest kept) each
 * time the page is hidden with a new value. `hidden()` is called by the extension before it sends.
 */
export interface Metric {
  name: string;
  value: number;
  delta: number;
  rating: 'good' | 'needs-improvement' | 'poor';
  id: string;
  navigationType: string;
  /** The navigation's id in Chromium's performance timeline (0 elsewhere), its URL and start: as web-vitals 6 sends them. */
  navigationId: number;
  navigationURL: string | undefined;
  navigationStartTime: number;
  /** The performance entries the value comes from (read for attribution, never sent). */
  entries: PerformanceEntry[];
}

type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean };
/** `interactionId`: in Chromium's Event Timing, not yet in TypeScript's DOM library. */
type EventEntry = PerformanceEventTiming & { interactionId?: number };
type Interaction = { latency: number; entries: EventEntry[] };

const THRESHOLDS: Record<string, [number, number]> = { LCP: [2500, 4000], CLS: [0.1, 0.25], FCP: [1800, 3000], INP: [200, 500] };
/** The longest interactions kept as INP candidates (web-vitals keeps 10). */
const CANDIDATES = 10;

function observe(type: string, handle: (entries: PerformanceEntry[]) => void, durationThreshold?: number): PerformanceObserver | undefined {
  try {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) return;
    const observer = new PerformanceObserver((list) => handle(list.getEntries()));
    observer.observe({ type, buffered: true, ...(durationThreshold ? { durationThreshold } : {}) } as PerformanceObserverInit);
    return observer;
  } catch {
    return undefined; // a browser without this entry type: the metric is not reported
  }
}

export function observeVitals(names: string[], report: (metric: Metric) => void): { hidden(): void } {
  const nav = performance.getEntriesByType('navigation')[0] as
    | (PerformanceNavigationTiming & { activationStart?: number; navigationId?: number })
    | undefined;
  const navigation = { navigationType: '', navigationId: nav?.navigationId || 0, navigationURL: nav?.name, navigationStartTime: 0 };
  const activation = nav?.activationStart ?? 0;
  navigation.navigationType = activation > 0 ? 'prerender' : (nav?.type.replace(/_/g, '-') ?? 'navigate');
  let firstHidden = document.visibilityState === 'hidden' ? 0 : Infinity;
  const since = (entry: PerformanceEntry) => Math.max(entry.startTime - activation, 0);

  /** A reporter for `name`: reports a value once, and again only when it changed. */
  const reporter = (name: string) => {
    const id = `v1-${Date.now()}-${Math.floor(Math.random() * 9e12) + 1e12}`;
    let last: number | undefined;
    return (value: number, entries: PerformanceEntry[]) => {
      if (!names.includes(name) || value === last) return;
      const [good, poor] = THRESHOLDS[name]!;
      const rating = value > poor ? 'poor' : value > good ? 'needs-improvement' : 'good';
      report({ name, value, delta: value - (last ?? 0), rating, id, ...navigation, entries });
      last = value;
    };
  };

  const fcp = reporter('FCP');
  const paints = observe('paint', (entries) => {
    for (const entry of entries) {
      if (entry.name !== 'first-contentful-paint' || entry.startTime >= firstHidden) continue;
      paints?.disconnect();
      fcp(since(entry), [entry]);
    }
  });

  const lcp = reporter('LCP');
  let largest: PerformanceEntry | undefined;
  const readLargest = (entries: PerformanceEntry[]) => {
    for (const entry of entries) if (entry.startTime < firstHidden) largest = entry;
  };
  const paintsLargest = observe('largest-contentful-paint', readLargest);
  let lcpDone = !paintsLargest;
  const finishLcp = () => {
    if (lcpDone) return;
    lcpDone = true;
    readLargest(paintsLargest!.takeRecords());
    paintsLargest!.disconnect();
    if (largest) lcp(since(largest), [largest]);
  };
  // The first input ends LCP (what the visitor saw before acting), in a task of its own.
  for (const type of ['keydown', 'click']) addEventListener(type, () => setTimeout(finishLcp), { once: true, capture: true });

  const cls = reporter('CLS');
  let session: Shift[] = [];
  let sessionValue = 0;
  let clsValue = 0;
  let clsEntries: Shift[] = [];
  const readShifts = (entries: PerformanceEntry[]) => {
    for (const shift of entries as Shift[]) {
      if (shift.hadRecentInput) continue;
      const first = session[0];
      const last = session[session.length - 1];
      // One session: shifts less than 1 s apart, for at most 5 s.
      if (first && last && shift.startTime - last.startTime < 1000 && shift.startTime - first.startTime < 5000) {
        sessionValue += shift.value;
        session.push(shift);
      } else {
        sessionValue = shift.value;
        session = [shift];
      }
      if (sessionValue <= clsValue) continue;
      clsValue = sessionValue;
      clsEntries = session.slice();
    }
  };
  const shifts = observe('layout-shift', readShifts);

  const inp = observeInteractions();
  const reportInp = reporter('INP');

  return {
    hidden() {
      if (!Number.isFinite(firstHidden)) firstHidden = performance.now();
      finishLcp();
      // As web-vitals: CLS once the page has painted content (0 when nothing shifted).
      if (shifts && performance.getEntriesByName('first-contentful-paint').length) {
        readShifts(shifts.takeRecords());
        cls(clsValue, clsEntries);
      }
      const candidate = inp();
      if (candidate) reportInp(candidate.latency, candidate.entries);
    },
  };
}

/**
 * The page's interactions (Event Timing entries by interaction id, the longest kept); returns what
 * reads the INP candidate: about the 98th percentile, one interaction skipped per 50, as web-vitals.
 */
function observeInteractions(): () => Interaction | undefined {
  const interactions = new Map<number, Interaction>();
  let interactionCount = 0;
  const readEvents = (entries: PerformanceEntry[]) => {
    for (const entry of entries as EventEntry[]) {
      if (!entry.interactionId) continue;
      const known = interactions.get(entry.interactionId);
      if (!known) interactionCount++;
      if (known && entry.duration < known.latency) continue;
      if (known && entry.duration === known.latency) known.entries.push(entry);
      else interactions.set(entry.interactionId, { latency: entry.duration, entries: [entry] });
      if (interactions.size > CANDIDATES) {
        const shortest = [...interactions].sort((a, b) => a[1].latency - b[1].latency)[0]!;
        interactions.delete(shortest[0]);
      }
    }
  };
  const events = observe('event', readEvents, 40);
  // The first input is always reported, however short: INP for a page of quick interactions.
  const firstInput = observe('first-input', readEvents);
  return () => {
    readEvents([...(events?.takeRecords() ?? []), ...(firstInput?.takeRecords() ?? [])]);
    const longest = [...interactions.values()].sort((a, b) => b.latency - a.latency);
    const count = (performance as { interactionCount?: number }).interactionCount ?? interactionCount;
    return longest[Math.min(longest.length - 1, Math.floor(count / 50))];
  };
}
