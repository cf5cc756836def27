/** Node's sha1 for the flag engine's bucketing hash (core cannot import node:crypto). */
import { createHash } from 'node:crypto';

export const sha1Hex = (text: string): string => createHash('sha1').update(text, 'utf8').digest('hex');
