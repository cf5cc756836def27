// The event properties every Node benchmark captures: about 10 per event, one object per user,
// built before timing so each SDK is measured on the same work.
export function userProperties(users) {
  return Array.from({ length: users }, (_, u) => ({
    plan: u % 3 === 0 ? 'pro' : 'free',
    country: ['DE', 'US', 'FR', 'JP'][u % 4],
    path: `/products/${u % 50}`,
    referrer: 'https://example.com/landing',
    cart_items: u % 7,
    cart_total: (u % 7) * 19.99,
    logged_in: u % 2 === 0,
    experiment: 'checkout-v2',
    browser: 'Firefox',
    screen_width: 1280 + (u % 3) * 160,
  }));
}

/**
 * The measured run: capture `count` events over the users' property objects, then shut the client
 * down (which waits for delivery). Peak RSS is sampled throughout; CPU covers every thread.
 */
export async function measureCaptureRun(client, { count, users, shutdownMs }) {
  const props = userProperties(users);
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const user = i % users;
    client.capture({ distinctId: `user-${user}`, event: i % 5 === 0 ? '$pageview' : 'product viewed', properties: props[user] });
  }
  const captureMs = performance.now() - t0;
  await client.shutdown(shutdownMs);
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    captureUsPerCall: (captureMs * 1000) / count,
    endToEndMs: totalMs,
    cpuUsPerEvent: (cpu.user + cpu.system) / count,
    peakRssMb: peakRss / 1048576,
  };
}
