// Type-checks a consumer's code against the packed declarations under each module resolution a
// Node or bundler project uses, for ESM (.mts) and CommonJS (.cts) files. Every entry in `exports`
// is at least imported; the known ones are used the way their README sections show.
//
// Each setup is a TypeScript program built in this process, as `tsc -p` would build it
// (`skipLibCheck: false`), but asked for the diagnostics of the consumer's files and of hogtail's
// declarations only: checking all of @types/node, @types/react and csstype for every setup tested
// nothing of ours and was nine tenths of the suite's slowest file. The setups also share the parsed
// and bound declaration files of TypeScript's libs and @types (sharedDeclarations below).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { exportedSubpaths, specifier } from '../support/packed';

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
    .map(
      (subpath, index) => `import * as entry${index} from '${specifier(subpath)}';\nexport const loaded${index}: object = entry${index};\n`,
    )
    .join('');
}

interface Setup {
  module: string;
  moduleResolution: string;
  files: string[];
  customConditions?: string[];
}

/**
 * Parsed declaration files of TypeScript's libs and of node_modules/@types, shared by every setup's
 * program: the same files for all of them (lib.dom.d.ts alone is 1.3 MB), so each is parsed and
 * bound once instead of eight times; checking stays per program. Keyed by what the parse depends
 * on (the language version and whether the file is ESM or CommonJS under this resolution), as
 * TypeScript's own language service shares them. The consumer's files and hogtail's declarations,
 * what the setups test, are parsed afresh for each.
 */
const sharedDeclarations = new Map<string, ts.SourceFile>();

function hostSharingDeclarations(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, shouldCreate) => {
    if (!/\.d\.c?ts$/.test(fileName)) return parse(fileName, version, onError, shouldCreate);
    const how = typeof version === 'object' ? [version.languageVersion, version.impliedNodeFormat] : [version];
    const key = `${fileName}|${how.join('|')}`;
    const file = sharedDeclarations.get(key) ?? parse(fileName, version, onError, shouldCreate);
    if (file) sharedDeclarations.set(key, file);
    return file;
  };
  return host;
}

/** What `tsc -p` would print about the consumer's files and hogtail's declarations ('' when nothing). */
function typecheck(consumer: string, name: string, setup: Setup): string {
  const { files, ...options } = setup;
  const compilerOptions = {
    target: 'es2022',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    jsx: 'react-jsx',
    ...options,
  };
  // Written out as before, so a failure can be reproduced with `npx tsc -p` in the consumer.
  writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }));
  const converted = ts.convertCompilerOptionsFromJson(compilerOptions, consumer);
  const program = ts.createProgram(
    files.map((file) => join(consumer, file)),
    converted.options,
    hostSharingDeclarations(converted.options),
  );
  const ours = program
    .getSourceFiles()
    .filter((file) => !file.fileName.includes('/node_modules/') || file.fileName.includes('/node_modules/hogtail/'));
  const diagnostics = [
    ...converted.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (file) => file,
    getCurrentDirectory: () => consumer,
    getNewLine: () => '\n',
  });
}

export function typeTests(consumer: () => string): void {
  const setups: Record<string, Setup> = {
    node16: { module: 'node16', moduleResolution: 'node16', files: ['esm.mts', 'cjs.cts'] },
    nodenext: { module: 'nodenext', moduleResolution: 'nodenext', files: ['esm.mts', 'cjs.cts'] },
    bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['app.ts'] },
    'bundler with the browser condition': {
      module: 'esnext',
      moduleResolution: 'bundler',
      files: ['app.ts'],
      customConditions: ['browser'],
    },
    node10: { module: 'commonjs', moduleResolution: 'node10', files: ['app.ts'] },
  };

  it.each(Object.keys(setups))(
    'every entry type-checks in a consumer under %s resolution',
    (name) => {
      const code = USE + importEveryEntry(exportedSubpaths(consumer()));
      for (const file of ['esm.mts', 'cjs.cts', 'app.ts']) writeFileSync(join(consumer(), file), code);
      expect(typecheck(consumer(), name.replace(/ /g, '-'), setups[name]!)).toBe('');
    },
    60_000,
  );

  // Its own program: the lite tag types window.hogtail with fewer methods than the full one.
  it.each(['node16', 'bundler', 'node10'])(
    'the lite script tag types window.hogtail with its own methods only, under %s resolution',
    (name) => {
      const code = `import 'hogtail/hogtail.lite.iife.js';
window.hogtail.init('phc_x', { api_host: 'http://127.0.0.1:1' }).capture('signed up', { plan: 'pro' });
export const flag: boolean | undefined = window.hogtail.isFeatureEnabled('beta');
// @ts-expect-error getGroups is a posthog-js extra the lite build does not have
window.hogtail.getGroups();
`;
      const setup = setups[name]!;
      const file = setup.files[0]!.replace(/^[^.]+/, 'lite');
      writeFileSync(join(consumer(), file), code);
      expect(typecheck(consumer(), 'lite-' + name, { ...setup, files: [file] })).toBe('');
    },
    60_000,
  );
}
