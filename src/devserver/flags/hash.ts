/** PostHog's bucketing hash (see core/flag-engine/hash.ts) with node:crypto's sha1. */
import { createHash } from 'node:crypto';
import { createFlagHasher, type EngineOptions } from '../../core/flag-engine';

export const sha1Hex = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');

export const flagHash = createFlagHasher(sha1Hex);

/** The dev server is the server: it holds every property it was told, so nothing it lacks is "unknown". */
export const SERVER_ENGINE: EngineOptions = { hash: flagHash, knowsAllProperties: true };
