// The one argument parser of every command (issue 18): strict, on node:util parseArgs, with errors
// that say what to type instead.
import { describe, expect, it } from 'vitest';
import { parseFlags, UsageError, type FlagTable } from '../../src/cli/common/flags';
import { parseDevArgs } from '../../src/cli/dev-command';

const TABLE: FlagTable = {
  host: { kind: 'string', help: '' },
  'api-key': { kind: 'string', help: '' },
  resume: { kind: 'boolean', help: '' },
  map: { kind: 'list', help: '' },
  help: { kind: 'boolean', help: '' },
};

const error = (run: () => unknown): string => {
  try {
    run();
  } catch (caught) {
    expect(caught).toBeInstanceOf(UsageError);
    return (caught as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('parseFlags', () => {
  it('reads values both ways, lists, switches, -h, and everything after -- as positionals', () => {
    const parsed = parseFlags(
      ['a.ndjson', '--host', 'http://h', '--api-key=phc_x', '--map', 'a=b', '--map=c=d', '--resume', '-h', '--', '--not-a-flag'],
      TABLE,
    );
    expect(parsed.positionals).toEqual(['a.ndjson', '--not-a-flag']);
    expect(Object.fromEntries(parsed.strings)).toEqual({ host: 'http://h', 'api-key': 'phc_x' });
    expect(parsed.lists.get('map')).toEqual(['a=b', 'c=d']);
    expect([...parsed.booleans].sort()).toEqual(['help', 'resume']);
  });

  it('refuses an unknown flag and suggests the one meant', () => {
    expect(error(() => parseFlags(['--resum'], TABLE))).toBe('unknown option --resum; did you mean --resume?');
    expect(error(() => parseFlags(['--colour', 'red'], TABLE))).toBe('unknown option --colour');
    expect(error(() => parseFlags(['-x'], TABLE))).toBe('unknown option -x');
  });

  it('refuses an ambiguous value: a flag followed by another flag', () => {
    expect(error(() => parseFlags(['--host', '--api-key', 'phc_x'], TABLE))).toBe(
      "--host needs a value, but is followed by --api-key; to give a value that starts with '-', write --host=--api-key",
    );
    expect(parseFlags(['--host=-odd'], TABLE).strings.get('host')).toBe('-odd');
  });

  it('refuses a missing or empty value, a value for a switch, and a single-value flag twice', () => {
    expect(error(() => parseFlags(['--host'], TABLE))).toBe('--host needs a value');
    expect(error(() => parseFlags(['--host='], TABLE))).toBe('--host needs a value');
    expect(error(() => parseFlags(['--resume=yes'], TABLE))).toBe('--resume takes no value');
    expect(error(() => parseFlags(['--host', 'a', '--host', 'b'], TABLE))).toBe('--host was given twice');
  });

  it('passes unknown flags through when asked, with their values', () => {
    const parsed = parseFlags(['--prompt', 'count users', '--kind=sql', 'positional'], TABLE, { passThrough: true });
    expect(Object.fromEntries(parsed.extra)).toEqual({ prompt: 'count users', kind: 'sql' });
    expect(parsed.positionals).toEqual(['positional']);
    expect(error(() => parseFlags(['--prompt'], TABLE, { passThrough: true }))).toBe('--prompt needs a value');
  });

  it('hogtail dev reads its flags through it', () => {
    expect(parseDevArgs(['--port', '0', '--open', '--data=d'])).toMatchObject({ port: 0, open: true, data: 'd', host: '127.0.0.1' });
    expect(error(() => parseDevArgs(['--prot', '1']))).toBe('unknown option --prot; did you mean --port?');
    expect(error(() => parseDevArgs(['stray']))).toBe("unexpected argument 'stray'");
  });

  it('hogtail dev turns web vitals, heatmaps and dead clicks on unless a --no- flag says otherwise', () => {
    expect(parseDevArgs([]).products).toEqual({ webVitals: true, heatmaps: true, deadClicks: true });
    expect(parseDevArgs(['--no-heatmaps', '--no-dead-clicks']).products).toEqual({ webVitals: true, heatmaps: false, deadClicks: false });
    expect(parseDevArgs(['--no-web-vitals']).products).toEqual({ webVitals: false, heatmaps: true, deadClicks: true });
  });
});
