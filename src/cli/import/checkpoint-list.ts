/**
 * The checkpoints in a directory and what each belongs to, for the message of a --resume that finds
 * none for its input: the person can see whether the input moved, changed, or was never started here.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readCheckpoint } from './checkpoint';
import { formatCount } from './progress';

const DEFAULT_CHECKPOINT_NAME = /^hogtail-import-.+\.checkpoint\.json$/;

export async function describeCheckpointsIn(dir: string): Promise<string> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => DEFAULT_CHECKPOINT_NAME.test(name)).sort();
  if (names.length === 0) return `There is no hogtail-import-*.checkpoint.json in ${dir}.`;
  const lines = [`Checkpoints in ${dir}:`];
  for (const name of names) {
    try {
      const checkpoint = await readCheckpoint(join(dir, name));
      if (checkpoint === undefined) continue;
      const inputs = checkpoint.sources.map((s) => `${s.path ?? s.label} (${formatCount(s.rows)} rows${s.complete ? ', complete' : ''})`);
      lines.push(`  ${name}: ${inputs.join(', ')}; ${formatCount(checkpoint.sent)} sent, updated ${checkpoint.updatedAt}`);
    } catch (error) {
      lines.push(`  ${name}: unreadable (${(error as Error).message})`);
    }
  }
  return lines.join('\n');
}
