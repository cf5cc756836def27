// The loopback collector for benchmarks, in its own process so that its CPU and memory never count
// against the SDK being measured. Speaks to the parent over IPC.
import { createCollector } from '../dist/devserver/index.js';

let wireBytes = 0;
let requests = 0;
const collector = await createCollector({
  onRequest: (info) => {
    requests++;
    wireBytes += Number(info.headers['content-length'] ?? 0);
  },
});
const seen = new Set();
let duplicates = 0;
process.on('message', (message) => {
  if (message === 'stats') {
    for (const event of collector.events.splice(0)) {
      if (seen.has(event.uuid)) duplicates++;
      else seen.add(event.uuid);
    }
    process.send({ received: seen.size, duplicates, wireBytes, requests });
  } else if (message === 'reset') {
    collector.events.splice(0);
    seen.clear();
    duplicates = wireBytes = requests = 0;
    process.send({ reset: true });
  } else if (message === 'close') {
    collector.close().then(() => process.exit(0));
  }
});
process.send({ url: collector.url });
