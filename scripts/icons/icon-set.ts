// Renders every icon file of build/ from its SVG source in build/icons/src: the tray states and the app icon.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { encodeIco } from './ico-container.ts';
import { encodePng } from './png-encode.ts';

/** The tray states' file stems (i17 interface: build/icons/tray/<stem>…; app/desktop/tray-model.ts names them). */
export const TRAY_STEMS = [
  'tray-up-to-date',
  'tray-syncing',
  'tray-paused',
  'tray-offline',
  'tray-sign-in-needed',
  'tray-attention',
] as const;

/**
 * Pixel sizes. Linux: 22 px, the size StatusNotifier/AppIndicator hosts (KDE Plasma, GNOME's AppIndicator
 * extension, XFCE) ask for at scale 1, with @2x for HiDPI. macOS: a 16 pt template image (@2x 32 px), the
 * menu bar's glyph height. Windows: one .ico with 16 (100 %), 24 (150 %), 32 (200 %) and 48 px (300 %),
 * from which the shell picks for the display's scale.
 */
export const SIZES = {
  linuxTray: 22,
  macTemplate: 16,
  windowsTray: [16, 24, 32, 48],
  appIcon: 1024,
  appIco: [16, 24, 32, 48, 64, 128, 256],
} as const;

export type Layer = 'color' | 'template';

const COLOR_OPEN = '<g id="color"';
const TEMPLATE_OPEN = '<g id="template" display="none"';

/** The source with only `layer` shown; a tray source holds both layers (see its comment). */
export function selectLayer(svg: string, layer: Layer): string {
  if (!svg.includes(COLOR_OPEN) || !svg.includes(TEMPLATE_OPEN)) {
    throw new Error(`icon source lacks the layers '${COLOR_OPEN}>' and '${TEMPLATE_OPEN}>'`);
  }
  if (layer === 'color') return svg;
  return svg.replace(COLOR_OPEN, `${COLOR_OPEN} display="none"`).replace(TEMPLATE_OPEN, '<g id="template"');
}

/** Straight (not premultiplied) RGBA pixels of `svg` rendered `size` px wide (the sources are square). */
export function renderPixels(svg: string, size: number): { width: number; height: number; rgba: Buffer } {
  // No fonts: the icons hold no text, and loading system fonts makes each render slower.
  const image = new Resvg(svg, {
    fitTo: { mode: 'width', value: size },
    font: { loadSystemFonts: false },
  }).render();
  const rgba = Buffer.from(image.pixels);
  // resvg hands out its canvas as is, premultiplied by alpha; PNG stores straight colour.
  for (let at = 0; at < rgba.length; at += 4) {
    const alpha = rgba[at + 3] ?? 0;
    if (alpha === 0 || alpha === 255) continue;
    for (let channel = at; channel < at + 3; channel += 1) {
      rgba[channel] = Math.min(255, Math.round(((rgba[channel] ?? 0) * 255) / alpha));
    }
  }
  return { width: image.width, height: image.height, rgba };
}

function png(svg: string, size: number): Buffer {
  const { width, height, rgba } = renderPixels(svg, size);
  return encodePng(width, height, rgba);
}

/** A macOS template image: black with the rendered alpha (AppKit uses only the alpha of a template). */
function templatePng(svg: string, size: number): Buffer {
  const { width, height, rgba } = renderPixels(svg, size);
  for (let at = 0; at < rgba.length; at += 4) {
    rgba[at] = 0;
    rgba[at + 1] = 0;
    rgba[at + 2] = 0;
  }
  return encodePng(width, height, rgba);
}

/** Every generated file, by its path relative to build/, in a stable order. */
export function renderIconSet(sourceDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const stem of TRAY_STEMS) {
    const source = readFileSync(join(sourceDir, `${stem}.svg`), 'utf8');
    const color = selectLayer(source, 'color');
    const template = selectLayer(source, 'template');
    files.set(`icons/tray/${stem}.png`, png(color, SIZES.linuxTray));
    files.set(`icons/tray/${stem}@2x.png`, png(color, SIZES.linuxTray * 2));
    files.set(`icons/tray/${stem}Template.png`, templatePng(template, SIZES.macTemplate));
    files.set(`icons/tray/${stem}Template@2x.png`, templatePng(template, SIZES.macTemplate * 2));
    files.set(
      `icons/tray/${stem}.ico`,
      encodeIco(SIZES.windowsTray.map((size) => ({ size, png: png(color, size) }))),
    );
  }
  const app = readFileSync(join(sourceDir, 'app-icon.svg'), 'utf8');
  files.set('icon.png', png(app, SIZES.appIcon));
  files.set('icon.ico', encodeIco(SIZES.appIco.map((size) => ({ size, png: png(app, size) }))));
  return files;
}
