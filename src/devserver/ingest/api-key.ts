/**
 * The project API key as the real capture service checks it.
 */
import { describeType, isAbsent } from './json-shape';
import { refuse, type Refusal } from './types';

const PROJECT_KEY_SHAPE = /^[A-Za-z0-9_-]+$/;

/** The real server's 401 rules for the project key. */
export function readProjectKey(key: unknown): { ok: true; key: string } | Refusal {
  if (isAbsent(key)) return refuse(401, 'the project API key is missing: send it as api_key in the body');
  if (typeof key !== 'string') return refuse(401, `the project API key must be a string, got ${describeType(key)}`);
  if (key.startsWith('phx_')) {
    return refuse(401, 'a personal API key (phx_...) was sent; capture and decide take the project API key (phc_...)');
  }
  if (!PROJECT_KEY_SHAPE.test(key)) return refuse(401, 'the project API key is empty or malformed');
  return { ok: true, key };
}
