// A tiny client-routed app: links change the URL with history.pushState and re-render, no reload.
// hogtail (capture_pageview: 'history_change') sends a $pageview for each new path.
import hogtail from 'hogtail';

hogtail.init('phc_example_project_key', {
  api_host: window.COLLECTOR_URL,
  capture_pageview: 'history_change',
  person_profiles: 'identified_only',
});

const views = {
  '/': () => '<h1>Home</h1><button id="login">Log in as user-7</button>',
  '/products': () => '<h1>Products</h1><button id="buy">Add to cart</button>',
  '/cart': () => '<h1>Cart</h1><button id="checkout">Check out</button>',
};

function render() {
  document.getElementById('view').innerHTML = (views[location.pathname] ?? views['/'])();
}

document.addEventListener('click', (event) => {
  const target = event.target;
  if (target instanceof HTMLAnchorElement) {
    event.preventDefault();
    history.pushState({}, '', target.pathname);
    render();
  } else if (target.id === 'login') hogtail.identify('user-7', { plan: 'pro' });
  else if (target.id === 'buy') hogtail.capture('added to cart', { product: 'socks', price: 9 });
  else if (target.id === 'checkout') hogtail.capture('checked out', { total: 9 });
});
addEventListener('popstate', render);
render();
