// The minifier shortens every property whose name ends in `_` (scripts/internal-names.js). That is
// safe only while no name that must survive matches: the public API's types (what the npm entry and
// the script tags export, extensions' contract included), what crosses into the lazily loaded
// autocapture chunk, the persisted state, and the wire and storage names the docs spell out. This
// walks those types with the compiler and reads the docs; a fixture shows the walk catches a leak.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERNAL_NAME, MANGLED_PROPERTY, SERVER_PUBLIC_NAMES } from '../../scripts/internal-names.js';
import { repoRoot } from '../support/built';

/** Names of the properties reachable from the exports of `entries` (and `extraTypes`), declared under `within`. */
function reachableNames(entries: string[], within: string, extraTypes: [file: string, name: string][] = []): Map<string, string> {
  const program = ts.createProgram([...entries, ...extraTypes.map(([file]) => file)], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    skipLibCheck: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  const checker = program.getTypeChecker();
  const names = new Map<string, string>(); // name -> where it was seen
  const seen = new Set<ts.Type>();
  const ours = (symbol: ts.Symbol) => (symbol.declarations ?? []).some((node) => node.getSourceFile().fileName.startsWith(within));

  const walk = (type: ts.Type, path: string): void => {
    if (seen.has(type)) return;
    seen.add(type);
    if (type.isUnionOrIntersection()) return type.types.forEach((part) => walk(part, path));
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const parameter of signature.getParameters()) walk(checker.getTypeOfSymbol(parameter), `${path}(${parameter.name})`);
      walk(signature.getReturnType(), `${path}()`);
    }
    for (const argument of checker.getTypeArguments(type as ts.TypeReference) ?? []) walk(argument, path);
    if (!(type.flags & ts.TypeFlags.Object)) return;
    for (const property of checker.getPropertiesOfType(type)) {
      if (!ours(property)) continue; // the DOM's and the language's own
      names.set(property.name, `${path}.${property.name}`);
      walk(checker.getTypeOfSymbol(property), `${path}.${property.name}`);
    }
  };

  for (const file of entries) {
    const source = program.getSourceFile(file)!;
    const module = checker.getSymbolAtLocation(source);
    for (const symbol of module ? checker.getExportsOfModule(module) : []) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      walk(checker.getDeclaredTypeOfSymbol(target), symbol.name);
      walk(checker.getTypeOfSymbol(target), symbol.name);
    }
  }
  // Globals the script tags declare (window.hogtail).
  const window = checker.resolveName('Window', undefined, ts.SymbolFlags.Type, false);
  if (window) walk(checker.getDeclaredTypeOfSymbol(window), 'window');
  for (const [file, name] of extraTypes) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const symbol = checker.getExportsOfModule(module).find((exported) => exported.name === name)!;
    walk(checker.getDeclaredTypeOfSymbol(symbol), name);
  }
  return names;
}

/** Where the names the minifier would shorten (the convention, and the short list) are seen. */
const matching = (names: Map<string, string>) => [...names].filter(([name]) => MANGLED_PROPERTY.test(name)).map(([, where]) => where);

describe('the internal-name convention', () => {
  const src = join(repoRoot, 'src');

  it('matches no name of the public API, of what crosses into a separately minified file, or of the persisted state', () => {
    const names = reachableNames([join(src, 'browser/index.ts'), join(src, 'browser/iife.ts'), join(src, 'browser/iife-lite.ts')], src, [
      [join(src, 'browser/features/autocapture/index.ts'), 'AutocaptureStart'],
      [join(src, 'browser/state/state.ts'), 'PersistedState'],
      [join(src, 'browser/state/persistence/posthog-record.ts'), 'IdentityState'],
    ]);
    // The walk reaches what it must: the client, its options, the extension contract, the storage format.
    for (const name of ['capture', 'api_host', 'onRemoteConfig', 'initOptions', 'distinct_id', 'sid'])
      expect(names.has(name), name).toBe(true);
    expect(matching(names)).toEqual([]);
  });

  it('shortens the convention and at most 20 listed names (public only in the server clients), nothing else', () => {
    expect(SERVER_PUBLIC_NAMES.length).toBeLessThanOrEqual(20);
    for (const name of ['queue_', 'state_', ...SERVER_PUBLIC_NAMES]) expect(MANGLED_PROPERTY.test(name), name).toBe(true);
    for (const name of ['queue', 'capture', 'api_host', '__loaded', '_i', 'state', 'timeoutMsX'])
      expect(MANGLED_PROPERTY.test(name), name).toBe(false);
    expect(INTERNAL_NAME.test('searchBoxJavaBridge_')).toBe(true); // the one DOM name with the suffix: hogtail never reads it
  });

  it('matches no wire or storage name the docs spell out', () => {
    const docs = join(repoRoot, 'docs');
    /** Names in backticks or quotes, by file. */
    const spelled = (files: string[]) => {
      const names = new Map<string, string>();
      for (const file of files)
        for (const [, name] of readFileSync(join(docs, file), 'utf8').matchAll(/[`"]\$?([A-Za-z][\w$]*)[`"]/g)) names.set(name!, file);
      return names;
    };
    const all = spelled(readdirSync(docs).filter((name) => name.endsWith('.md')));
    expect(all.has('distinct_id')).toBe(true);
    // The convention, against every doc; the short list (server-public names) against what the page sends and stores.
    expect([...all].filter(([name]) => INTERNAL_NAME.test(name)).map(([name, file]) => `${file}: ${name}`)).toEqual([]);
    const page = spelled([
      'browser.md',
      'wire-protocol.md',
      'storage-format.md',
      'flags-protocol.md',
      'posthog-js-properties.md',
      'autocapture.md',
    ]);
    expect(page.has('current_url')).toBe(true);
    expect(matching(page)).toEqual([]);
  });

  describe('the walk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hogtail-names-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('catches a public member that ends in `_`, however deep, and leaves internal ones alone', () => {
      writeFileSync(
        join(dir, 'inner.ts'),
        'export interface Options { retries: number; leaked_: boolean }\nexport interface Hidden { state_: number }\n',
      );
      writeFileSync(
        join(dir, 'entry.ts'),
        "import type { Hidden, Options } from './inner';\nexport interface Client { init(options: Options): void }\nconst hidden: Hidden = { state_: 1 };\nexport const make = (): number => hidden.state_;\n",
      );
      expect(matching(reachableNames([join(dir, 'entry.ts')], dir))).toEqual(['Client.init(options).leaked_']);
    });
  });
});
