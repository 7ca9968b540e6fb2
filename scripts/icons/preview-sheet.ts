// A contact sheet of the tray icons at their real pixel sizes, magnified, on light and dark panels: for review.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPixels, selectLayer, SIZES, TRAY_STEMS, type Layer } from './icon-set.ts';
import { encodePng } from './png-encode.ts';

/** Panel colours the icons must read on: a light one (GNOME, macOS light) and a dark one (KDE, Windows 11). */
const PANELS = [
  [0xf2, 0xf2, 0xf2],
  [0x20, 0x20, 0x24],
] as const;

const ZOOM = 8;
const PAD = 4;

/**
 * One row per tray state; per panel: the Linux icon (22 px), the Windows 16 px image and the macOS template
 * (16 px, drawn in the panel's text colour the way the menu bar tints it), each magnified ZOOM× with no smoothing.
 */
export function previewSheet(sourceDir: string): Buffer {
  const cells: { size: number; layer: Layer }[] = [
    { size: SIZES.linuxTray, layer: 'color' },
    { size: 16, layer: 'color' },
    { size: SIZES.macTemplate, layer: 'template' },
  ];
  const cell = (SIZES.linuxTray + PAD) * ZOOM;
  const width = cell * cells.length * PANELS.length;
  const height = cell * TRAY_STEMS.length;
  const sheet = Buffer.alloc(width * height * 4);
  PANELS.forEach((panel, panelIndex) => {
    for (let y = 0; y < height; y += 1) {
      for (let x = panelIndex * cell * cells.length; x < (panelIndex + 1) * cell * cells.length; x += 1) {
        sheet.set([panel[0], panel[1], panel[2], 255], (y * width + x) * 4);
      }
    }
  });
  TRAY_STEMS.forEach((stem, row) => {
    const source = readFileSync(join(sourceDir, `${stem}.svg`), 'utf8');
    PANELS.forEach((panel, panelIndex) => {
      const ink = panelIndex === 0 ? [0x1a, 0x1a, 0x1a] : [0xf0, 0xf0, 0xf0];
      cells.forEach(({ size, layer }, column) => {
        const { rgba } = renderPixels(selectLayer(source, layer), size);
        const left = (panelIndex * cells.length + column) * cell + (PAD / 2) * ZOOM;
        const top = row * cell + (PAD / 2) * ZOOM;
        for (let py = 0; py < size; py += 1) {
          for (let px = 0; px < size; px += 1) {
            const at = (py * size + px) * 4;
            const alpha = (rgba[at + 3] ?? 0) / 255;
            // A template takes the panel's ink colour, as the menu bar tints it.
            const colour = layer === 'template' ? ink : [rgba[at] ?? 0, rgba[at + 1] ?? 0, rgba[at + 2] ?? 0];
            const mixed = [0, 1, 2].map((c) =>
              Math.round((colour[c] ?? 0) * alpha + (panel[c] ?? 0) * (1 - alpha)),
            );
            for (let zy = 0; zy < ZOOM; zy += 1) {
              for (let zx = 0; zx < ZOOM; zx += 1) {
                const x = left + px * ZOOM + zx;
                const y = top + py * ZOOM + zy;
                sheet.set([mixed[0] ?? 0, mixed[1] ?? 0, mixed[2] ?? 0, 255], (y * width + x) * 4);
              }
            }
          }
        }
      });
    });
  });
  return encodePng(width, height, sheet);
}
