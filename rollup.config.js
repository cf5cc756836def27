// One build for every entry point. Node-side entries ship as ESM + CJS with .d.ts; the browser
// ships as minified ESM for bundlers plus a minified IIFE for the script tag (both have a size
// budget, checked by scripts/check-size.js). An entry is built once its source exists.
import { existsSync } from 'node:fs';
import typescript from '@rollup/plugin-typescript';
import terser from '@rollup/plugin-terser';

const external = (id) => id === 'fflate' || id.startsWith('node:') || id.startsWith('fflate/');

const nodeEntries = Object.fromEntries(
  Object.entries({
    'node/index': 'src/node/index.ts',
    'api/index': 'src/api/index.ts',
    'devserver/index': 'src/devserver/index.ts',
    'cli/index': 'src/cli/index.ts',
  }).filter(([, file]) => existsSync(file)),
);

const ts = () =>
  typescript({
    tsconfig: './tsconfig.build.json',
    declaration: true,
    declarationDir: 'dist/types',
    outDir: 'dist',
    noEmitOnError: true,
  });

// Property names that exist only inside hogtail (never persisted, public or on the wire) may be
// shortened in the browser bundles; every other property keeps its name. `builtins: true` because
// terser otherwise skips any name a DOM interface also has (state, json, kind, items, ok, url…):
// so a name may join the list only if no browser object's property of that name is ever used.
const internalProperties =
  /^(segment|items|live|chars|targetSeq|seq|notes|record|leave|adopt|others|appended|removed|countDrop|enqueue|restore|session|setDebug|state|save|list|retain|json|kind|distinctId|personProperties|groupProperties|historicalMigration|apiKey|executor|compress|contentType|timeoutMs|retryAfter|retryAfterMs|flushAt|flushIntervalMs|maxBatchSize|maxBatchBytes|maxQueueSize|maxQueueBytes|initialDelayMs|maxDelayMs|maxAttempts|maxRetryAfterMs|onDrop|onRetry|properties|ok|url|send)$/;
// Measured in gzipped bytes: inline: 1 inlines only simple functions (fully inlining single-use
// ones wraps them in IIFEs with hoisted vars: about 35 B more per bundle); loops: false keeps
// while loops as written and negate_iife: false keeps (function(){})(): a few bytes each.
// ascii_only writes … as \u2026: smaller gzipped, and right even when served without a charset.
const minify = (module) =>
  terser({
    ecma: 2020,
    module,
    compress: { passes: 3, inline: 1, loops: false, negate_iife: false, pure_getters: true, unsafe: true, unsafe_arrows: true, unsafe_methods: true, unsafe_comps: true },
    mangle: { properties: { regex: internalProperties, builtins: true } },
    format: { comments: false, ascii_only: true },
  });

const browser = existsSync('src/browser/index.ts')
  ? [
      {
        // npm `hogtail` (browser condition) and `hogtail/browser`.
        input: { 'browser/index': 'src/browser/index.ts' },
        external,
        plugins: [ts()],
        output: { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'browser/[name].js', sourcemap: true, plugins: [minify(true)] },
      },
      {
        // The script tag: everything inlined.
        input: 'src/browser/iife.ts',
        plugins: [ts()],
        output: { dir: 'dist', entryFileNames: 'hogtail.iife.js', format: 'iife', sourcemap: true, plugins: [minify(false)] },
      },
    ]
  : [];

export default [
  {
    input: nodeEntries,
    external,
    plugins: [ts()],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
      { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', sourcemap: true, exports: 'named' },
    ],
  },
  ...browser,
];
