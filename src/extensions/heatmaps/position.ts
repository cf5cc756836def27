/**
 * Where a pointer event happened, as posthog-js records it for heatmaps: page coordinates (the
 * scroll offset added) unless the element or one of its ancestors is fixed or sticky, whose
 * place on screen does not move with the scroll (`target_fixed`). The scroll is the page's, or
 * that of the first element `scroll_root_selector` names (apps that scroll a container).
 */
export interface HeatmapPoint {
  x: number;
  y: number;
  target_fixed: boolean;
  type: string;
}

function scrollRoot(selector: string | string[] | undefined): Element | undefined {
  for (const each of selector ? ([] as string[]).concat(selector) : []) {
    const found = document.querySelector(each);
    if (found) return found;
  }
}

function fixedOrSticky(target: EventTarget | null, stopAt: Element | undefined): boolean {
  for (let el = target as Element | null; el && el.nodeType === 1 && el.localName !== 'body' && el !== stopAt; el = el.parentElement) {
    const position = getComputedStyle(el).position;
    if (position === 'fixed' || position === 'sticky') return true;
  }
  return false;
}

export function pointOf(event: MouseEvent, type: string, rootSelector: string | string[] | undefined): HeatmapPoint {
  const root = scrollRoot(rootSelector);
  const fixed = fixedOrSticky(event.target, root);
  const scrollX = root ? root.scrollLeft : window.scrollX;
  const scrollY = root ? root.scrollTop : window.scrollY;
  return { x: event.clientX + (fixed ? 0 : scrollX), y: event.clientY + (fixed ? 0 : scrollY), target_fixed: fixed, type };
}
