/** Removes a file when it is there; a file already gone, or a directory turned unwritable, is no error here. */
import { unlinkSync } from 'node:fs';

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone, or the directory became unwritable: nothing more to do here
  }
}
