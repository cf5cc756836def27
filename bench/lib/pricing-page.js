// The page both browser benches click on: a button nested five levels deep under body's first
// child, each level with classes, attributes and siblings (an app's pricing card).
const siblings = (tag, n, cls) =>
  Array.from({ length: n }, (_, i) => `<${tag} class="${cls} item-${i}" data-index="${i}">Item ${i}</${tag}>`).join('');
export const PAGE_BODY = `
<div id="root" class="app theme-light" data-version="3.2.1">
  <header class="topbar">${siblings('a', 5, 'nav-link')}</header>
  <main class="container layout-grid" data-page="pricing" role="main">
    ${siblings('section', 3, 'card muted')}
    <section class="card card-featured shadow-lg" data-plan="pro" aria-labelledby="pro-title">
      <h2 id="pro-title" class="card-title">Pro</h2>
      <div class="card-body flex flex-col gap-4">
        ${siblings('p', 4, 'feature')}
        <div class="actions flex justify-end" data-testid="pricing-actions">
          <button class="btn btn-secondary" type="button">Compare</button>
          <button id="buy" class="btn btn-primary btn-lg" type="button" data-testid="buy-pro" aria-label="Buy the Pro plan" data-ph-capture-attribute-plan="pro">
            <svg class="icon" width="16" height="16" viewBox="0 0 16 16"><path d="M0 0h16v16H0z"></path></svg>
            <span class="label">Buy now</span>
          </button>
        </div>
      </div>
    </section>
  </main>
</div>`;
