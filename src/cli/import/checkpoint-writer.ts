/**
 * Writes the checkpoint after every acknowledged chunk without making the import wait for the
 * disk: a write runs in the background, and acknowledgements that arrive meanwhile are folded into
 * one more write when it ends. So the file trails the server by at most one write, never by a
 * fixed period, and a SIGKILL re-sends little more than the request that was in flight.
 */
import { writeCheckpoint, type Checkpoint } from './checkpoint';

export interface CheckpointWriter {
  /** Records the current state soon. Throws the error of an earlier background write. */
  save(): void;
  /** Waits until the current state is on disk; throws if it cannot be written. */
  flush(): Promise<void>;
}

export function createCheckpointWriter(path: string, snapshot: () => Checkpoint): CheckpointWriter {
  let writing: Promise<void> | undefined;
  let again = false;
  let failure: unknown;

  async function writeUntilCurrent(): Promise<void> {
    do {
      again = false;
      await writeCheckpoint(path, snapshot());
    } while (again);
  }

  function start(): void {
    writing = writeUntilCurrent()
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        writing = undefined;
      });
  }

  return {
    save() {
      if (failure !== undefined) throw failure;
      if (writing !== undefined) again = true;
      else start();
    },
    async flush() {
      // A loop: a save() may start another write while this one waits.
      while (writing !== undefined) await writing;
      if (failure !== undefined) throw failure;
      start();
      await writing;
      if (failure !== undefined) throw failure;
    },
  };
}
