// File permissions and shares against the real local device: the link-sharing flow end to end.
import { describe, expect } from 'vitest';
import { it } from '../../../helpers/fixtures.ts';
import { FilePermsClient } from '../../../../app/api/file-perms-client.ts';
import { SharesClient } from '../../../../app/api/cloud/shares-client.ts';
import { clientFor } from '../../../helpers/api-client.ts';
import type { TestDevice } from '../../../helpers/device.ts';

function userId(device: TestDevice, name: string): string {
  const user = device.running.context.users.byName(name);
  if (!user) throw new Error(`no user ${name}`);
  return user.id;
}

describe('FilePermsClient', () => {
  it('grants, finds, re-grants idempotently and revokes a permission', async ({ device }) => {
    const { device: api } = clientFor(device);
    const perms = new FilePermsClient(api);
    const file = await api.create({ name: 'shared-with-bob.txt', content: Buffer.from('hi') });
    const grant = {
      fileID: file.id,
      entity: { id: userId(device, 'bob'), type: 'user' as const },
      value: 'ReadFile' as const,
    };
    const record = await perms.grant(grant);
    expect(record).toMatchObject(grant);
    // The same grant again is a 409 on the wire; the client answers with the existing record.
    expect(await perms.grant(grant)).toEqual(record);
    const granting = await perms.granting({ fileId: file.id, entity: grant.entity });
    expect(granting.filePerms).toContainEqual(record);
    const bob = clientFor(device, { user: 'bob' }).device;
    expect((await bob.getFile(file.id)).name).toBe('shared-with-bob.txt');
    expect(await perms.revoke(record.id)).toEqual({ existed: true });
    expect(await perms.revoke(record.id)).toEqual({ existed: false });
    await expect(bob.getFile(file.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('SharesClient', () => {
  it('creates, reads, lists and deletes a share, and grants its authId', async ({ device }) => {
    const { device: api, transport } = clientFor(device);
    const shares = new SharesClient({ shareUrl: `${device.base}/cloud`, transport });
    const file = await api.create({ name: 'link.txt', content: Buffer.from('for everyone') });
    const share = await shares.create({
      ownerId: userId(device, 'alice'),
      deviceId: device.running.context.device.id,
      fileIds: [file.id],
    });
    expect(share.fileIds).toEqual([file.id]);
    expect(share.metadata).toBeNull();
    expect(share.url).toContain(share.shareId);
    const granted = await new FilePermsClient(api).grant({
      fileID: file.id,
      entity: { id: share.authId, type: 'cloudShare' },
      value: 'ReadFile',
    });
    expect(granted.entity.type).toBe('cloudShare');
    expect(await shares.get(share.shareId)).toEqual(share);
    const listed = await shares.list({ fileId: file.id });
    expect(listed.shares.map((item) => item.shareId)).toEqual([share.shareId]);
    expect(listed.pageToken).toBe('');
    expect(await shares.delete(share.shareId)).toEqual({ existed: true });
    expect(await shares.delete(share.shareId)).toEqual({ existed: false });
    await expect(shares.get(share.shareId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      label: 'SHARE_NOT_FOUND',
    });
  });

  it('reports sharing someone else’s user id as FORBIDDEN', async ({ device }) => {
    const { transport } = clientFor(device);
    const shares = new SharesClient({ shareUrl: `${device.base}/cloud`, transport });
    await expect(
      shares.create({
        ownerId: userId(device, 'bob'),
        deviceId: device.running.context.device.id,
        fileIds: ['root'],
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
