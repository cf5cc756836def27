/**
 * How much of an answer each kind of request reads (docs/wire-protocol.md, "Response caps"). An
 * answer is read into memory, so every read is capped: a misbehaving host (an endless or huge body)
 * costs at most the cap. Each kind has its own, sized for what a real PostHog server sends: a batch
 * answer is a few bytes, a flags answer about 350 bytes per flag, flag definitions a few KB per flag
 * with its conditions and cohorts. The flags and definitions caps leave room for tens of thousands
 * of flags; a project past them is told so, never handed a silently cut answer.
 */

const KIB = 1024;
const MIB = 1024 * KIB;

/** `{"status":"Ok"}`, an error text, or the start of a wrong host's page (enough to name it). */
export const BATCH_RESPONSE_CAP = 64 * KIB;

/** `/flags/?v=2` and `/decide/?v=3` answers: all flags of a person, with their payloads. */
export const FLAGS_RESPONSE_CAP = 16 * MIB;

/** The flag definitions of a project, for local evaluation. */
export const DEFINITIONS_RESPONSE_CAP = 64 * MIB;

/** A cap as people write it: `64 MiB`, `64 KiB`. */
export function describeCap(bytes: number): string {
  return bytes >= MIB ? `${bytes / MIB} MiB` : `${bytes / KIB} KiB`;
}
