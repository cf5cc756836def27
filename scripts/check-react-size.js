#!/usr/bin/env node
// Size budget of `hogtail/react` (test:size): what the React bindings add to an app that already
// uses hogtail. Measured as users pay it: an app bundle built with esbuild from dist/ (React left
// out, the app's own), gzipped at level 9, with and without the bindings.
//   - budget (1,024 B): the provider and every hook, the part each React app uses;
//   - reported: everything the entry exports (the components add to it only when imported).
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET = 1_024;
const dist = (file) => new URL(`../dist/${file}`, import.meta.url).pathname;

async function appBytes(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    external: ['react'],
    alias: { 'hogtail/react': dist('react/index.js'), hogtail: dist('browser/index.js') },
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
}

const app = (names) =>
  `import hogtail from 'hogtail';\n${names ? `import { ${names.join(', ')} } from 'hogtail/react';\n` : ''}hogtail.init('phc_key');\nglobalThis.used = [${names ?? ''}];`;

if (!existsSync(dist('react/index.js'))) {
  console.error('size: dist/react/index.js is missing although src/react exists; run npm run build');
  process.exit(1);
}
const hooks = [
  'PostHogProvider',
  'usePostHog',
  'useFeatureFlagEnabled',
  'useFeatureFlagVariantKey',
  'useFeatureFlagPayload',
  'useActiveFeatureFlags',
];
const everything = [...hooks, 'useFeatureFlagResult', 'PostHogFeature', 'PostHogErrorBoundary', 'setupReactErrorHandler', 'PostHogContext'];
const base = await appBytes(app());
const withHooks = (await appBytes(app(hooks))) - base;
const withAll = (await appBytes(app(everything))) - base;
const verdict = withHooks <= BUDGET ? 'ok' : 'OVER BUDGET';
console.log(`size: hogtail/react provider + hooks add ${withHooks} B gzip to an app (budget ${BUDGET}) ${verdict}`);
console.log(`size: hogtail/react with every export (components too) adds ${withAll} B gzip (reported)`);
console.log(`size: ${withHooks <= BUDGET ? 1 : 0} passed, ${withHooks <= BUDGET ? 0 : 1} failed`);
process.exit(withHooks <= BUDGET ? 0 : 1);
