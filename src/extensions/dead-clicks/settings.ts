/**
 * Dead clicks' settings: posthog-js's names and defaults, read from `capture_dead_clicks` when it
 * is an object. A click is alive when the page scrolls within `scroll_threshold_ms` (100), the
 * selection changes within `selection_change_threshold_ms` (100) or the DOM changes within
 * `mutation_threshold_ms` (2500); `css_selector_ignorelist` (default `.ph-no-deadclick`,
 * `.ph-no-capture`) names elements never judged; clicks with a modifier key are left alone unless
 * `capture_clicks_with_modifier_keys`.
 */
import type { HogtailConfig } from '../../browser/hogtail';
import { isObject } from '../../core/special-events';

export interface DeadClickSettings {
  scrollMs: number;
  selectionMs: number;
  mutationMs: number;
  ignore: string;
  modifierKeys: boolean;
  ignoredAttributes: string[];
}

const ms = (value: unknown, fallback: number) => (typeof value === 'number' && value >= 0 ? value : fallback);
const texts = (value: unknown) => (Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : undefined);

export function deadClickSettings(config: HogtailConfig): DeadClickSettings {
  const own = isObject(config.capture_dead_clicks) ? config.capture_dead_clicks : {};
  return {
    scrollMs: ms(own.scroll_threshold_ms, 100),
    selectionMs: ms(own.selection_change_threshold_ms, 100),
    mutationMs: ms(own.mutation_threshold_ms, 2500),
    ignore: (texts(own.css_selector_ignorelist) ?? ['.ph-no-deadclick', '.ph-no-capture']).join(','),
    modifierKeys: own.capture_clicks_with_modifier_keys === true,
    ignoredAttributes: texts(own.element_attribute_ignorelist) ?? [],
  };
}
