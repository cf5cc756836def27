/**
 * Progress for a person watching a terminal (one redrawn bar line) or for a log file (a plain line
 * every few seconds, never control characters). Reads a snapshot on each tick rather than being
 * told about every row, so the hot loop pays nothing for it.
 */
export interface ProgressSnapshot {
  /** Rows read from the sources in this run (skipped ones on --resume included). */
  rows: number;
  sent: number;
  rejected: number;
  bytes: number;
  /** Total input bytes when every source is a file; undefined for stdin. */
  totalBytes: number | undefined;
}

export interface Progress {
  stop(): void;
}

export interface ProgressOptions {
  write: (text: string) => void;
  isTTY: boolean;
  read: () => ProgressSnapshot;
  /** Plain-line period; the bar redraws far more often. */
  plainIntervalMs?: number;
}

const BAR_WIDTH = 24;

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export function startProgress(options: ProgressOptions): Progress {
  const started = Date.now();
  let last = { at: started, rows: 0 };
  let rate = 0;

  function describe(snapshot: ProgressSnapshot): { fraction: number | undefined; text: string } {
    const now = Date.now();
    const elapsed = now - last.at;
    if (elapsed > 0) {
      const instant = ((snapshot.rows - last.rows) / elapsed) * 1000;
      // Smoothed so the figure does not flicker with every request.
      rate = rate === 0 ? instant : rate * 0.7 + instant * 0.3;
      last = { at: now, rows: snapshot.rows };
    }
    const fraction = snapshot.totalBytes ? Math.min(1, snapshot.bytes / snapshot.totalBytes) : undefined;
    let eta = '';
    if (fraction !== undefined && fraction > 0.001) {
      const spent = now - started;
      eta = ` ETA ${formatDuration((spent / fraction) * (1 - fraction))}`;
    }
    const size = snapshot.totalBytes ? `${formatBytes(snapshot.bytes)}/${formatBytes(snapshot.totalBytes)}` : formatBytes(snapshot.bytes);
    const text =
      `${formatCount(snapshot.rows)} rows, ${formatCount(rate)} rows/s, ${size}, ` +
      `sent ${formatCount(snapshot.sent)}, rejected ${formatCount(snapshot.rejected)}${eta}`;
    return { fraction, text };
  }

  let timer: ReturnType<typeof setInterval>;
  if (options.isTTY) {
    timer = setInterval(() => {
      const { fraction, text } = describe(options.read());
      let bar = '';
      if (fraction !== undefined) {
        const filled = Math.round(fraction * BAR_WIDTH);
        bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% `;
      }
      options.write(`\r\x1b[K${bar}${text}`);
    }, 200);
  } else {
    timer = setInterval(() => options.write(`progress: ${describe(options.read()).text}\n`), options.plainIntervalMs ?? 5_000);
  }
  // Progress must never be what keeps the process alive.
  timer.unref();

  return {
    stop() {
      clearInterval(timer);
      if (options.isTTY) options.write('\r\x1b[K');
    },
  };
}
