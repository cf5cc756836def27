// A Cloudflare Worker written for posthog-node, built from the packed package as wrangler builds it
// (esbuild with the `workerd`, `worker` and `browser` conditions), then run where nothing of Node
// exists: a node:vm context holding only web globals, against a real collector on 127.0.0.1. The
// client lives at module level and each request hands `shutdown()` to `waitUntil`, the pattern
// posthog-node's docs give for Workers: every request's event must arrive.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { createCollector } from '../../src/devserver';
import { webGlobals } from '../support/web-globals';

const WORKER = `import { PostHog } from 'hogtail/node';

const posthog = new PostHog('phc_worker', { host: HOST, flushAt: 20 });

export default {
  async fetch(request, env, ctx) {
    const user = new URL(request.url).searchParams.get('user');
    posthog.capture({ distinctId: user, event: 'worker request' });
    ctx.waitUntil(posthog.shutdown());
    return new Response('ok');
  },
};
`;

type Handler = { fetch(request: Request, env: unknown, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> };

export function workerTests(consumer: () => string): void {
  it("a Worker written for posthog-node (hogtail/node under workerd) delivers every request's event", async () => {
    const collector = await createCollector();
    try {
      const dir = join(consumer(), 'worker-app');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'worker.js'), WORKER.replace('HOST', JSON.stringify(collector.url)));
      const out = await build({
        entryPoints: [join(dir, 'worker.js')],
        bundle: true,
        platform: 'neutral',
        mainFields: ['browser', 'module', 'main'],
        conditions: ['workerd', 'worker', 'browser'],
        format: 'iife',
        globalName: 'workerModule',
        write: false,
        logLevel: 'silent',
      });
      const context = vm.createContext(webGlobals());
      vm.runInContext(out.outputFiles[0]!.text, context);
      const handler = (context.workerModule as { default: Handler }).default;
      for (const user of ['a', 'b', 'c']) {
        const pending: Promise<unknown>[] = [];
        const response = await handler.fetch(new Request(`https://app.example/?user=${user}`), {}, { waitUntil: (p) => pending.push(p) });
        expect(await response.text()).toBe('ok');
        await Promise.all(pending);
      }
      expect(collector.events.map((e) => [e.event, e.distinct_id])).toEqual([
        ['worker request', 'a'],
        ['worker request', 'b'],
        ['worker request', 'c'],
      ]);
      expect(collector.events.every((e) => e.properties.$lib === 'hogtail-edge')).toBe(true);
    } finally {
      await collector.close();
    }
  }, 60_000);
}
