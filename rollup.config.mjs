// One build for every entry point. Node-side entries ship as ESM + CJS; the browser ships as
// minified ESM for bundlers plus a minified IIFE for the script tag (both have a size budget,
// checked by scripts/check-size.js). An entry is built once its source exists. The declarations
// (dist/types) and the type check are one tsc run beside this one: see scripts/build.js.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import terser from '@rollup/plugin-terser';
import { MANGLED_PROPERTY } from './scripts/internal-names.js';
import { constToLet } from './scripts/rollup-let.mjs';
import { typescript } from './scripts/rollup-typescript.mjs';
import { extensionBuilds, RRWEB_NOTICE } from './scripts/rollup-extensions.mjs';

const external = (id) => id === 'fflate' || id.startsWith('node:') || id.startsWith('fflate/');

const nodeEntries = Object.fromEntries(
  Object.entries({
    'node/index': 'src/node/index.ts',
    'api/index': 'src/api/index.ts',
    'devserver/index': 'src/devserver/index.ts',
    'cli/index': 'src/cli/index.ts',
    // `hogtail` under the `node` condition: the browser API as no-ops for server-side rendering.
    'ssr/index': 'src/ssr/index.ts',
  }).filter(([, file]) => existsSync(file)),
);

const ts = () => typescript({ tsconfig: './tsconfig.build.json' });

// Property names that end in `_` are internal (scripts/internal-names.js, docs/architecture.md
// "Internal names") and may be shortened in the browser bundles, with a few names public only in
// the server clients' API; every other property keeps its name. A new internal member joins by its
// name, and a test checks that no public, wire, storage or cross-bundle name of the browser
// matches. `builtins: true`: terser otherwise skips a listed name that a DOM interface also has.
// Measured in gzipped bytes: inline: 1 inlines only simple functions (fully inlining single-use
// ones wraps them in IIFEs with hoisted vars: about 35 B more per bundle); loops: false keeps
// while loops as written and negate_iife: false keeps (function(){})(): a few bytes each.
// ascii_only writes … as \u2026: smaller gzipped, and right even when served without a charset.
// forBundlers keeps /* @__PURE__ */ marks, so an app's bundler can drop what the app does not
// import from the npm entry (`import { HogtailError } from 'hogtail'` costs the class, not the client).
const minify = (module, lite = false, forBundlers = false) =>
  terser({
    ecma: 2020,
    module,
    // __HOGTAIL_BROWSER_BUILD__ (src/core/build-flags.ts): server-only queue code leaves the bundles.
    // __LITE__ (src/browser/build-flags.ts): what the lite script tag leaves out.
    compress: {
      global_defs: { __HOGTAIL_BROWSER_BUILD__: true, __LITE__: lite },
      passes: 3,
      inline: 1,
      loops: false,
      negate_iife: false,
      pure_getters: true,
      unsafe: true,
      unsafe_arrows: true,
      unsafe_methods: true,
      unsafe_comps: true,
    },
    mangle: { properties: { regex: MANGLED_PROPERTY, builtins: true } },
    format: { comments: false, ascii_only: true, preserve_annotations: forBundlers },
  });

// The script tags run constToLet (scripts/rollup-let.mjs) before the minifier: `const` as `let`,
// which the minifier can join (162 B gzip off the full tag, 108 B off the lite one).

// A script-tag file is a plain script, valid as CommonJS too, but `.js` in a `"type": "module"`
// package is ESM to Node: `require('hogtail/hogtail.iife.js')` gets this `.cjs` copy instead.
const commonJsTwin = () => ({
  name: 'commonjs-twin',
  generateBundle(_, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk' && chunk.fileName.endsWith('.iife.js')) {
        this.emitFile({ type: 'asset', fileName: chunk.fileName.replace(/\.js$/, '.cjs'), source: chunk.code });
      }
    }
  },
});

// The npm browser entry is three files: the entry itself (the default instance, made by a call
// marked pure), `browser/errors` (the error classes and LIB_VERSION) and `browser/client` (the rest
// of what the entry imports statically). Bundlers drop a side-effect-free file nothing uses, so
// `import { HogtailError } from 'hogtail'` costs the errors file, not the client. Only modules the
// entry reaches statically go to `client`; the lazily loaded autocapture keeps its own chunk.
const ERRORS_CHUNK = /[\\/]src[\\/]core[\\/](errors|version)\.ts$/;
function browserChunks(id, { getModuleIds, getModuleInfo }) {
  if (ERRORS_CHUNK.test(id)) return 'errors';
  if (getModuleInfo(id)?.isEntry) return undefined;
  const entry = [...getModuleIds()].find((each) => getModuleInfo(each)?.isEntry);
  const reached = new Set();
  const walk = (from) => {
    for (const next of getModuleInfo(from)?.importedIds ?? []) if (!reached.has(next)) walk(reached.add(next) && next);
  };
  if (entry) walk(entry);
  return reached.has(id) ? 'client' : undefined;
}

