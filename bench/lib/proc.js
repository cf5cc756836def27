// What the benches read from Linux's /proc: every process's CPU time and the machine's busy time.
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux build these benches run on. */
export const TICKS_PER_SECOND = 100;

/**
 * Every process now running: pid, command name, start time (a reused pid is a new process), CPU
 * ticks of all its threads, and its command line on demand. A process that ends while being read
 * is left out.
 */
export function* processes() {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    yield {
      pid,
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      startTime: fields[19],
      ticks: Number(fields[11]) + Number(fields[12]), // utime + stime
      cmdline: () => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          return '';
        }
      },
    };
  }
}

/** The machine's busy CPU ticks since boot, all cores (user, nice, system, irq, softirq, steal). */
export function machineBusyTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + (steal ?? 0);
}
