/** The closing lines of an import: what happened, how fast, and what to do next. */
import { formatCount, formatDuration } from './progress';

export interface ImportSummary {
  outcome: 'complete' | 'interrupted' | 'failed' | 'dry-run';
  sent: number;
  /** Rows that would be sent (dry run). */
  valid: number;
  rejected: number;
  skippedOnResume: number;
  rowsRead: number;
  durationMs: number;
  rejectsPath: string | undefined;
  checkpointPath: string | undefined;
  /** Earlier runs' totals when resuming. */
  previousSent: number;
  firstRejects: string[];
}

export function formatSummary(s: ImportSummary): string {
  const seconds = Math.max(s.durationMs, 1) / 1000;
  const rate = `${formatCount(s.rowsRead / seconds)} rows/s`;
  const lines: string[] = [];
  if (s.outcome === 'dry-run') {
    lines.push(
      `dry run: ${formatCount(s.valid)} rows valid, ${formatCount(s.rejected)} rejected, nothing sent (${formatDuration(s.durationMs)}, ${rate})`,
    );
  } else {
    const head = s.outcome === 'complete' ? 'import complete' : s.outcome === 'interrupted' ? 'import interrupted' : 'import stopped';
    lines.push(
      `${head}: ${formatCount(s.sent)} sent, ${formatCount(s.rejected)} rejected, ` +
        `${formatCount(s.skippedOnResume)} skipped as already sent, in ${formatDuration(s.durationMs)} (${rate})`,
    );
    if (s.previousSent > 0) lines.push(`earlier runs sent ${formatCount(s.previousSent)} more`);
  }
  if (s.rejected > 0) {
    lines.push(s.rejectsPath !== undefined ? `rejected rows: ${s.rejectsPath}` : 'rejected rows (pass --rejects FILE to keep them all):');
    for (const reject of s.firstRejects) lines.push(`  ${reject}`);
  }
  if (s.checkpointPath !== undefined) lines.push(`checkpoint: ${s.checkpointPath}`);
  return lines.join('\n') + '\n';
}
