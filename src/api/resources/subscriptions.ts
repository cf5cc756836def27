/** Subscriptions (scheduled deliveries of a dashboard or insight). The spec shows only listing. */
import { createOffsetListMethod, type OffsetListMethod } from '../list-method';
import type { Requester } from '../request';
import type { Subscription } from '../types';

export interface SubscriptionsApi {
  list: OffsetListMethod<Subscription>;
}

export function createSubscriptionsApi(requester: Requester): SubscriptionsApi {
  return {
    list: createOffsetListMethod<Subscription>(requester, {
      endpoint: 'subscriptions.list',
      path: '/subscriptions/',
      keyOf: (subscription) => String(subscription.id),
    }),
  };
}
