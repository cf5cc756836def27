// Type-checks a consumer's code against the packed declarations under each module resolution a
// Node or bundler project uses, for ESM (.mts) and CommonJS (.cts) files. Every entry in `exports`
// is at least imported; the known ones are used the way their README sections show.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { exportedSubpaths, runTool, specifier } from '../support/packed';

/** Real use of the entries whose API this file knows; the rest are only imported (see below). */
const USE = `import hogtail, { posthog, createHogtail, type Hogtail, type HogtailConfig } from 'hogtail';
import { hogtail as pageClient } from 'hogtail/browser';
import { PostHog } from 'hogtail/node';
import { createApiClient } from 'hogtail/api';
import 'hogtail/hogtail.iife.js';

const config: HogtailConfig = { api_host: 'http://127.0.0.1:1' };
const started: Hogtail | undefined = hogtail.init('phc_x', config);
started?.capture('signed up', { plan: 'pro' });
export const same: Hogtail = posthog;
export const made: Hogtail = createHogtail();
export const beta: boolean | undefined = pageClient.isFeatureEnabled('beta');
export const scriptTag: Hogtail = window.hogtail;
const server = new PostHog('phc_x', { host: 'http://127.0.0.1:1', flushOnExitTimeout: 0 });
server.capture({ distinctId: 'u', event: 'e', properties: { plan: 'pro' } });
export const enqueued: number = server.stats().enqueued;
export const api: typeof createApiClient = createApiClient;
`;

/** `import * as` of every subpath, so an entry added to `exports` is type-checked from day one. */
function importEveryEntry(subpaths: string[]): string {
  return subpaths
    .filter((subpath) => subpath !== './package.json' && !subpath.endsWith('.js'))
    .map((subpath, index) => `import * as entry${index} from '${specifier(subpath)}';\nexport const loaded${index}: object = entry${index};\n`)
    .join('');
}

interface Setup {
  module: string;
  moduleResolution: string;
  files: string[];
  customConditions?: string[];
}

function typecheck(consumer: string, name: string, setup: Setup) {
  const { files, ...options } = setup;
  const config = join(consumer, `tsconfig.${name}.json`);
  const compilerOptions = { target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], jsx: 'react-jsx', ...options };
  writeFileSync(config, JSON.stringify({ compilerOptions, files }));
  return runTool(consumer, 'typescript/bin/tsc', ['-p', config]);
}

export function typeTests(consumer: () => string): void {
  const setups: Record<string, Setup> = {
    node16: { module: 'node16', moduleResolution: 'node16', files: ['esm.mts', 'cjs.cts'] },
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext', files: ['esm.mts', 'cjs.cts'] },
    bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['app.ts'] },
    'bundler with the browser condition': { module: 'esnext', moduleResolution: 'bundler', files: ['app.ts'], customConditions: ['browser'] },
    node10: { module: 'commonjs', moduleResolution: 'node10', files: ['app.ts'] },
  };

  it.each(Object.keys(setups))('every entry type-checks in a consumer under %s resolution', (name) => {
    const code = USE + importEveryEntry(exportedSubpaths(consumer()));
    for (const file of ['esm.mts', 'cjs.cts', 'app.ts']) writeFileSync(join(consumer(), file), code);
    const result = typecheck(consumer(), name.replace(/ /g, '-'), setups[name]!);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);

  // Its own program: the lite tag types window.hogtail with fewer methods than the full one.
  it.each(['node16', 'bundler', 'node10'])('the lite script tag types window.hogtail with its own methods only, under %s resolution', (name) => {
    const code = `import 'hogtail/hogtail.lite.iife.js';
window.hogtail.init('phc_x', { api_host: 'http://127.0.0.1:1' }).capture('signed up', { plan: 'pro' });
export const flag: boolean | undefined = window.hogtail.isFeatureEnabled('beta');
// @ts-expect-error getGroups is a posthog-js extra the lite build does not have
window.hogtail.getGroups();
`;
    const setup = setups[name]!;
    const file = setup.files[0]!.replace(/^[^.]+/, 'lite');
    writeFileSync(join(consumer(), file), code);
    const result = typecheck(consumer(), 'lite-' + name, { ...setup, files: [file] });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);
}
