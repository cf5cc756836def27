/**
 * Which clicks are dead: posthog-js's rule, in short. A click becomes a candidate (not on `html`,
 * not inside a link, which is a legitimate activation, not in the ignore list, no modifier key, not
 * the same element again within a second), and is looked at again every second. It is alive if
 * the page scrolled, the selection changed or the DOM changed soon enough after it (settings.ts),
 * or the tab's visibility or focus changed within a second either side (the click opened a tab or
 * woke this one). Otherwise it is dead once one of those came too late, or nothing came at all
 * within 1.1 × the mutation threshold: then `report` gets it with posthog-js's `$dead_click_*`
 * timings.
 */
import type { DeadClickSettings } from './settings';

export interface Candidate {
  readonly node: Element;
  readonly at: number;
  scrollMs?: number;
  selectionMs?: number;
  livenessMs?: number;
}

export interface DeadClickDetector {
  click(event: MouseEvent): void;
  scrolled(): void;
  mutated(): void;
  selectionChanged(): void;
  /** A visibility or focus change: the clicks around it did something. */
  liveness(): void;
}

type Report = (candidate: Candidate, timings: Record<string, unknown>) => void;

const LIVENESS_MS = 1000;
const PREFIX = '$dead_click_';

function targetOf(event: MouseEvent): Element | undefined {
  let node = (event.composedPath?.()[0] ?? event.target) as Node | null;
  if (node && node.nodeType === 3) node = node.parentNode;
  return node && node.nodeType === 1 && (node as Element).localName !== 'html' ? (node as Element) : undefined;
}

export function createDeadClickDetector(settings: DeadClickSettings, report: Report): DeadClickDetector {
  let waiting: Candidate[] = [];
  let lastMutation: number | undefined;
  let lastLiveness = -Infinity;
  let lastSelection = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const judge = (c: Candidate, now: number): boolean | undefined => {
    const mutationMs = lastMutation !== undefined && lastMutation >= c.at ? lastMutation - c.at : undefined;
    const absoluteMs = now - c.at;
    const alive =
      (c.scrollMs ?? Infinity) < settings.scrollMs ||
      (mutationMs ?? Infinity) < settings.mutationMs ||
      (c.selectionMs ?? Infinity) < settings.selectionMs ||
      c.livenessMs !== undefined;
    if (alive) return false;
    const timeouts = {
      scroll_timeout: c.scrollMs !== undefined,
      mutation_timeout: mutationMs !== undefined,
      absolute_timeout: absoluteMs >= settings.mutationMs * 1.1,
      selection_changed_timeout: c.selectionMs !== undefined,
    };
    // Nothing yet, neither in time nor too late: look again in a second.
    if (!Object.values(timeouts).some(Boolean)) return undefined;
    const timings: Record<string, unknown> = { last_mutation_timestamp: lastMutation, event_timestamp: c.at, ...timeouts };
    Object.assign(timings, { visibility_changed_timeout: false, scroll_delay_ms: c.scrollMs, mutation_delay_ms: mutationMs });
    Object.assign(timings, { absolute_delay_ms: absoluteMs, selection_changed_delay_ms: c.selectionMs });
    const out: Record<string, unknown> = {};
    for (const key in timings) out[PREFIX + key] = timings[key];
    report(c, out);
    return true;
  };

  const check = () => {
    timer = undefined;
    const now = Date.now();
    waiting = waiting.filter((c) => judge(c, now) === undefined);
    schedule();
  };
  const schedule = () => void (waiting.length && !timer && (timer = setTimeout(check, 1000)));
  const each = (fn: (c: Candidate, since: number) => void) => {
    const now = Date.now();
    for (const c of waiting) fn(c, now - c.at);
  };

  return {
    click(event) {
      const node = targetOf(event);
      const at = Date.now();
      if (!node || node.closest('a') || node.closest(settings.ignore)) return;
      if (!settings.modifierKeys && (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey)) return;
      if (waiting.some((c) => c.node === node && at - c.at < 1000)) return;
      const candidate: Candidate = { node, at };
      if (at - lastLiveness < LIVENESS_MS) candidate.livenessMs = 0;
      if (at - lastSelection < settings.selectionMs) candidate.selectionMs = 0;
      waiting.push(candidate);
      schedule();
    },
    scrolled: () => each((c, since) => (c.scrollMs ??= since)),
    mutated: () => void (lastMutation = Date.now()),
    selectionChanged() {
      lastSelection = Date.now();
      each((c, since) => (c.selectionMs = Math.min(c.selectionMs ?? since, since)));
    },
    liveness() {
      lastLiveness = Date.now();
      each((c, since) => since < LIVENESS_MS && (c.livenessMs ??= since));
    },
  };
}
