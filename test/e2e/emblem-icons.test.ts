// The file managers' emblems as a person sees them: every state's icon drawn by Chromium at 16, 24 and 48 px on a light and a dark background, kept as a screenshot.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBLEM_NAMES, renderEmblemSvg } from '../../app/integrate/emblem-icons.ts';
import { launchBrowser, type TestBrowser } from '../helpers/browser.ts';

const OUT = join(import.meta.dirname, '..', '..', 'test-results', 'emblems');

let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser({ viewport: { width: 640, height: 300 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

function page(): string {
  const images = (size: number): string =>
    EMBLEM_NAMES.map((name) => {
      const source = `data:image/svg+xml;base64,${Buffer.from(renderEmblemSvg(name)).toString('base64')}`;
      return `<img alt="${name}" title="${name}" src="${source}" width="${size}" height="${size}">`;
    }).join(' ');
  const rows = [16, 24, 48].map((size) => `<p>${images(size)}</p>`).join('');
  const names = EMBLEM_NAMES.map((name) => `<span>${name}</span>`).join(' · ');
  return `<!doctype html><body style="margin:8px;font:11px sans-serif">
    <div style="background:#fff;padding:6px">${rows}<p>${names}</p></div>
    <div style="background:#2b2b2b;padding:6px">${rows}</div></body>`;
}

describe('the emblem icons', () => {
  it('each draws at every size on light and dark, and is kept as a screenshot', async () => {
    const tab = await browser.context.newPage();
    await tab.setContent(page());
    // An SVG Chromium cannot read loads as a broken image of width 0.
    const drawn = await tab.$$eval('img', (images) =>
      images.map((element) => {
        const image = element as unknown as { alt: string; complete: boolean; naturalWidth: number };
        return { name: image.alt, ok: image.complete && image.naturalWidth > 0 };
      }),
    );
    expect(drawn.filter((image) => !image.ok)).toEqual([]);
    expect(drawn).toHaveLength(EMBLEM_NAMES.length * 6);
    mkdirSync(OUT, { recursive: true });
    await tab.screenshot({ path: join(OUT, 'emblems.png'), fullPage: true });
    await tab.close();
  }, 60_000);
});
