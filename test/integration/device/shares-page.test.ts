// The recipient's page at B/s/{shareId}: what it shows, its headers, downloads, and the 404 page for
// everything the link may not read (device-api.md §4).
import { describe, expect } from 'vitest';
import { it, test } from '../../helpers/fixtures.ts';
import type { TestDevice } from '../../helpers/device.ts';
import type { FileObject, ListingResponse } from '../../../common/wire/device-api.ts';
import type { Share, ShareTokenResponse } from '../../../common/wire/sharing.ts';
import { attachmentDisposition } from '../../../device/files/send-content.ts';
import { createFile, createFolder, type Created } from '../../helpers/multipart.ts';
import { grant, rootId, shareToken, shareWithLink, solidPng } from '../../helpers/shares.ts';

/** alice's root: album/ (shared; holds photo.png, sub/inner.txt), odd name file (shared), sibling.txt. */
let album: Created;
let photo: Created;
let sub: Created;
let inner: Created;
let odd: Created;
let sibling: Created;
let share: Share;
const PHOTO = solidPng(8, 8, [10, 200, 90]);
const ODD_NAME = "Ünïcødé <b>“bold”<b> & 'quotes'.txt";

test.beforeAll(async ({ device }) => {
  album = await createFolder(device, 'Album <2026>');
  photo = await createFile(device, 'photo.png', PHOTO, album.id);
  sub = await createFolder(device, 'sub', album.id);
  inner = await createFile(device, 'inner.txt', 'inner text', sub.id);
  odd = await createFile(device, ODD_NAME, 'odd content');
  sibling = await createFile(device, 'sibling.txt', 'not shared');
  share = await shareWithLink(device, 'alice', [album.id, odd.id]);
});

