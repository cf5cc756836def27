import { describe, expect, it } from 'vitest';
import { aliasEvent, groupIdentifyEvent, identifyEvent, screenEvent, surveyEvent } from '../../src/core/special-events';

describe('the reserved events of docs/wire-protocol.md', () => {
  it('build their names and properties', () => {
    expect(identifyEvent({ plan: 'pro' }, { first: 1 })).toEqual({
      event: '$identify',
      properties: { $set: { plan: 'pro' }, $set_once: { first: 1 } },
    });
    expect(aliasEvent(42)).toEqual({ event: '$create_alias', properties: { alias: '42' } });
    expect(groupIdentifyEvent('company', 7, { name: 'Acme' })).toEqual({
      event: '$groupidentify',
      properties: { $group_type: 'company', $group_key: '7', $group_set: { name: 'Acme' } },
    });
    expect(screenEvent('Home', { tab: 2 })).toEqual({ event: '$screen', properties: { tab: 2, $screen_name: 'Home' } });
    expect(surveyEvent('survey sent', 'sv', null, 'Great')).toEqual({
      event: 'survey sent',
      properties: { $survey_id: 'sv', $survey_response: 'Great' },
    });
  });

  it.each([
    ['screen() with string properties', () => screenEvent('Home', 'tab=2'), /screen\(\) properties must be an object; got string/],
    ['survey with array properties', () => surveyEvent('survey shown', 'sv', [1]), /survey shown properties must be an object/],
    ['survey sent without a response', () => surveyEvent('survey sent', 'sv', {}), /needs a response/],
    ['identify with a string $set', () => identifyEvent('plan', undefined), /\$set must be an object/],
    ['group identify without a key', () => groupIdentifyEvent('company', ' ', {}), /groupKey must be a non-blank string/],
  ])('%s is refused, not silently emptied', (_label, build, message) => {
    const result = build();
    expect('error' in result && result.error).toMatch(message);
  });
});
