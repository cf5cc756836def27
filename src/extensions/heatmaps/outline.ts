/**
 * The outline of the page's clickable elements, in page coordinates, for `hogtail dev`'s live
 * page to draw the clicks over (no screenshot, no page content: boxes only). Sent only when the
 * remote config's `heatmaps` asks for it (`{ outline: true }`, what hogtail dev answers; PostHog
 * answers `true`), once per page URL.
 */
const CLICKABLE = 'a,button,input,select,textarea,summary,label,[role=button],[role=link],[onclick],[tabindex]';
const MAX_BOXES = 400;

export interface Outline {
  url: string;
  width: number;
  height: number;
  boxes: number[][];
}

export function outlineOf(): Outline {
  const root = document.documentElement;
  const boxes: number[][] = [];
  for (const element of document.querySelectorAll(CLICKABLE)) {
    const box = element.getBoundingClientRect();
    if (box.width && box.height) boxes.push([box.left + scrollX, box.top + scrollY, box.width, box.height].map(Math.round));
    if (boxes.length >= MAX_BOXES) break;
  }
  return { url: location.href, width: root.scrollWidth, height: root.scrollHeight, boxes };
}
