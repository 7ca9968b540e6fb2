// Where the window goes: a popover beside the tray icon on the taskbar's side, or a normal centred window when the icon's place is unknown.

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The side of the work area the taskbar (and so the tray icon) is on. */
export type TaskbarEdge = 'top' | 'bottom' | 'left' | 'right';

export type WindowPlacement =
  | ({ kind: 'popover'; edge: TaskbarEdge } & Rectangle)
  /** A normal window: framed, movable, centred on the work area; the window manager may place it anyway. */
  | ({ kind: 'window' } & Rectangle);

export interface PlacementInput {
  /**
   * `tray.getBounds()`: null where the platform does not say; Linux answers all zeros (a
   * StatusNotifierItem has no position the app can read), and so do Wayland and tiling window
   * managers, where a window cannot place itself anyway.
   */
  trayBounds: Rectangle | null;
  /** The work area of the display the icon is on (the display minus taskbars and menu bar). */
  workArea: Rectangle;
  /** The window's wanted size, e.g. 400×600; shrunk to fit a smaller work area. */
  size: { width: number; height: number };
}

export function windowPlacementOf(input: PlacementInput): WindowPlacement {
  const { trayBounds, workArea } = input;
  const width = Math.min(input.size.width, workArea.width);
  const height = Math.min(input.size.height, workArea.height);
  if (trayBounds === null || trayBounds.width <= 0 || trayBounds.height <= 0) {
    return {
      kind: 'window',
      x: Math.round(workArea.x + (workArea.width - width) / 2),
      y: Math.round(workArea.y + (workArea.height - height) / 2),
      width,
      height,
    };
  }
  const edge = taskbarEdgeOf(trayBounds, workArea);
  const centreX = trayBounds.x + trayBounds.width / 2;
  const centreY = trayBounds.y + trayBounds.height / 2;
  let x: number;
  let y: number;
  switch (edge) {
    case 'bottom':
      x = centreX - width / 2;
      y = trayBounds.y - height;
      break;
    case 'top':
      x = centreX - width / 2;
      y = trayBounds.y + trayBounds.height;
      break;
    case 'left':
      x = trayBounds.x + trayBounds.width;
      y = centreY - height / 2;
      break;
    case 'right':
      x = trayBounds.x - width;
      y = centreY - height / 2;
      break;
  }
  // Whatever the icon's place, the window stays whole inside the work area (off the taskbar).
  return {
    kind: 'popover',
    edge,
    x: Math.round(clamp(x, workArea.x, workArea.x + workArea.width - width)),
    y: Math.round(clamp(y, workArea.y, workArea.y + workArea.height - height)),
    width,
    height,
  };
}

/**
 * The icon lies outside the work area on the taskbar's side (Windows, macOS's menu bar on top). An
 * auto-hidden taskbar leaves the work area whole, so the icon is inside it: then the nearest edge.
 */
export function taskbarEdgeOf(trayBounds: Rectangle, workArea: Rectangle): TaskbarEdge {
  const centreX = trayBounds.x + trayBounds.width / 2;
  const centreY = trayBounds.y + trayBounds.height / 2;
  const right = workArea.x + workArea.width;
  const bottom = workArea.y + workArea.height;
  if (centreY >= bottom) return 'bottom';
  if (centreY < workArea.y) return 'top';
  if (centreX < workArea.x) return 'left';
  if (centreX >= right) return 'right';
  const distances: Array<[TaskbarEdge, number]> = [
    ['bottom', bottom - centreY],
    ['top', centreY - workArea.y],
    ['left', centreX - workArea.x],
    ['right', right - centreX],
  ];
  distances.sort((a, b) => a[1] - b[1]);
  return distances[0]?.[0] ?? 'bottom';
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, max));
}
