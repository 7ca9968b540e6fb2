// A RemoteFile as the client's API layer returns it, for unit tests that need one without a device.
import type { RemoteFile } from '../../app/api/device-client.ts';

/** A small JPEG in the root; `overrides` set what the test is about. */
export function remoteFile(overrides: Partial<RemoteFile> = {}): RemoteFile {
  return {
    id: 'f1',
    parentID: 'root',
    name: 'a.jpg',
    eTag: '"1"',
    isFolder: false,
    mimeType: 'image/jpeg',
    size: 1,
    mTime: undefined,
    mTimeMs: undefined,
    cTime: undefined,
    cTimeMs: undefined,
    extension: '.jpg',
    hidden: 'none',
    trashed: false,
    image: undefined,
    ...overrides,
  };
}
