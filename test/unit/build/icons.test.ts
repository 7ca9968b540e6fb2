// The committed icon files match their SVG sources, and each has the form its platform needs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeIco } from '../../../scripts/icons/ico-container.ts';
import { renderIconSet, SIZES, TRAY_STEMS } from '../../../scripts/icons/icon-set.ts';

const buildDir = join(import.meta.dirname, '..', '..', '..', 'build');
const rendered = renderIconSet(join(buildDir, 'icons', 'src'));

/** Width, height and straight RGBA pixels of a PNG written by scripts/icons/png-encode.ts (filter 0 rows). */
function readPng(png: Buffer): { width: number; height: number; rgba: Buffer } {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    expect(raw[y * (width * 4 + 1)]).toBe(0);
    raw.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
  }
  return { width, height, rgba };
}

describe('build icons', () => {
  it('are up to date with build/icons/src (else run: npx node scripts/build-icons.ts)', () => {
    const stale = [...rendered]
      .filter(([relative, bytes]) => !readFileSync(join(buildDir, relative)).equals(bytes))
      .map(([relative]) => relative);
    expect(stale).toEqual([]);
  });

  it('cover every tray state in every platform form', () => {
    const names = [...rendered.keys()];
    for (const stem of TRAY_STEMS) {
      for (const suffix of ['.png', '@2x.png', 'Template.png', 'Template@2x.png', '.ico']) {
        expect(names).toContain(`icons/tray/${stem}${suffix}`);
      }
    }
    expect(names).toContain('icon.png');
    expect(names).toContain('icon.ico');
  });

  it('draw Linux tray PNGs at 22 px and 44 px, with transparent corners and an opaque body', () => {
    for (const stem of TRAY_STEMS) {
      const one = readPng(rendered.get(`icons/tray/${stem}.png`) ?? Buffer.alloc(0));
      expect([one.width, one.height]).toEqual([SIZES.linuxTray, SIZES.linuxTray]);
      expect(one.rgba[3]).toBe(0);
      const opaque = [...one.rgba].filter((_, index) => index % 4 === 3 && one.rgba[index] === 255).length;
      expect(opaque).toBeGreaterThan(one.width * one.height * 0.25);
      const two = readPng(rendered.get(`icons/tray/${stem}@2x.png`) ?? Buffer.alloc(0));
      expect([two.width, two.height]).toEqual([SIZES.linuxTray * 2, SIZES.linuxTray * 2]);
    }
  });

  it('make macOS templates of black and alpha only, with the glyph cut out', () => {
    for (const stem of TRAY_STEMS) {
      for (const [suffix, size] of [
        ['Template.png', SIZES.macTemplate],
        ['Template@2x.png', SIZES.macTemplate * 2],
      ] as const) {
        const { width, rgba } = readPng(rendered.get(`icons/tray/${stem}${suffix}`) ?? Buffer.alloc(0));
        expect(width).toBe(size);
        const coloured = [...rgba].some((value, index) => index % 4 !== 3 && value !== 0);
        expect(coloured).toBe(false);
        const alphas = new Set([...rgba].filter((_, index) => index % 4 === 3));
        expect(alphas.has(0)).toBe(true);
        expect(alphas.has(255)).toBe(true);
      }
    }
    // The up-to-date template has a hole where the tick is: the cloud's centre is transparent.
    const { width, rgba } = readPng(
      rendered.get('icons/tray/tray-up-to-dateTemplate@2x.png') ?? Buffer.alloc(0),
    );
    const tickPixel = (Math.round((17.2 / 24) * width) * width + Math.round((10.9 / 24) * width)) * 4;
    expect(rgba[tickPixel + 3]).toBeLessThan(64);
  });

  it('pack Windows tray icons as 16, 24, 32 and 48 px and the app icon as 16 to 256 px', () => {
    for (const stem of TRAY_STEMS) {
      const images = decodeIco(rendered.get(`icons/tray/${stem}.ico`) ?? Buffer.alloc(0));
      expect(images.map((image) => image.size)).toEqual([...SIZES.windowsTray]);
      for (const image of images) expect(readPng(image.png).width).toBe(image.size);
    }
    const app = decodeIco(readFileSync(join(buildDir, 'icon.ico')));
    expect(app.map((image) => image.size)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    expect(readPng(app.at(-1)?.png ?? Buffer.alloc(0)).width).toBe(256);
  });

  it('make a 1024 px app icon', () => {
    const { width, height } = readPng(readFileSync(join(buildDir, 'icon.png')));
    expect([width, height]).toEqual([1024, 1024]);
  });
});
