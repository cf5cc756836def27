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
