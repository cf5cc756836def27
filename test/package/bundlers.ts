// A small app built from the packed package the way users build theirs: Vite for the page and for
// server-side rendering (`vite build --ssr`), esbuild for the browser and node platforms. The page
// builds must hold the real client; the server builds must import, run and call it without throwing.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { runNode, runTool } from '../support/packed';

/** The code a component shares between server and page: import the root entry, start it, use it. */
const APP = `import posthog from 'hogtail';

export function render(): string {
  posthog.init('phc_app', { api_host: 'http://127.0.0.1:1', capture_pageview: false });
  posthog.identify('user-1', { plan: 'pro' });
  posthog.capture('rendered', { page: 'home' });
  const beta = posthog.isFeatureEnabled('beta');
  posthog.reset();
  return '<p>' + posthog.get_distinct_id() + String(beta) + '</p>';
}
`;
/** Only the real client sends batches; only the server's no-op says it is on a server. */
const REAL_CLIENT = '/batch/';
const NOOP_CLIENT = 'no window here';

function app(consumer: string, name: string): string {
  const dir = join(consumer, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/app.ts'), APP);
  return dir;
}

const jsIn = (dir: string): string =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');

/** Imports the built server module, renders, and prints what came back. */
function renderOnServer(consumer: string, file: string) {
  return runNode(consumer, `const { render } = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(render());`);
}

function expectQuietRender(run: ReturnType<typeof runNode>): void {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split('\n')).toEqual([expect.stringContaining(`[hogtail] ${NOOP_CLIENT}`), '<p>undefined</p>']);
}

export function bundlerTests(consumer: () => string): void {
  it('Vite: the page build holds the real client', () => {
    const dir = app(consumer(), 'vite-page');
    writeFileSync(join(dir, 'src/main.ts'), `import { render } from './app';\ndocument.body.innerHTML = render();\n`);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><body><script type="module" src="/src/main.ts"></script></body>');
    const result = runTool(consumer(), 'vite/bin/vite.js', ['build', '--logLevel', 'error'], dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const code = jsIn(join(dir, 'dist'));
    expect(code).toContain(REAL_CLIENT);
    expect(code).not.toContain(NOOP_CLIENT);
  }, 60_000);

  it('Vite --ssr: the server build imports hogtail and calls it without throwing', () => {
    const dir = app(consumer(), 'vite-ssr');
    const result = runTool(consumer(), 'vite/bin/vite.js', ['build', '--ssr', 'src/app.ts', '--logLevel', 'error'], dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // Vite names it app.mjs or app.js depending on the project's `type`.
    const built = readdirSync(join(dir, 'dist')).find((file) => /^app\.m?js$/.test(file));
    expectQuietRender(renderOnServer(consumer(), join(dir, 'dist', built ?? 'app.js')));
  }, 60_000);

  it('esbuild --platform=browser bundles the real client', async () => {
    const dir = app(consumer(), 'esbuild-page');
    const out = await build({
      entryPoints: [join(dir, 'src/app.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.text;
    expect(code).toContain(REAL_CLIENT);
    expect(code).not.toContain(NOOP_CLIENT);
  });

  it.each(['esm', 'cjs'] as const)('esbuild --platform=node (%s) bundles the no-op client, which runs without throwing', async (format) => {
    const dir = app(consumer(), `esbuild-node-${format}`);
    const outfile = join(dir, `dist/app.${format === 'esm' ? 'mjs' : 'cjs'}`);
    await build({ entryPoints: [join(dir, 'src/app.ts')], bundle: true, platform: 'node', format, outfile, logLevel: 'silent' });
    const code = readFileSync(outfile, 'utf8');
    expect(code).not.toContain(REAL_CLIENT);
    expectQuietRender(renderOnServer(consumer(), outfile));
  });
}
