// One build for every entry point. Node-side entries ship as ESM + CJS with .d.ts; the browser
// entries (added by the browser issue) ship as ESM plus a minified IIFE for the script tag.
import { existsSync } from 'node:fs';
import typescript from '@rollup/plugin-typescript';

const external = (id) => id === 'fflate' || id.startsWith('node:') || id.startsWith('fflate/');

// name in dist/ -> source file. An entry is built once its source exists, so issues can land one by one.
const nodeEntries = Object.fromEntries(
  Object.entries({
    'node/index': 'src/node/index.ts',
    'api/index': 'src/api/index.ts',
    'devserver/index': 'src/devserver/index.ts',
    'cli/index': 'src/cli/index.ts',
  }).filter(([, file]) => existsSync(file)),
);

export default [
  {
    input: nodeEntries,
    external,
    plugins: [
      typescript({
        tsconfig: './tsconfig.build.json',
        declaration: true,
        declarationDir: 'dist/types',
        outDir: 'dist',
        noEmitOnError: true,
      }),
    ],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: true },
      { dir: 'dist', format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', sourcemap: true, exports: 'named' },
    ],
  },
];
