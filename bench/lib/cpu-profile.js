// CPU profiles (CDP Profiler) of a minified script tag, named by its source map: the self and total
// time per source function, summed over several profiles, so the functions that grew between two
// builds stand out.
import { readFileSync } from 'node:fs';
import { createSourceLookup } from './source-map.js';

export const SAMPLE_US = 25;

/** Starts sampling every SAMPLE_US on `cdp`'s page; the returned function stops and answers the profile. */
export async function startProfile(cdp) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLE_US });
  await cdp.send('Profiler.start');
  return async () => (await cdp.send('Profiler.stop')).profile;
}

/**
 * Sums profiles of the script served as `…/sdk.js` from `file` (with `file`.map beside it).
 * `add(profile)` adds one; `top(n)` lists the n functions with the most self time.
 */
export function createProfileTotals(file) {
  const lookup = createSourceLookup(JSON.parse(readFileSync(file + '.map', 'utf8')));
  const totals = new Map();
  let sampledUs = 0;

  const nameOf = ({ callFrame: frame }) => {
    if (!frame.url.endsWith('/sdk.js')) return frame.functionName || `(${frame.url ? 'anonymous' : 'program'})`;
    const at = lookup(frame.lineNumber, frame.columnNumber);
    return at ? `${at.source.replace(/^(\.\.\/)+/, '')}:${at.line}${at.name ? ' ' + at.name : ''}` : `sdk.js:${frame.columnNumber}`;
  };

  return {
    add(profile) {
      const byId = new Map(profile.nodes.map((node) => [node.id, node]));
      const parent = new Map();
      for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
      for (const id of profile.samples) {
        // Counted, not timed: a sample is taken when the thread runs, and its time delta would add
        // the time the thread waited for a core to the function it was in (the load, not the cost).
        sampledUs += SAMPLE_US;
        const seen = new Set();
        for (let node = byId.get(id), self = true; node; node = byId.get(parent.get(node.id)), self = false) {
          const key = nameOf(node);
          const entry = totals.get(key) ?? { self: 0, total: 0 };
          if (self) entry.self += SAMPLE_US;
          if (!seen.has(key)) entry.total += SAMPLE_US;
          seen.add(key);
          totals.set(key, entry);
        }
      }
    },
    top(n) {
      const rows = [...totals].sort((a, b) => b[1].self - a[1].self).slice(0, n);
      return [
        `${(sampledUs / 1000).toFixed(1)} ms sampled (samples × ${SAMPLE_US} µs)`,
        '  self ms   total ms   function',
        ...rows.map(
          ([key, { self, total }]) => `  ${(self / 1000).toFixed(1).padStart(7)}   ${(total / 1000).toFixed(1).padStart(8)}   ${key}`,
        ),
      ].join('\n');
    },
  };
}
