// A tiny shop API that tracks what its users do with hogtail. Plain node:http so the example has
// no dependencies; the analytics calls are the ones you would write in an Express or Fastify app.
import http from 'node:http';

export function createShopServer(posthog) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop.local');
    const user = req.headers['x-user-id'];
    const company = req.headers['x-company'];
    const groups = company ? { company } : undefined;
    const reply = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!user) return reply(401, { error: 'x-user-id header required' });

    if (url.pathname === '/login' && req.method === 'POST') {
      posthog.identify({
        distinctId: user,
        properties: { email: `${user}@example.com`, $set_once: { first_login: new Date().toISOString() } },
      });
      if (company) posthog.groupIdentify({ groupType: 'company', groupKey: company, properties: { name: company.toUpperCase() } });
      return reply(200, { ok: true });
    }
    if (url.pathname.startsWith('/products/')) {
      posthog.capture({
        distinctId: user,
        event: '$pageview',
        properties: { $current_url: `https://shop.example${url.pathname}` },
        groups,
      });
      posthog.capture({ distinctId: user, event: 'product viewed', properties: { product_id: url.pathname.split('/')[2] }, groups });
      return reply(200, { id: url.pathname.split('/')[2] });
    }
    if (url.pathname === '/checkout' && req.method === 'POST') {
      // Flag checks: one decide request per user per minute (hogtail caches), and the order event
      // carries $feature/<key> so results can be broken down by variant.
      const button = await posthog.getFeatureFlag('checkout-button', user);
      const style = await posthog.getFeatureFlagPayload('checkout-button', user);
      const newCheckout = await posthog.isFeatureEnabled('new-checkout', user);
      posthog.capture({
        distinctId: user,
        event: 'order placed',
        properties: { total: 42.5, items: 3, button: style?.label },
        groups,
        sendFeatureFlags: true,
      });
      return reply(201, { order: 'o-' + Math.floor(Math.random() * 1e6), button, newCheckout });
    }
    if (url.pathname === '/survey' && req.method === 'POST') {
      posthog.surveyShown({ distinctId: user, surveyId: 'nps-2026' });
      posthog.surveySent({ distinctId: user, surveyId: 'nps-2026', response: '9' });
      return reply(200, { thanks: true });
    }
    if (url.pathname === '/app/settings') {
      posthog.screen({ distinctId: user, name: 'Settings' });
      return reply(200, { settings: {} });
    }
    return reply(404, { error: 'not found' });
  });
}
