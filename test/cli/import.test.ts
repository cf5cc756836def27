// `hogtail import` end to end against the real collector on 127.0.0.1 (issue 7): good and bad rows in
// every format, gzip, stdin, rejects, dry run, checkpoints.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import-command';
import { createCollector, type Collector } from '../../src/devserver';
import { runCommand, tempDir } from '../support/command-io';
import { createFaultCollector } from '../support/fault-collector';
import { createRowUuids } from '../../src/cli/import/row-uuid';

let collector: Collector;
let dir: string;
beforeEach(async () => {
  collector = await createCollector();
  dir = tempDir();
});
afterEach(async () => {
  await collector.close();
});

const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();

/** 30 good rows with 4 bad ones between them; returns the text and the bad rows' lines. */
function ndjsonFixture(): { text: string; badLines: Record<number, RegExp>; good: number } {
  const lines: string[] = [];
  const badLines: Record<number, RegExp> = {};
  let good = 0;
  for (let i = 0; i < 30; i++) {
    if (i === 5) {
      lines.push('{"event":"","distinct_id":"u","timestamp":"2024-01-01T00:00:00Z"}');
      badLines[lines.length] = /event name/;
    }
    if (i === 12) {
      lines.push('{"event":"x","distinct_id":"   ","timestamp":"2024-01-01T00:00:00Z"}');
      badLines[lines.length] = /distinct id/;
      lines.push('{"event":"x", nope');
      badLines[lines.length] = /not valid JSON/;
    }
    if (i === 20) {
      lines.push('{"event":"$pageview","distinct_id":"u","timestamp":"2024-01-01T00:00:00Z","properties":{}}');
      badLines[lines.length] = /\$current_url/;
    }
    lines.push(
      JSON.stringify({
        event: i % 3 ? 'clicked' : '$pageview',
        distinct_id: `user-${i % 4}`,
        timestamp: at(i),
        properties: { i, $current_url: `https://a.test/${i}` },
      }),
    );
    good++;
  }
  return { text: lines.join('\n') + '\n', badLines, good };
}

function rejectsOf(path: string): Array<{ line: number; reason: string; source: string }> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const connection = () => ['--api-key', 'phc_test', '--host', collector.url];

