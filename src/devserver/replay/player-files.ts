/**
 * rrweb's player, served by `hogtail dev` itself (no CDN: a recording is watched with no network
 * and no account). The build copies @rrweb/replay's browser bundle and style next to the dev
 * server (dist/devserver/rrweb-replay.js and .css); running from the sources (tests), it is read
 * from node_modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PLAYER_SCRIPT = 'rrweb-replay.js';
export const PLAYER_STYLE = 'rrweb-replay.css';

/** Where @rrweb/replay keeps each file in its package. */
const IN_PACKAGE: Record<string, string> = { [PLAYER_SCRIPT]: 'replay.umd.min.cjs', [PLAYER_STYLE]: 'style.css' };

function locate(name: string): string | undefined {
  // dist/chunks/*.js, dist/devserver/*.js and dist/cli/*.js all sit one folder below dist/.
  const copied = join(dirname(fileURLToPath(import.meta.url)), '..', 'devserver', name);
  if (existsSync(copied)) return copied;
  try {
    const entry = createRequire(import.meta.url).resolve('@rrweb/replay');
    return join(dirname(entry), IN_PACKAGE[name]!);
  } catch {
    return undefined;
  }
}

const cache = new Map<string, string | undefined>();

/** The file's text, or undefined when this install has no player (said by the player page). */
export function playerFile(name: typeof PLAYER_SCRIPT | typeof PLAYER_STYLE): string | undefined {
  if (!cache.has(name)) {
    const path = locate(name);
    cache.set(name, path === undefined ? undefined : readFileSync(path, 'utf8'));
  }
  return cache.get(name);
}
