// What bundlers may leave out of the packed package. `sideEffects` in package.json names the files
// that install globals (the script tags): an app's bare `import 'hogtail/hogtail.iife.js'` must
// survive, while everything else is droppable, so importing an error class does not pull in the
// whole browser client (rollup.config.mjs splits the npm browser entry for this).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { runTool } from '../support/packed';

/** Only the real client sends batches. */
const REAL_CLIENT = '/batch/';

function viteApp(consumer: string, name: string, main: string): string {
  const dir = join(consumer, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/main.ts'), main);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><body><script type="module" src="/src/main.ts"></script></body>');
  const result = runTool(consumer, 'vite/bin/vite.js', ['build', '--logLevel', 'error'], dir);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const assets = join(dir, 'dist/assets');
  return readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
}

async function esbuildApp(consumer: string, name: string, main: string): Promise<string> {
  const dir = join(consumer, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'main.ts'), main);
  const out = await build({
    entryPoints: [join(dir, 'main.ts')],
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

const SCRIPT_TAG_IMPORT = `import 'hogtail/hogtail.iife.js';\nwindow.hogtail.init('phc_app');\n`;
const ERROR_CLASS_IMPORT = `import { HogtailError } from 'hogtail';\nconsole.log(new HogtailError('x') instanceof Error);\n`;

export function sideEffectTests(consumer: () => string): void {
  it("Vite keeps `import 'hogtail/hogtail.iife.js'`: the script tag installs window.hogtail", () => {
    expect(viteApp(consumer(), 'vite-script-tag', SCRIPT_TAG_IMPORT)).toContain(REAL_CLIENT);
  }, 60_000);

  it("esbuild keeps `import 'hogtail/hogtail.iife.js'`", async () => {
    expect(await esbuildApp(consumer(), 'esbuild-script-tag', SCRIPT_TAG_IMPORT)).toContain(REAL_CLIENT);
  });

  it("esbuild: `import { HogtailError } from 'hogtail'` costs the class, not the client", async () => {
    const code = await esbuildApp(consumer(), 'esbuild-error-class', ERROR_CLASS_IMPORT);
    expect(code).toContain('HogtailError');
    expect(code).not.toContain(REAL_CLIENT);
    // The class and the app's line, minified: about 100 bytes (the whole client is over 40,000).
    expect(code.length).toBeLessThan(400);
  });

  it("Vite: `import { HogtailError } from 'hogtail'` leaves the client out", () => {
    const code = viteApp(consumer(), 'vite-error-class', ERROR_CLASS_IMPORT);
    expect(code).toContain('HogtailError');
    expect(code).not.toContain(REAL_CLIENT);
    // Vite's module-preload helper is most of what is left; the client alone is over 40,000 bytes.
    expect(code.length).toBeLessThan(3_000);
  }, 60_000);
}