async function page(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${share.url}${path}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

async function expectNotFoundPage(url: string): Promise<void> {
  const response = await fetch(url);
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain('This link is not available');
  // Nothing of the share or of the device's files leaks into the page.
  for (const secret of [share.authId, 'sibling', 'Album', album.id, 'FILE_NOT_FOUND']) {
    expect(html).not.toContain(secret);
  }
}

describe('the page of a share', () => {
  it('lists the shared items and nothing else', async () => {
    const { status, html } = await page('');
    expect(status).toBe(200);
    expect(html).toContain('Album &#60;2026&#62;');
    expect(html).toContain(`href="/s/${share.shareId}/files/${album.id}"`);
    expect(html).toContain(`href="/s/${share.shareId}/files/${odd.id}/download"`);
    expect(html).not.toContain('sibling.txt');
    expect(html).not.toContain('photo.png');
  });

  it('escapes every name', async () => {
    const { html } = await page('');
    expect(html).not.toContain('<b>');
    expect(html).toContain('Ünïcødé &#60;b&#62;“bold”&#60;b&#62; &#38; &#39;quotes&#39;.txt');
  });

  it('shows size, date and a labelled download link for a file', async () => {
    const { html } = await page('');
    expect(html).toContain('<data value="11">11 bytes</data>');
    expect(html).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">/);
    expect(html).toContain('aria-label="Download Ünïcødé');
  });

  it('is a semantic table with a caption, column headers and a language', async () => {
    const { html } = await page('');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<caption');
    expect(html).toMatch(/<th scope="col"[^>]*>Name<\/th>/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('sends a strict policy, no referrer and noindex, and no scripts or external resources', async () => {
    const { headers, html } = await page('');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(csp).not.toContain('script-src');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('x-robots-tag')).toContain('noindex');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('cache-control')).toBe('no-store');
    expect(html).not.toMatch(/<script|https?:\/\/|src="\/\//);
  });

  it('answers the same page with a trailing slash', async () => {
    expect((await page('/')).status).toBe(200);
  });
});

describe('a shared folder', () => {
  it('lists its children with thumbnails for small images and a breadcrumb', async () => {
    const { status, html } = await page(`/files/${album.id}`);
    expect(status).toBe(200);
    expect(html).toContain('photo.png');
    expect(html).toContain(`href="/s/${share.shareId}/files/${sub.id}"`);
    expect(html).toMatch(
      new RegExp(
        `<img src="/s/${share.shareId}/files/${photo.id}/preview" alt="Preview of photo.png" width="40" height="40" loading="lazy"`,
      ),
    );
    expect(html).toContain('<nav aria-label="Breadcrumb">');
    expect(html).toContain(`<li><a href="/s/${share.shareId}">Shared files</a></li>`);
  });

  it('is browsable below, the breadcrumb leading back up', async () => {
    const { status, html } = await page(`/files/${sub.id}`);
    expect(status).toBe(200);
    expect(html).toContain('inner.txt');
    expect(html).toContain(
      `<li><a href="/s/${share.shareId}/files/${album.id}">Album &#60;2026&#62;</a></li>`,
    );
    expect(html).toContain('<li aria-current="page">sub</li>');
  });

  it('pages a large folder', async ({ device }) => {
    const big = await createFolder(device, 'big', album.id);
    await Promise.all(
      Array.from({ length: 205 }, (_, i) =>
        createFile(device, `f-${String(i).padStart(3, '0')}.txt`, 'x', big.id),
      ),
    );
    const first = await page(`/files/${big.id}`);
    expect(first.html).toContain('f-199.txt');
    expect(first.html).not.toContain('f-200.txt');
    const more = /<a href="([^"]+)">Show more<\/a>/.exec(first.html)?.[1] ?? '';
    const second = await fetch(`${device.base}${more}`);
    const html = await second.text();
    expect(html).toContain('f-204.txt');
    expect(html).not.toContain('f-199.txt');
  });
});

describe('downloads', () => {
  it('stream the bytes with the type and the exact name as an attachment', async () => {
    const response = await fetch(`${share.url}/files/${odd.id}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.headers.get('content-disposition')).toBe(attachmentDisposition(ODD_NAME));
    expect(response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''%C3%9Cn%C3%AFc%C3%B8d%C3%A9",
    );
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(await response.text()).toBe('odd content');
  });

  it('reach files below a shared folder, with ranges', async () => {
    const response = await fetch(`${share.url}/files/${inner.id}/download`, {
      headers: { range: 'bytes=0-4' },
    });
    expect(response.status).toBe(206);
    expect(await response.text()).toBe('inner');
  });

  it('show small images inline as their preview', async () => {
    const response = await fetch(`${share.url}/files/${photo.id}/preview`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(PHOTO)).toBe(true);
  });

  it('give no preview of what is not an image', async () => {
    expect((await fetch(`${share.url}/files/${inner.id}/preview`)).status).toBe(404);
  });

  it('give nothing for a folder', async () => {
    expect((await fetch(`${share.url}/files/${album.id}/download`)).status).toBe(404);
  });
});

describe('the 404 page', () => {
  it('answers an unknown share', async ({ device }) => {
    await expectNotFoundPage(`${device.base}/s/AAAAAAAAAAAAAAAAAAAAAA`);
  });

  it.for([
    ['an unshared sibling', (_device: TestDevice): string => sibling.id],
    ['the folder above the shared ones', (device: TestDevice): string => rootId(device, 'alice')],
    ['the alias root', (_device: TestDevice): string => 'root'],
    ['an id that does not exist', (_device: TestDevice): string => 'no-such-item'],
  ] as const)('answers %s edited into the address', async ([_label, id], { device }) => {
    await expectNotFoundPage(`${share.url}/files/${id(device)}`);
    await expectNotFoundPage(`${share.url}/files/${id(device)}/download`);
    await expectNotFoundPage(`${share.url}/files/${id(device)}/preview`);
  });

  it('answers an unknown address below a share', async () => {
    await expectNotFoundPage(`${share.url}/elsewhere`);
  });

  it('answers once the permission is removed, and once the share is deleted', async ({ device }) => {
    const folder = await createFolder(device, 'temporary');
    const own = await shareWithLink(device, 'alice', [folder.id]);
    expect((await fetch(own.url)).status).toBe(200);
    const perms = await device.fetchAs(
      'alice',
      `/sdk/v1/filePermsSearch/granting?fileID=${folder.id}&entityType=cloudShare&entityID=${own.authId}`,
    );
    const [perm] = ((await perms.json()) as { filePerms: { id: string }[] }).filePerms;
    expect(
      (await device.fetchAs('alice', `/sdk/v1/filePerms/${perm?.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    await expectNotFoundPage(own.url);
    await expectNotFoundPage(`${own.url}/files/${folder.id}`);

    await grant(device, 'alice', folder.id, { id: own.authId, type: 'cloudShare' }, 'ReadFile');
    expect((await fetch(own.url)).status).toBe(200);
    expect(
      (await device.fetchAs('alice', `/cloud/v1/shares/${own.shareId}`, { method: 'DELETE' })).status,
    ).toBe(204);
    await expectNotFoundPage(own.url);
  });

  it('answers a share whose items were deleted', async ({ device }) => {
    const doomed = await createFile(device, 'doomed.txt', 'x');
    const own = await shareWithLink(device, 'alice', [doomed.id]);
    expect((await device.fetchAs('alice', `/sdk/v2/files/${doomed.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await expectNotFoundPage(own.url);
  });
});

describe('share tokens for the device API', () => {
  it('are issued by POST {url}/token, read-only and short-lived', async () => {
    const response = await fetch(`${share.url}/token`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as ShareTokenResponse;
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'nas_read_only', fileIds: [album.id, odd.id] });
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(900);
    const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1] ?? '', 'base64url').toString()) as {
      sub: string;
    };
    expect(claims.sub).toBe(`cloudShare|${share.authId}`);
  });

  it('read the shared items through the device API, in the header or the query', async ({ device }) => {
    const token = await shareToken(share);
    const listing = await fetch(`${device.sdk}/v2/filesSearch/parents?ids=${album.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(listing.status).toBe(200);
    const names = ((await listing.json()) as ListingResponse).files.map((file) => file.name);
    expect(names).toContain('photo.png');
    const viaQuery = await fetch(`${device.sdk}/v2/files/${inner.id}?access_token=${token}`);
    expect(((await viaQuery.json()) as FileObject).name).toBe('inner.txt');
  });

  it('answer 404 JSON for an unknown share', async ({ device }) => {
    const response = await fetch(`${device.base}/s/AAAAAAAAAAAAAAAAAAAAAA/token`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ label: 'SHARE_NOT_FOUND' });
  });
});
