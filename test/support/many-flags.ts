/**
 * A `/flags/?v=2` answer as PostHog sends it for a project with many flags (issue 27, item 16): each
 * flag with its reason and metadata, about 350 bytes apiece, so 400 flags make an answer of about
 * 140 KB, more than twice the 64 KiB a batch answer is capped at.
 */
export interface ManyFlags {
  /** The answer's text. */
  body: string;
  /** What getAllFlags() should give for it. */
  values: Record<string, boolean | string>;
}

export function manyFlagsAnswer(count = 400): ManyFlags {
  const flags: Record<string, unknown> = {};
  const values: Record<string, boolean | string> = {};
  for (let i = 0; i < count; i++) {
    const key = `checkout-experiment-${String(i).padStart(4, '0')}`;
    const enabled = i % 3 !== 0;
    const variant = enabled && i % 5 === 0 ? 'test' : null;
    values[key] = variant ?? enabled;
    flags[key] = {
      key,
      enabled,
      variant,
      reason: {
        code: enabled ? 'condition_match' : 'no_condition_match',
        condition_index: 0,
        description: enabled ? 'Matched condition set 1' : 'No matching condition set',
      },
      metadata: {
        id: 1000 + i,
        version: 3,
        payload: enabled && i % 4 === 0 ? '{"headline":"Try the new checkout","price":9}' : null,
        description: 'The new checkout flow, rolled out by plan (owner: growth team, reviewed monthly)',
      },
    };
  }
  return { body: JSON.stringify({ flags, errorsWhileComputingFlags: false, requestId: 'req-many' }), values };
}
