/**
 * The project API key as the real capture service checks it: whitespace around it is trimmed, then
 * it must be non-empty, at most 64 characters, ASCII, not a personal key (`phx_…`) and free of NUL;
 * anything else is a 401.
 */
import { describeType, isAbsent } from './json-shape';
import { refuse, type Refusal } from './types';

const MAX_KEY_LENGTH = 64;
const NON_ASCII = /[\u0080-\uffff]/;

export function readProjectKey(key: unknown): { ok: true; key: string } | Refusal {
  if (isAbsent(key)) return refuse(401, 'the project API key is missing: send it as api_key in the body');
  if (typeof key !== 'string') return refuse(401, `the project API key must be a string, got ${describeType(key)}`);
  const trimmed = key.trim();
  if (trimmed === '') return refuse(401, 'the project API key is empty');
  if (trimmed.length > MAX_KEY_LENGTH) {
    return refuse(401, `the project API key is ${trimmed.length} characters long; a project key has at most ${MAX_KEY_LENGTH}`);
  }
  if (NON_ASCII.test(trimmed))
    return refuse(401, 'the project API key has characters outside ASCII; copy it again from the project settings');
  if (trimmed.startsWith('phx_')) {
    return refuse(401, 'a personal API key (phx_...) was sent; capture and decide take the project API key (phc_...)');
  }
  if (trimmed.includes('\u0000')) return refuse(401, 'the project API key contains a NUL character');
  return { ok: true, key: trimmed };
}
