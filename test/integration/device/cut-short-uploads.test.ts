// What the client's upload guard relies on: a body cut off before its last bytes creates and changes nothing.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import { it } from '../../helpers/fixtures.ts';
import type { FileObject } from '../../../common/wire/device-api.ts';
import type { TestDevice } from '../../helpers/device.ts';
import { createFile, idFromLocation, multipartBody, postMultipart } from '../../helpers/multipart.ts';
import { requestHead } from '../../helpers/raw-http.ts';

const KIB = 1024;

/** How the client's connection ends after the short body: closed at once, or half-closed (FIN) and read. */
const ENDINGS = ['closed', 'half-closed'] as const;
type Ending = (typeof ENDINGS)[number];

/**
 * Sends `head` and `body` and waits until `arrived()` shows the device is storing what came, then ends
 * the connection as `ending` says; resolves once it is closed.
 */
async function sendCutShort(
  device: TestDevice,
  head: string,
  body: Buffer,
  ending: Ending,
  arrived: () => boolean | Promise<boolean>,
): Promise<void> {
  const { hostname, port } = new URL(device.base);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.resume();
  socket.write(head);
  socket.write(body);
  expect(await eventually(arrived)).toBe(true);
  if (ending === 'closed') socket.destroy();
  else socket.end();
  await closed;
}

/** Polls `check` every 20 ms for up to 5 s. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if (await check()) return true;
    await sleep(20);
  }
  return false;
}

const temporaryFiles = (device: TestDevice): number => readdirSync(join(device.dataDir, 'tmp')).length;

/** The device has ended the request: the body it was receiving is no longer in a temporary file. */
async function settled(device: TestDevice): Promise<boolean> {
  return eventually(() => temporaryFiles(device) === 0);
}

/** Bytes the device holds of an unfinished upload. */
async function received(device: TestDevice, id: string): Promise<number> {
  const answer = await device.fetchAs('alice', `/sdk/v2/files/${id}/resumable`);
  return answer.status === 200 ? ((await answer.json()) as { size: number }).size : -1;
}

async function fileObject(device: TestDevice, id: string): Promise<FileObject> {
  return (await (await device.fetchAs('alice', `/sdk/v2/files/${id}`)).json()) as FileObject;
}

describe('a body that stops before its last bytes', () => {
  it.for(ENDINGS)('multipart create, connection %s: no file is created', async (ending, { device }) => {
    const name = `cut-create-${ending}.bin`;
    const { body, contentType } = multipartBody({ name }, randomBytes(512 * KIB));
    const head = requestHead('POST', '/sdk/v2/files', device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'content-type': contentType,
      'content-length': String(body.length),
    });
    // What the client's guard sends when the file changed: all but its last chunk, and no closing boundary.
    const closing = body.lastIndexOf('\r\n--');
    await sendCutShort(
      device,
      head,
      body.subarray(0, closing - 64 * KIB),
      ending,
      () => temporaryFiles(device) > 0,
    );
    expect(await settled(device)).toBe(true);
    const lookup = await device.fetchAs(
      'alice',
      `/sdk/v2/filesSearch/parentAndName?parentID=root&name=${name}`,
    );
    expect(lookup.status).toBe(404);
  });

  it.for(ENDINGS)('content PUT, connection %s: the old content and eTag stay', async (ending, { device }) => {
    const target = await createFile(device, `cut-put-${ending}.txt`, 'old content');
    const size = 512 * KIB;
    const head = requestHead('PUT', `/sdk/v2/files/${target.id}/content`, device.base, {
      authorization: `Bearer ${device.tokenFor('alice')}`,
      'if-match': target.etag,
      'content-type': 'application/octet-stream',
      'content-length': String(size),
    });
    await sendCutShort(device, head, randomBytes(size - 64 * KIB), ending, () => temporaryFiles(device) > 0);
    expect(await settled(device)).toBe(true);
    const content = await device.fetchAs('alice', `/sdk/v2/files/${target.id}/content`);
    expect(await content.text()).toBe('old content');
    expect((await fileObject(device, target.id)).eTag).toBe(target.etag);
  });

  it.for(ENDINGS)(
    'resumable chunk, connection %s: the upload stays invisible',
    async (ending, { device }) => {
      const started = await postMultipart(device, { name: `cut-resumable-${ending}.bin` }, undefined, {
        path: '/sdk/v2/files/resumable',
        query: 'done=false',
      });
      const id = idFromLocation(started);
      const size = 512 * KIB;
      const head = requestHead('PUT', `/sdk/v2/files/${id}/resumable/content?offset=0`, device.base, {
        authorization: `Bearer ${device.tokenFor('alice')}`,
        'content-length': String(size),
      });
      const sent = size - 64 * KIB;
      await sendCutShort(
        device,
        head,
        randomBytes(sent),
        ending,
        async () => (await received(device, id)) === sent,
      );
      // Unfinished uploads are invisible until done=true (device-api.md §3), which the client never sends then.
      expect((await device.fetchAs('alice', `/sdk/v2/files/${id}`)).status).toBe(404);
    },
  );
});
