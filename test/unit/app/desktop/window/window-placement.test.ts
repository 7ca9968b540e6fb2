// Window placement: a popover beside the tray icon for each taskbar edge, kept inside the work area; a centred window when the icon's place is unknown.
import { describe, expect, it } from 'vitest';
import {
  taskbarEdgeOf,
  windowPlacementOf,
  type Rectangle,
} from '../../../../../app/desktop/window/window-placement.ts';

const size = { width: 400, height: 600 };
// A 1920×1080 display with a 40 px taskbar on each side in turn.
const bottomBar: Rectangle = { x: 0, y: 0, width: 1920, height: 1040 };
const topBar: Rectangle = { x: 0, y: 40, width: 1920, height: 1040 };
const leftBar: Rectangle = { x: 60, y: 0, width: 1860, height: 1080 };
const rightBar: Rectangle = { x: 0, y: 0, width: 1860, height: 1080 };

describe('windowPlacementOf', () => {
  it('taskbar at the bottom (Windows): above the icon, centred on it', () => {
    const trayBounds = { x: 1000, y: 1044, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea: bottomBar, size })).toEqual({
      kind: 'popover',
      edge: 'bottom',
      x: 816,
      y: 440,
      width: 400,
      height: 600,
    });
  });

  it('an icon in the corner keeps the popover inside the work area', () => {
    const trayBounds = { x: 1880, y: 1044, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea: bottomBar, size })).toMatchObject({ x: 1520, y: 440 });
    const left = { x: 4, y: 1044, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds: left, workArea: bottomBar, size })).toMatchObject({
      x: 0,
      y: 440,
    });
  });

  it('menu bar or taskbar on top (macOS): below the icon', () => {
    const trayBounds = { x: 1700, y: 0, width: 24, height: 24 };
    expect(
      windowPlacementOf({ trayBounds, workArea: { x: 0, y: 25, width: 1920, height: 1055 }, size }),
    ).toEqual({
      kind: 'popover',
      edge: 'top',
      x: 1512,
      y: 25,
      width: 400,
      height: 600,
    });
    const onTall = { x: 1700, y: 4, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds: onTall, workArea: topBar, size })).toMatchObject({
      edge: 'top',
      y: 40,
    });
  });

  it('taskbar on the left: right of the icon, centred on it vertically', () => {
    const trayBounds = { x: 14, y: 900, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea: leftBar, size })).toEqual({
      kind: 'popover',
      edge: 'left',
      x: 60,
      y: 480,
      width: 400,
      height: 600,
    });
  });

  it('taskbar on the right: left of the icon, clamped to the bottom of the work area', () => {
    const trayBounds = { x: 1874, y: 1040, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea: rightBar, size })).toEqual({
      kind: 'popover',
      edge: 'right',
      x: 1460,
      y: 480,
      width: 400,
      height: 600,
    });
  });

  it('an auto-hidden taskbar (icon inside the work area) goes by the nearest edge', () => {
    const full: Rectangle = { x: 0, y: 0, width: 1920, height: 1080 };
    expect(taskbarEdgeOf({ x: 1500, y: 1050, width: 30, height: 30 }, full)).toBe('bottom');
    expect(taskbarEdgeOf({ x: 1500, y: 0, width: 30, height: 30 }, full)).toBe('top');
    expect(taskbarEdgeOf({ x: 0, y: 500, width: 30, height: 30 }, full)).toBe('left');
    expect(taskbarEdgeOf({ x: 1890, y: 500, width: 30, height: 30 }, full)).toBe('right');
    expect(
      windowPlacementOf({ trayBounds: { x: 1500, y: 1050, width: 30, height: 30 }, workArea: full, size }),
    ).toEqual({ kind: 'popover', edge: 'bottom', x: 1315, y: 450, width: 400, height: 600 });
  });

  it('a second display to the right, taskbar at its bottom', () => {
    const workArea = { x: 1920, y: 0, width: 2560, height: 1400 };
    const trayBounds = { x: 4400, y: 1404, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea, size })).toMatchObject({
      kind: 'popover',
      x: 4080,
      y: 800,
    });
  });

  it('unknown icon place (null, or all zeros as on Linux): a normal window centred on the work area', () => {
    const workArea = { x: 0, y: 32, width: 1920, height: 1048 };
    const centred = { kind: 'window', x: 760, y: 256, width: 400, height: 600 };
    expect(windowPlacementOf({ trayBounds: null, workArea, size })).toEqual(centred);
    expect(windowPlacementOf({ trayBounds: { x: 0, y: 0, width: 0, height: 0 }, workArea, size })).toEqual(
      centred,
    );
  });

  it('a work area smaller than the window shrinks the window to it', () => {
    const workArea = { x: 0, y: 0, width: 800, height: 560 };
    expect(windowPlacementOf({ trayBounds: null, workArea, size })).toEqual({
      kind: 'window',
      x: 200,
      y: 0,
      width: 400,
      height: 560,
    });
    const trayBounds = { x: 700, y: 564, width: 32, height: 32 };
    expect(windowPlacementOf({ trayBounds, workArea, size })).toEqual({
      kind: 'popover',
      edge: 'bottom',
      x: 400,
      y: 0,
      width: 400,
      height: 560,
    });
  });
});
