// The extension builds (src/extensions/<name>/), apart from rollup.config.mjs, which hands in its
// TypeScript plugin and its minifier: surveys, web vitals, heatmaps, dead clicks and session
// replay's recorder. None of their code or libraries enters the script tags.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import terser from '@rollup/plugin-terser';

// rrweb's MIT license asks that its notice travel with its code (the recorder and the dev player).
export const RRWEB_NOTICE = '/*! Includes rrweb (https://github.com/rrweb-io/rrweb), MIT License, Copyright (c) 2018 Contributors */';

// Extensions (src/extensions/<name>/): each is a script-tag file of its own, dist/hogtail.<name>.js,
// that the tag's loader fetches when the project turns the product on, and an npm entry,
// hogtail/<name>, for bundlers. Never part of the script tags; minified like them (their internal
// names are their own: only ExtensionContext's plain names cross between the files).
const extension = (name, ts, minify) =>
  existsSync(`src/extensions/${name}/index.ts`)
    ? [
        {
          input: `src/extensions/${name}/iife.ts`,
          plugins: [ts()],
          output: { dir: 'dist', entryFileNames: `hogtail.${name}.js`, format: 'iife', sourcemap: true, plugins: [minify(false)] },
        },
        {
          input: { [`${name}/index`]: `src/extensions/${name}/index.ts` },
          plugins: [ts()],
          output: [
            { dir: 'dist', format: 'es', entryFileNames: '[name].js', sourcemap: true, plugins: [minify(true, false, true)] },
            {
              dir: 'dist',
              format: 'cjs',
              entryFileNames: '[name].cjs',
              sourcemap: true,
              exports: 'named',
              plugins: [minify(false, false, true)],
            },
          ],
        },
      ]
    : [];

// Extensions (src/extensions/<name>): `hogtail/<name>` for bundlers (ESM and CJS) and dist/hogtail.<name>.js, the file the script tag's loader
// fetches. Each is minified on its own (the names it shares with the client are plain ones), and
// none of their code or libraries enters the script tags. Sizes: scripts/check-extension-size.js.
const PRODUCTS = ['web-vitals', 'heatmaps', 'dead-clicks'].filter((name) => existsSync(`src/extensions/${name}/index.ts`));
const productExtensions = (ts, minify) =>
  PRODUCTS.length
    ? [
        {
          input: Object.fromEntries(PRODUCTS.map((name) => [`extensions/${name}`, `src/extensions/${name}/index.ts`])),
          plugins: [ts()],
          output: [
            {
              dir: 'dist',
              format: 'es',
              entryFileNames: '[name].js',
              chunkFileNames: 'extensions/[name].js',
              sourcemap: true,
              plugins: [minify(true, false, true)],
            },
            {
              dir: 'dist',
              format: 'cjs',
              entryFileNames: '[name].cjs',
              chunkFileNames: 'extensions/[name].cjs',
              sourcemap: true,
              exports: 'named',
              plugins: [minify(false, false, true)],
            },
          ],
        },
        ...PRODUCTS.map((name) => ({
          input: `src/extensions/${name}/iife.ts`,
          plugins: [ts()],
          output: { dir: 'dist', entryFileNames: `hogtail.${name}.js`, format: 'iife', sourcemap: true, plugins: [minify(false)] },
        })),
      ]
    : [];

// Session replay (issue #24): the recorder extension, rrweb inside. `dist/hogtail.recorder.js` is
// the file the script tag loads only when recording is turned on (never part of the tag itself);
// `hogtail/recorder` the npm entry. No property mangling: rrweb reads DOM properties (such as
// `contentType`) that the browser bundles' list would shorten.
const minifyExtension = (module) =>
  terser({
    ecma: 2020,
    module,
    compress: { global_defs: { __HOGTAIL_BROWSER_BUILD__: true, __LITE__: false }, passes: 2, pure_getters: true },
    format: { comments: /^!/, ascii_only: true },
  });
// rrweb's ESM build, bundled in (the build has no general module resolver: nothing else needs one).
const rrwebRecord = {
  name: 'rrweb-record',
  resolveId: (id) => (id === '@rrweb/record' ? join(dirname(createRequire(import.meta.url).resolve('@rrweb/record')), 'record.js') : null),
};
const recorder = (ts) =>
  existsSync('src/extensions/recorder/index.ts')
    ? [
        {
          input: 'src/extensions/recorder/iife.ts',
          plugins: [ts(), rrwebRecord],
          output: {
            dir: 'dist',
            entryFileNames: 'hogtail.recorder.js',
            format: 'iife',
            sourcemap: true,
            banner: RRWEB_NOTICE,
            plugins: [minifyExtension(false)],
          },
        },
        {
          input: { 'recorder/index': 'src/extensions/recorder/index.ts' },
          plugins: [ts(), rrwebRecord],
          output: [
            {
              dir: 'dist',
              format: 'es',
              entryFileNames: '[name].js',
              sourcemap: true,
              banner: RRWEB_NOTICE,
              plugins: [minifyExtension(true)],
            },
            {
              dir: 'dist',
              format: 'cjs',
              entryFileNames: '[name].cjs',
              sourcemap: true,
              exports: 'named',
              banner: RRWEB_NOTICE,
              plugins: [minifyExtension(false)],
            },
          ],
        },
      ]
    : [];

/** Every extension's builds: `ts()` makes the TypeScript plugin, `minify(module, lite, forBundlers)` the browser minifier. */
export const extensionBuilds = ({ ts, minify }) => [...extension('surveys', ts, minify), ...productExtensions(ts, minify), ...recorder(ts)];
