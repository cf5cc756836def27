/** Session recordings and a recording's sharing configuration. */
import { createOffsetListMethod, type OffsetListMethod } from '../list-method';
import { segment } from '../paths';
import type { Requester } from '../request';
import type { RequestOptions, SessionRecording, SessionRecordingUpdate, SharingConfiguration } from '../types';

export interface SessionRecordingsApi {
  list: OffsetListMethod<SessionRecording>;
  get(id: string, options?: RequestOptions): Promise<SessionRecording>;
  update(id: string, changes: SessionRecordingUpdate, options?: RequestOptions): Promise<SessionRecording>;
  /** Resolves once the server answered 204. */
  delete(id: string, options?: RequestOptions): Promise<void>;
  /** The recording's sharing configuration: one object, not a page. */
  sharing(recordingId: string, options?: RequestOptions): Promise<SharingConfiguration>;
}

export function createSessionRecordingsApi(requester: Requester): SessionRecordingsApi {
  const pathOf = (id: string, name = 'id'): string => `/session_recordings/${segment(id, name)}/`;
  return {
    list: createOffsetListMethod<SessionRecording>(requester, {
      endpoint: 'sessionRecordings.list',
      path: '/session_recordings/',
      keyOf: (recording) => recording.id,
    }),
    get: async (id, options) => requester.json({ endpoint: 'sessionRecordings.get', method: 'GET', path: pathOf(id) }, options),
    update: async (id, changes, options) =>
      requester.json({ endpoint: 'sessionRecordings.update', method: 'PATCH', path: pathOf(id), body: changes }, options),
    delete: async (id, options) => {
      await requester.json({ endpoint: 'sessionRecordings.delete', method: 'DELETE', path: pathOf(id) }, options);
    },
    sharing: async (recordingId, options) =>
      requester.json(
        {
          endpoint: 'sessionRecordings.sharing',
          method: 'GET',
          path: `${pathOf(recordingId, 'recordingId')}sharing/`,
        },
        options,
      ),
  };
}
