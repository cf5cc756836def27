// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://app.shop.test/" }
// Nothing configured is silently ignored: every init() option the browser client's type accepts
// (read from the type itself, so a new option cannot slip by) is one the full build acts on, or
// one docs/migration.md lists as having no effect in hogtail, with why; and such an option, given
// the value that asks for what hogtail lacks, warns once at init, by name. An option a build says
// it acts on must be read somewhere in the source.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHogtail, fullBuild } from '../../src/browser/api/drop-in';
import { KNOWN } from '../../src/browser/api/options';

/** Vitest runs at the repository's root (its config is there). */
const repoRoot = process.cwd() + '/';

/** The property names of `HogtailConfig` (src/browser/hogtail.ts), as the compiler sees them. */
function typedOptions(): string[] {
  const entry = repoRoot + 'src/browser/hogtail.ts';
  const program = ts.createProgram([entry], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const alias = program
    .getSourceFile(entry)!
    .statements.find((node): node is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(node) && node.name.text === 'HogtailConfig')!;
  return checker.getPropertiesOfType(checker.getTypeAtLocation(alias.name)).map((property) => property.name);
}

/** What the full build acts on: the core's options, the build's and its features'. */
function actedOn(): Set<string> {
  const build = fullBuild();
  return new Set([...KNOWN, ...build.options_, ...build.features_.flatMap((feature) => feature.options_ ?? [])]);
}

/** docs/migration.md's table of posthog-js options that have no effect: name → the value that asks for the missing product. */
function documentedNoEffect(): Map<string, string> {
  const doc = readFileSync(repoRoot + 'docs/migration.md', 'utf8');
  const section = doc.slice(doc.indexOf('### Options that have no effect'));
  const rows = section.slice(0, section.indexOf('\n\n', section.indexOf('| ---'))).split('\n');
  return new Map(rows.map((row) => /^\| `(\w+)` \| `([^`]+)` \|/.exec(row)).flatMap((match) => (match ? [[match[1]!, match[2]!]] : [])));
}

/** The source of src/ (browser, extensions, core) without comments, string literals and type members: the code that reads options. */
function sourceCode(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('src/browser/config.ts')) files.push(path);
    }
  };
  for (const dir of ['src/browser', 'src/extensions', 'src/core']) walk(repoRoot + dir);
  return files
    .map((file) =>
      readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        .replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`/g, "''")
        .split('\n')
        .filter((line) => !/^\s*(readonly\s+)?\w+\??:\s*[^,;]*;\s*$/.test(line))
        .join('\n'),
    )
    .join('\n');
}

afterEach(() => vi.restoreAllMocks());

describe('every option the types accept works, or warns once that it has no effect', () => {
  const typed = typedOptions();
  const acted = actedOn();
  const noEffect = documentedNoEffect();

  it('each typed option is acted on or documented as having no effect (never both, never neither)', () => {
    expect(typed.length).toBeGreaterThan(60);
    expect(noEffect.size).toBeGreaterThan(0);
    const neither = typed.filter((name) => !acted.has(name) && !noEffect.has(name));
    const both = typed.filter((name) => acted.has(name) && noEffect.has(name));
    const stale = [...noEffect.keys()].filter((name) => !typed.includes(name));
    expect({ neither, both, stale }).toEqual({ neither: [], both: [], stale: [] });
  });

  it('each option a build acts on is read by the source', () => {
    const code = sourceCode();
    const unread = [...acted].filter((name) => !new RegExp(`\\b${name}\\b`).test(code));
    expect(unread).toEqual([]);
  });

  it.each([...documentedNoEffect()])('%s: %s warns once at init, by name', (name, value) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = createHogtail();
    client.init(`phc_audit_${name}`, {
      api_host: 'https://collector.test',
      advanced_disable_flags: true,
      capture_pageview: false,
      [name]: JSON.parse(value),
    });
    client.capture('after init');
    client.set_config({ debug: false });
    const about = warn.mock.calls.map((call) => String(call[0])).filter((text) => text.includes(`"${name}"`));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatch(/no effect/);
  });
});
