// Progress output: a redrawn bar on a terminal, plain lines in a log. Driven by vitest's fake clock,
// so what is checked is the content of the lines, never how long anything took.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProgress, type ProgressSnapshot } from '../../src/cli/import/progress';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2024, 0, 1) });
});
afterEach(() => {
  vi.useRealTimers();
});

function watch(isTTY: boolean, snapshot: ProgressSnapshot) {
  const written: string[] = [];
  const progress = startProgress({ write: (text) => written.push(text), isTTY, read: () => snapshot, plainIntervalMs: 1_000 });
  return { written, progress };
}

const MB = 1024 * 1024;

describe('import progress', () => {
  it('on a terminal redraws one line: bar, rows, rows/s, bytes, sent, rejected, ETA', () => {
    const snapshot: ProgressSnapshot = { rows: 0, sent: 0, rejected: 0, bytes: 0, totalBytes: 4 * MB };
    const { written, progress } = watch(true, snapshot);
    Object.assign(snapshot, { rows: 12_345, sent: 12_000, rejected: 3, bytes: 2 * MB });
    vi.advanceTimersByTime(1_000);
    const line = written.at(-1)!;
    expect(line.startsWith('\r\x1b[K')).toBe(true);
    expect(line).not.toContain('\n');
    expect(line).toContain('[############------------]  50% ');
    expect(line).toMatch(/12,345 rows, [\d,]+ rows\/s, 2\.0 MB\/4\.0 MB, sent 12,000, rejected 3 ETA \d+:\d\d$/);
    progress.stop();
    expect(written.at(-1)).toBe('\r\x1b[K');
    const count = written.length;
    vi.advanceTimersByTime(10_000);
    expect(written).toHaveLength(count);
  });

  it('without a terminal prints plain lines, no control characters; no bar or ETA when the size is unknown', () => {
    const snapshot: ProgressSnapshot = { rows: 0, sent: 0, rejected: 0, bytes: 0, totalBytes: undefined };
    const { written, progress } = watch(false, snapshot);
    Object.assign(snapshot, { rows: 500, sent: 490, rejected: 10, bytes: 300 * 1024 });
    vi.advanceTimersByTime(1_000);
    Object.assign(snapshot, { rows: 1_500, sent: 1_480, rejected: 20, bytes: 900 * 1024 });
    vi.advanceTimersByTime(1_000);
    progress.stop();
    expect(written).toHaveLength(2);
    expect(written[1]).toMatch(/^progress: 1,500 rows, [\d,]+ rows\/s, 900 KB, sent 1,480, rejected 20\n$/);
    for (const line of written) {
      // eslint-disable-next-line no-control-regex -- ESC is what a terminal progress bar would start with
      expect(line).not.toMatch(/[\r\x1b]/);
      expect(line).not.toMatch(/ETA|%/);
    }
  });
});