describe('hogtail import', () => {
  it('sends valid NDJSON rows in file order as a historical migration, and lists every bad row with line and reason', async () => {
    const { text, badLines, good } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    const result = await runCommand(
      runImportCommand,
      ['events.ndjson', ...connection(), '--rejects', 'bad.ndjson', '--batch-size', '7', '--checkpoint-rows', '10'],
      { cwd: dir },
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/import complete: 30 sent, 4 rejected/);
    expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: good }, (_, i) => i));
    expect(collector.events.every((e) => e.historical_migration)).toBe(true);
    expect(collector.events[1]).toMatchObject({ event: 'clicked', distinct_id: 'user-1', timestamp: at(1) });
    expect(new Set(collector.events.map((e) => e.uuid)).size).toBe(good);
    expect(collector.rejections).toEqual([]);

    const rejects = rejectsOf(join(dir, 'bad.ndjson'));
    expect(rejects.map((r) => r.line)).toEqual(Object.keys(badLines).map(Number));
    for (const reject of rejects) {
      expect(reject.source).toBe('events.ndjson');
      expect(reject.reason).toMatch(badLines[reject.line]!);
    }
  });

  it('reads CSV with a header, --map and --timestamp-format, quoted fields included', async () => {
    const csv = [
      'action,user,ts,url,note',
      `$pageview,u1,${Date.UTC(2024, 0, 1) / 1000},https://a.test/1,"hello, ""world"""`,
      `signed up,u2,${Date.UTC(2024, 0, 2) / 1000},,"two`,
      `lines"`,
      `$pageview,u3,${Date.UTC(2024, 0, 3) / 1000},,no url`,
      `bought,,${Date.UTC(2024, 0, 4) / 1000},,no user`,
      `bought,u5,yesterday,,bad time`,
      `bought,u6,${Date.UTC(2024, 0, 6) / 1000},,ok`,
    ].join('\n');
    writeFileSync(join(dir, 'events.csv'), csv);
    const result = await runCommand(
      runImportCommand,
      [
        'events.csv',
        ...connection(),
        '--map',
        'event=action,distinct_id=user,timestamp=ts',
        '--map',
        '$current_url=url',
        '--timestamp-format',
        'epoch-s',
        '--rejects',
        'bad.ndjson',
      ],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(collector.events.map((e) => [e.event, e.distinct_id, e.timestamp])).toEqual([
      ['$pageview', 'u1', '2024-01-01T00:00:00.000Z'],
      ['signed up', 'u2', '2024-01-02T00:00:00.000Z'],
      ['bought', 'u6', '2024-01-06T00:00:00.000Z'],
    ]);
    expect(collector.events[0]!.properties).toMatchObject({ $current_url: 'https://a.test/1', note: 'hello, "world"' });
    expect(collector.events[1]!.properties.note).toBe('two\nlines');
    expect(rejectsOf(join(dir, 'bad.ndjson')).map((r) => [r.line, r.reason])).toEqual([
      [5, expect.stringMatching(/\$current_url/)],
      [6, expect.stringMatching(/distinct id/)],
      [7, expect.stringMatching(/yesterday/)],
    ]);
  });

  it('reads gzip by its magic bytes, whatever the name, and JSON arrays', async () => {
    const events = Array.from({ length: 5 }, (_, i) => ({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i } }));
    writeFileSync(join(dir, 'export.data'), gzipSync(JSON.stringify(events, null, 2)));
    const result = await runCommand(runImportCommand, ['export.data', ...connection()], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 2, 3, 4]);
  });

  it('reads stdin (gzipped NDJSON) when no file is given', async () => {
    const { text, good } = ndjsonFixture();
    const result = await runCommand(runImportCommand, [...connection(), '--rejects', 'bad.ndjson'], { cwd: dir, stdin: gzipSync(text) });
    expect(result.code, result.stderr).toBe(0);
    expect(collector.events).toHaveLength(good);
    expect(rejectsOf(join(dir, 'bad.ndjson'))).toHaveLength(4);
  });

  it('--dry-run validates and sends nothing, and needs no key', async () => {
    const { text, good } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    const result = await runCommand(runImportCommand, ['events.ndjson', '--dry-run', '--host', collector.url], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`dry run: ${good} rows valid, 4 rejected, nothing sent`));
    expect(result.stdout).toMatch(/events.ndjson:6: event name/);
    expect(collector.requests).toBe(0);
    expect(readdirSync(dir)).toEqual(['events.ndjson']);
  });

  it('keeps a checkpoint: a second run refuses without --resume, and with it finds nothing left to send', async () => {
    const { text, good } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    expect((await runCommand(runImportCommand, ['events.ndjson', ...connection()], { cwd: dir })).code).toBe(0);
    const again = await runCommand(runImportCommand, ['events.ndjson', ...connection()], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--resume/);
    const resumed = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--resume'], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/nothing to do/);
    expect(collector.events).toHaveLength(good);
  });

  it('refuses a personal key and an unknown option before reading anything', async () => {
    const personal = await runCommand(runImportCommand, ['x.ndjson', '--api-key', 'phx_secret', '--host', collector.url], { cwd: dir });
    expect(personal.code).toBe(2);
    expect(personal.stderr).toMatch(/personal API key/);
    const typo = await runCommand(runImportCommand, ['x.ndjson', '--resum'], { cwd: dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown option --resum/);
  });

  it('stops with exit 1 when the server refuses the key, and the checkpoint claims nothing', async () => {
    await collector.close();
    collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 401 }) });
    const { text } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    const result = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--checkpoint', 'cp.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/project API key/);
    expect(result.stderr).toMatch(/--resume/);
    const checkpoint = JSON.parse(readFileSync(join(dir, 'cp.json'), 'utf8'));
    expect(checkpoint.sent).toBe(0);
    expect(checkpoint.sources[0].complete).toBe(false);
  });

  it('stops with exit 1 when the server stays unavailable through the retries', async () => {
    await collector.close();
    collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
    const { text } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    const result = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--retries', '1'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/did not accept events after 1 attempts.*503/);
    expect(result.stdout).toMatch(/import stopped: 0 sent/);
  });

  it('a row the server refuses on its own goes to the rejects file; the rest of its batch arrives', async () => {
    const uuids = createRowUuids(createHash('sha256').update('source-id\0fixture').digest('hex'));
    const refused = uuids.uuidOf(3);
    await collector.close();
    collector = await createFaultCollector({
      plan: (_, info) => (info.uuids.includes(refused) ? { kind: 'status', status: 400 } : undefined),
    });
    const lines = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i } }),
    );
    writeFileSync(join(dir, 'events.ndjson'), lines.join('\n'));
    const result = await runCommand(
      runImportCommand,
      ['events.ndjson', ...connection(), '--source-id', 'fixture', '--rejects', 'bad.ndjson'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(collector.events.map((e) => e.properties.i)).toEqual([0, 1, 2, 4, 5, 6, 7]);
    expect(collector.events[0]!.uuid).toBe(uuids.uuidOf(0));
    expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([
      expect.objectContaining({ line: 4, row: 3, reason: expect.stringMatching(/refused by the server/) }),
    ]);
  });

  it('a row the server refuses while its chunk is still open is rejected with its line, not counted as sent', async () => {
    const uuids = createRowUuids(createHash('sha256').update('source-id\0open-chunk').digest('hex'));
    const refused = uuids.uuidOf(25);
    await collector.close();
    collector = await createFaultCollector({
      plan: (_, info) => (info.uuids.includes(refused) ? { kind: 'status', status: 400 } : undefined),
    });
    const line = (i: number) =>
      JSON.stringify({ event: 'e', distinct_id: 'u', timestamp: at(i), properties: { i, padding: 'x'.repeat(800) } }) + '\n';
    const stdin = new PassThrough();
    // More than the 64 KB the importer reads before it starts, so the first 100 rows go out while
    // the rest of the input (and with it the chunk, --checkpoint-rows 100000) is still open.
    stdin.write(Array.from({ length: 100 }, (_, i) => line(i)).join(''));
    const running = runCommand(
      runImportCommand,
      ['-', ...connection(), '--source-id', 'open-chunk', '--rejects', 'bad.ndjson', '--batch-size', '10', '--checkpoint-rows', '100000'],
      { cwd: dir, stdin },
    );
    // Every row but the refused one has arrived: the refusal was answered before the chunk closed.
    await collector.waitForEvents(99, 30_000);
    stdin.end(Array.from({ length: 10 }, (_, i) => line(100 + i)).join(''));
    const result = await running;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/import complete: 109 sent, 1 rejected/);
    expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 110 }, (_, i) => i).filter((i) => i !== 25));
    expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([
      expect.objectContaining({ source: 'stdin', line: 26, row: 25, reason: expect.stringMatching(/refused by the server/) }),
    ]);
  });

  it('drops a UTF-8 byte order mark: NDJSON row 1 and a quoted CSV header read as written', async () => {
    const BOM = '\uFEFF';
    const ndjson = [0, 1, 2]
      .map((i) => JSON.stringify({ event: 'from ndjson', distinct_id: 'u', timestamp: at(i), properties: { i } }))
      .join('\n');
    writeFileSync(join(dir, 'bom.ndjson'), BOM + ndjson);
    writeFileSync(join(dir, 'bom.csv'), `${BOM}"event","distinct_id","timestamp","plan"\r\n"from csv","u","${at(3)}","pro"\r\n`);
    writeFileSync(join(dir, 'bom.export'), gzipSync(BOM + JSON.stringify([{ event: 'from json', distinct_id: 'u', timestamp: at(4) }])));
    for (const file of ['bom.ndjson', 'bom.csv', 'bom.export']) {
      const result = await runCommand(runImportCommand, [file, ...connection(), '--rejects', `${file}.rejects`], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, file).toMatch(/ 0 rejected/);
    }
    expect(collector.events.map((e) => e.event)).toEqual(['from ndjson', 'from ndjson', 'from ndjson', 'from csv', 'from json']);
    expect(collector.events[3]!.properties).toMatchObject({ plan: 'pro' });
    expect(Object.keys(collector.events[3]!.properties).filter((key) => key.includes('"') || key.includes('\uFEFF'))).toEqual([]);
  });

  it('stops with exit 2 before sending anything when a column the mapping reads is not in the CSV header', async () => {
    writeFileSync(join(dir, 'events.csv'), `action,user,ts\nsigned up,u1,${at(0)}\n`);
    const unmapped = await runCommand(runImportCommand, ['events.csv', ...connection()], { cwd: dir });
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toContain(
      'column `event` (for event) is not in the CSV header of events.csv (columns: action, user, ts); use --map event=COLUMN',
    );
    const map = ['--map', 'event=action,distinct_id=user,timestamp=ts'];
    const property = await runCommand(runImportCommand, ['events.csv', ...connection(), ...map, '--map', 'plan=tier'], { cwd: dir });
    expect(property.code).toBe(2);
    expect(property.stderr).toContain('column `tier` (for plan) is not in the CSV header of events.csv');
    const dryRun = await runCommand(runImportCommand, ['events.csv', '--dry-run', '--map', 'event=action'], { cwd: dir });
    expect(dryRun.code).toBe(2);
    expect(dryRun.stderr).toContain('column `distinct_id` (for distinct_id) is not in the CSV header');
    expect(collector.requests).toBe(0);
    // Nothing was sent, so nothing was left behind that would make the corrected command a "re-import".
    expect(readdirSync(dir)).toEqual(['events.csv']);
    const fixed = await runCommand(runImportCommand, ['events.csv', ...connection(), ...map], { cwd: dir });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(collector.events.map((e) => [e.event, e.distinct_id])).toEqual([['signed up', 'u1']]);
  });

  it("JSON rows: a row's own uuid is the event uuid, and other top-level fields become properties", async () => {
    const own = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
    const refusedOwn = '0190a1b2-c3d4-7e5f-8a6b-000000000bad';
    await collector.close();
    collector = await createFaultCollector({
      plan: (_, info) => (info.uuids.includes(refusedOwn) ? { kind: 'status', status: 400 } : undefined),
    });
    const lines = [
      {
        uuid: own,
        event: 'a',
        distinct_id: 'u',
        timestamp: at(0),
        properties: { plan: 'nested' },
        plan: 'top',
        elements_chain: 'div:nth-child(1)',
        $set: { email: 'a@b.test' },
      },
      { event: 'b', distinct_id: 'u', timestamp: at(1), person_id: 'p1' },
      { uuid: 'not-a-uuid', event: 'c', distinct_id: 'u', timestamp: at(2) },
      { uuid: refusedOwn, event: 'd', distinct_id: 'u', timestamp: at(3), properties: {} },
      { uuid: null, event: 'e', distinct_id: 'u', timestamp: at(4), properties: {} },
    ];
    writeFileSync(join(dir, 'export.ndjson'), lines.map((line) => JSON.stringify(line)).join('\n'));
    const result = await runCommand(
      runImportCommand,
      ['export.ndjson', ...connection(), '--source-id', 'export', '--rejects', 'bad.ndjson'],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/import complete: 3 sent, 2 rejected/);

    const derived = createRowUuids(createHash('sha256').update('source-id\0export').digest('hex'));
    expect(collector.events.map((e) => [e.event, e.uuid])).toEqual([
      ['a', own],
      ['b', derived.uuidOf(1)],
      ['e', derived.uuidOf(4)],
    ]);
    // properties keeps its own value where both have one; nothing at the top level is dropped.
    expect(collector.events[0]!.properties).toMatchObject({
      plan: 'nested',
      elements_chain: 'div:nth-child(1)',
      $set: { email: 'a@b.test' },
    });
    expect(collector.events[0]!.properties).not.toHaveProperty('uuid');
    expect(collector.events[1]!.properties).toEqual(expect.objectContaining({ person_id: 'p1' }));
    expect(rejectsOf(join(dir, 'bad.ndjson'))).toEqual([
      expect.objectContaining({
        line: 3,
        reason: expect.stringMatching(/uuid "not-a-uuid" is not a UUID; correct it, or remove the field/),
      }),
      expect.objectContaining({ line: 4, row: 3, reason: expect.stringMatching(/refused by the server/) }),
    ]);
  });

  it('-h is --help: options, how CSV cells and uuids are read, what --resume needs, exit codes', async () => {
    const long = await runCommand(runImportCommand, ['--help']);
    const short = await runCommand(runImportCommand, ['-h']);
    expect(short).toEqual(long);
    expect(long.code).toBe(0);
    expect(long.stdout).toMatch(/--resume\s.*input must be unchanged/);
    expect(long.stdout).toMatch(/CSV cells are strings .* except columns named or mapped to \$set, \$set_once,\s+\$group_set or \$groups/);
    expect(long.stdout).toMatch(/`uuid` field holding a UUID becomes the event's uuid/);
    expect(long.stdout).toMatch(
      /Exit codes:\n\s+0\s+done[^]*\n\s+1\s+the import failed[^]*\n\s+2\s+wrong command line[^]*\n\s+130\s+interrupted/,
    );
  });

  it('sends each batch to /batch/ gzipped, marked historical_migration', async () => {
    await collector.close();
    const requests: Array<{ method: string; url: string; encoding: string | undefined; bytes: number }> = [];
    collector = await createCollector({
      handleExchange: (exchange) => {
        const { req } = exchange;
        requests.push({
          method: req.method ?? '',
          url: req.url ?? '',
          encoding: req.headers['content-encoding'],
          bytes: Number(req.headers['content-length']),
        });
        exchange.record();
        exchange.respond();
      },
    });
    const { text, good } = ndjsonFixture();
    writeFileSync(join(dir, 'events.ndjson'), text);
    const result = await runCommand(runImportCommand, ['events.ndjson', ...connection(), '--batch-size', '10'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);

    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const request of requests) {
      const url = new URL(request.url, collector.url);
      expect(request.method).toBe('POST');
      expect(url.pathname).toBe('/batch/');
      // Marked as gzip the server-SDK way (Content-Encoding) or the browser way (the query): the
      // collector inflates the body because of it; an unmarked gzip body would be a 400 in rejections.
      expect(request.encoding === 'gzip' || /^gzip(-js)?$/.test(url.searchParams.get('compression') ?? '')).toBe(true);
    }
    expect(collector.rejections).toEqual([]);
    expect(collector.events).toHaveLength(good);
    expect(collector.events.every((e) => e.historical_migration === true && e.endpoint === '/batch/')).toBe(true);
    // Compressed: every body on the wire together is well under half the events' JSON.
    const wire = requests.reduce((sum, request) => sum + request.bytes, 0);
    expect(wire).toBeLessThan(JSON.stringify(collector.events).length / 2);
  });
});
