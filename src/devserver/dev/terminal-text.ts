/**
 * Text from requests made safe for a terminal line: raw control characters (an escape sequence can
 * recolour, retitle or rewrite the developer's terminal) are shown as `\xNN` escapes instead.
 */

// C0 controls, DEL and C1 controls; a line break is escaped too, so one log entry stays one line.
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
