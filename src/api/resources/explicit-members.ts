/** A user's explicit membership of the environment, addressed by the user's uuid. */
import { segment } from '../paths';
import type { Requester } from '../request';
import type { ExplicitMember, ExplicitMemberUpdate, RequestOptions } from '../types';

export interface ExplicitMembersApi {
  get(userUuid: string, options?: RequestOptions): Promise<ExplicitMember>;
  update(userUuid: string, changes: ExplicitMemberUpdate, options?: RequestOptions): Promise<ExplicitMember>;
  /** Resolves once the server answered 204. */
  delete(userUuid: string, options?: RequestOptions): Promise<void>;
}

export function createExplicitMembersApi(requester: Requester): ExplicitMembersApi {
  const pathOf = (userUuid: string): string => `/explicit_members/${segment(userUuid, 'userUuid')}/`;
  return {
    get: async (userUuid, options) => requester.json({ endpoint: 'explicitMembers.get', method: 'GET', path: pathOf(userUuid) }, options),
    update: async (userUuid, changes, options) =>
      requester.json({ endpoint: 'explicitMembers.update', method: 'PATCH', path: pathOf(userUuid), body: changes }, options),
    delete: async (userUuid, options) => {
      await requester.json({ endpoint: 'explicitMembers.delete', method: 'DELETE', path: pathOf(userUuid) }, options);
    },
  };
}
