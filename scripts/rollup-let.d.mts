// Types for scripts/rollup-let.mjs, which the tests import (the build imports it as plain JavaScript).
import type { Plugin } from 'rollup';

/** The rollup output plugin that writes each `const` declaration as `let`, in place. */
export declare const constToLet: () => Plugin;
