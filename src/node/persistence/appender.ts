/**
 * The open end of the journal, and when its bytes are forced to disk.
 *
 * Every record is handed to the kernel with writeSync before capture() returns. From then on it
 * survives the process dying in any way (SIGKILL, OOM, a crash): the page cache belongs to the
 * kernel. Only a kernel crash or power loss can still take it, until it is fsynced:
 *   - 'always':   fdatasync after every queued event. Nothing accepted by capture() is lost even
 *                 on power loss, at the cost of one disk flush per event (about 250 µs here; far
 *                 more on network disks), which caps throughput at a few thousand events/s.
 *   - 'interval': fdatasync at most every `intervalMs`, off the main thread. A power loss or kernel
 *                 crash can lose the events of the last interval; a process crash loses nothing.
 * Acknowledgements are never synced on their own: losing one only makes the next run resend an
 * event the server already has, with the same uuid.
 */
import { closeSync, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { setBackgroundTimeout, type TimerHandle } from '../../core/timers';

export type FsyncMode = 'always' | 'interval';

export interface Appender {
  /** Appends whole or throws (a short write is a full disk). `durable`: an event, not an ack. */
  write(bytes: Uint8Array, durable: boolean): void;
  /** Syncs (unless `sync` is false: the file was replaced and nobody will read it) and closes. */
  close(sync?: boolean): void;
}

export function openAppender(path: string, mode: FsyncMode, intervalMs: number, onSyncError: (error: unknown) => void): Appender {
  const fd = openSync(path, 'a');
  let dirty = false;
  let syncing = false;
  let closed = false;
  let timer: TimerHandle | undefined;

  function syncSoon(): void {
    if (timer !== undefined || closed) return;
    // Unref'd: a pending sync never keeps the process alive; close() syncs what is left.
    timer = setBackgroundTimeout(() => {
      timer = undefined;
      if (closed || !dirty) return;
      if (syncing) return syncSoon();
      dirty = false;
      syncing = true;
      // In the thread pool, so a slow disk never stalls capture() for the length of a flush.
      fdatasync(fd, (error) => {
        syncing = false;
        if (error && !closed) onSyncError(error);
      });
    }, intervalMs);
  }

  return {
    write(bytes, durable) {
      const written = writeSync(fd, bytes);
      if (written !== bytes.length) {
        throw new Error(`only ${written} of ${bytes.length} bytes were written: the disk is full or a file size limit was reached`);
      }
      if (durable && mode === 'always') {
        fdatasyncSync(fd);
      } else {
        dirty = true;
        syncSoon();
      }
    },
    close(sync = true) {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      try {
        if (sync && dirty) fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}
