/**
 * A short CSS path for an element (`html>body>main>img.hero`), the form web-vitals' attribution
 * names a metric's element in (`target`, `interactionTarget`, `largestShiftTarget`). Written here
 * so the web vitals file carries no attribution build; bounded so a deep page costs little.
 */
const MAX_LENGTH = 100;

function part(element: Element): string {
  const name = element.localName;
  if (element.id) return name + '#' + element.id;
  const classes = typeof element.className === 'string' ? element.className.trim() : '';
  return classes ? name + '.' + classes.replace(/\s+/g, '.') : name;
}

export function selectorOf(node: Node | null | undefined): string | undefined {
  let path = '';
  for (let element = node as Element | null; element && element.nodeType === 1; element = element.parentElement) {
    const next = part(element) + (path ? '>' + path : '');
    if (next.length > MAX_LENGTH) break;
    path = next;
    if (element.id) break;
  }
  return path || undefined;
}