const browser = existsSync('src/browser/index.ts')
  ? [
      {
        // npm `hogtail` (browser condition) and `hogtail/browser`, as ESM and, for require(), CJS.
        input: { 'browser/index': 'src/browser/index.ts' },
        external,
        plugins: [ts()],
        output: [
          // Autocapture is a lazily loaded chunk: a fixed name, so a rebuild never leaves an old one behind.
          {
            dir: 'dist',
            format: 'es',
            entryFileNames: '[name].js',
            chunkFileNames: 'browser/[name].js',
            sourcemap: true,
            manualChunks: browserChunks,
            plugins: [minify(true, false, true)],
          },
          {
            dir: 'dist',
            format: 'cjs',
            entryFileNames: '[name].cjs',
            chunkFileNames: 'browser/[name].cjs',
            sourcemap: true,
            exports: 'named',
            manualChunks: browserChunks,
            plugins: [minify(false, false, true)],
          },
        ],
      },
      {
        // The script tag: everything inlined.
        input: 'src/browser/iife.ts',
        plugins: [ts()],
        output: {
          dir: 'dist',
          entryFileNames: 'hogtail.iife.js',
          format: 'iife',
          sourcemap: true,
          plugins: [constToLet(), minify(false), commonJsTwin()],
        },
      },
      {
        // The lite script tag: hogtail's own API; no posthog-js extras, autocapture, exceptions or cookies.
        input: 'src/browser/iife-lite.ts',
        plugins: [ts()],
        output: {
          dir: 'dist',
          entryFileNames: 'hogtail.lite.iife.js',
          format: 'iife',
          sourcemap: true,
          plugins: [constToLet(), minify(false, true), commonJsTwin()],
        },
      },
    ]
  : [];

const extensions = extensionBuilds({ ts, minify });

// No property mangling here: the React entry's props and context fields are public names.
const minifyReact = (module) =>
  terser({ ecma: 2020, module, compress: { passes: 3, pure_getters: true }, format: { comments: false, ascii_only: true } });

// `hogtail/react`: React and the client stay outside (the app's own copies: one React, one client).
// Minified like the browser entry; its size on top of hogtail is a budget (check-size.js).
const reactExternal = (id) => id === 'react' || id === 'hogtail' || id === 'hogtail/browser';
const react = existsSync('src/react/index.ts')
  ? [
      {
        input: { 'react/index': 'src/react/index.ts' },
        external: reactExternal,
        plugins: [ts()],
        output: [
          { dir: 'dist', format: 'es', entryFileNames: '[name].js', sourcemap: true, plugins: [minifyReact(true)] },
          { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', sourcemap: true, exports: 'named', plugins: [minifyReact(false)] },
        ],
      },
    ]
  : [];

// hogtail/edge: one self-contained file per format (no chunk shared with the Node entry), so a
// runtime without Node's built-ins loads nothing that names one.
const edge = existsSync('src/edge/index.ts')
  ? [
      {
        input: { 'edge/index': 'src/edge/index.ts' },
        external,
        plugins: [ts()],
        output: [
          { dir: 'dist', format: 'es', entryFileNames: '[name].js', sourcemap: true },
          { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', sourcemap: true, exports: 'named' },
        ],
      },
    ]
  : [];

// `hogtail dev` plays recordings with rrweb's player, served by the dev server itself (no CDN): its
// browser bundle and style are copied next to the dev server (src/devserver/replay/player-files.ts).
const rrwebPlayer = {
  name: 'rrweb-player',
  generateBundle() {
    const dir = dirname(createRequire(import.meta.url).resolve('@rrweb/replay'));
    const script = RRWEB_NOTICE + '\n' + readFileSync(join(dir, 'replay.umd.min.cjs'), 'utf8');
    this.emitFile({ type: 'asset', fileName: 'devserver/rrweb-replay.js', source: script });
    this.emitFile({ type: 'asset', fileName: 'devserver/rrweb-replay.css', source: readFileSync(join(dir, 'style.css')) });
  },
};

const server = [
  {
    input: nodeEntries,
    external,
    plugins: [ts(), rrwebPlayer],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        sourcemap: true,
        exports: 'named',
      },
    ],
  },
  ...react,
  ...edge,
];

// scripts/build.js runs the two halves in two processes (HOGTAIL_BUILD=browser or server), one per
// core: rollup builds the configs of one process one after another. Plain `rollup -c` builds all.
const parts = { browser: [...browser, ...extensions], server };
export default parts[process.env.HOGTAIL_BUILD] ?? [...server, ...browser, ...extensions];
