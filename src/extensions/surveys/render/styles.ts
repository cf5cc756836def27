/**
 * The survey's look, inside its shadow root so neither the page's CSS nor ours leaks across. The
 * appearance settings of the survey become custom properties on the host; everything else is fixed.
 * Focus is always visible (a ring in the button colour), and text keeps at least the contrast of the
 * colours the project chose.
 */
import type { SurveyAppearance } from '../types';

/** Where the popover sits, by posthog-js's position names. */
const POSITIONS: Record<string, string> = {
  left: 'left:24px;bottom:0',
  right: 'right:24px;bottom:0',
  center: 'left:50%;bottom:0;transform:translateX(-50%)',
  top_left: 'left:24px;top:24px',
  top_right: 'right:24px;top:24px',
  top_center: 'left:50%;top:24px;transform:translateX(-50%)',
  middle_left: 'left:24px;top:50%;transform:translateY(-50%)',
  middle_right: 'right:24px;top:50%;transform:translateY(-50%)',
  middle_center: 'left:50%;top:50%;transform:translate(-50%,-50%)',
};

const CSS = `:host{all:initial}
.box{position:fixed;z-index:var(--z);box-sizing:border-box;width:min(var(--w),calc(100vw - 48px));max-height:80vh;overflow:auto;padding:18px;background:var(--bg);color:var(--text);border:1.5px solid var(--border);border-radius:10px;box-shadow:0 4px 18px rgba(0,0,0,.18);font:14px/1.4 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif}
.inline{position:static;width:auto;max-width:var(--w);box-shadow:none}
.bottom{border-bottom-left-radius:0;border-bottom-right-radius:0;border-bottom:none}
h2,legend{font-size:16px;font-weight:600;margin:0 28px 6px 0;padding:0}
p{margin:0 0 12px}
fieldset{border:0;margin:0;padding:0;min-width:0}
textarea{box-sizing:border-box;width:100%;min-height:80px;padding:8px;border:1px solid var(--border);border-radius:6px;font:inherit;color:inherit;background:#fff0;resize:vertical}
.scale{display:flex;gap:4px;margin:4px 0}
.scale label{flex:1;position:relative}
.scale span{display:block;text-align:center;padding:8px 0;border:1px solid var(--border);border-radius:6px;background:var(--rating);cursor:pointer}
.scale input:checked+span{background:var(--active);color:var(--activeText);border-color:var(--active)}
input.sr{position:absolute;opacity:0;inset:0;margin:0;cursor:pointer}
.bounds{display:flex;justify-content:space-between;font-size:12px}
.choice{display:flex;align-items:center;gap:8px;margin:6px 0}
.choice input[type=text]{flex:1;font:inherit;padding:4px 6px;border:1px solid var(--border);border-radius:4px}
.actions{display:flex;justify-content:flex-end;margin-top:12px}
button.submit{padding:8px 16px;border:0;border-radius:6px;background:var(--button);color:var(--buttonText);font:inherit;font-weight:600;cursor:pointer}
button.submit:disabled{opacity:.6;cursor:not-allowed}
button.close{position:absolute;top:8px;right:8px;width:28px;height:28px;border:0;border-radius:50%;background:#fff0;color:inherit;font-size:18px;line-height:1;cursor:pointer}
:focus-visible,.scale input:focus-visible+span{outline:3px solid var(--button);outline-offset:2px}
.tab{position:fixed;z-index:var(--z);right:0;top:50%;transform:rotate(-90deg) translateY(-100%);transform-origin:right top;padding:8px 14px;border:0;border-radius:6px 6px 0 0;background:var(--widget);color:var(--widgetText);font:600 14px/1 sans-serif;cursor:pointer}
.powered{display:block;margin-top:10px;font-size:11px;text-align:center}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`;

/** Dark text on light colours, white on dark: readable whatever colour the project picked. */
export function contrastingText(color: string): string {
  const hex = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return '#111';
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return 0.299 * r! + 0.587 * g! + 0.114 * b! > 150 ? '#111' : '#fff';
}

/** The style sheet and the host's custom properties for `appearance`. */
export function surveyStyles(appearance: SurveyAppearance | null | undefined): { css: string; vars: string } {
  const a = appearance ?? {};
  const bg = a.backgroundColor || '#eeeded';
  const button = a.submitButtonColor || '#000';
  const active = a.ratingButtonActiveColor || '#000';
  const widget = a.widgetColor || '#000';
  const vars = {
    '--bg': bg,
    '--text': a.textColor || contrastingText(bg),
    '--border': a.borderColor || '#c9c6c6',
    '--button': button,
    '--buttonText': a.submitButtonTextColor || contrastingText(button),
    '--rating': a.ratingButtonColor || '#fff0',
    '--active': active,
    '--activeText': contrastingText(active),
    '--widget': widget,
    '--widgetText': contrastingText(widget),
    '--w': a.maxWidth || '300px',
    '--z': a.zIndex || '2147483645',
  };
  return {
    css: CSS,
    vars: Object.entries(vars)
      .map(([name, value]) => `${name}:${value}`)
      .join(';'),
  };
}

/** The popover's placement for posthog-js's `position` (default: bottom right). */
export const positionStyle = (position: string | undefined): string => POSITIONS[position ?? ''] ?? POSITIONS.right!;
