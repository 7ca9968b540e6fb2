// Our emblem icons: drawn at 16 px, named as the file managers look them up, installed and removed as our own files only.
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EMBLEM_NAMES,
  emblemIconsState,
  emblemIconsTarget,
  emblemKeyword,
  installEmblemIcons,
  removeEmblemIcons,
  renderEmblemSvg,
  STATE_EMBLEMS,
} from '../../../../app/integrate/emblem-icons.ts';
import { describeEntry, GENERATED_MARKER } from '../../../../app/integrate/entry-description.ts';
import { FILE_SYNC_STATES } from '../../../../common/file-state.ts';
import { renderPixels } from '../../../../scripts/icons/icon-set.ts';

const defaultProfile = describeEntry({
  baseCommand: ['/usr/bin/mch-sync'],
  profileDir: '/p',
  defaultProfile: true,
});
const otherProfile = describeEntry({
  baseCommand: ['/usr/bin/mch-sync'],
  profileDir: '/q',
  defaultProfile: false,
});

let data: string;
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'mch-emblem-icons-'));
});
afterEach(() => rmSync(data, { recursive: true, force: true }));

describe('the emblems', () => {
  it('has one for every state a file manager shows, and none for outside', () => {
    expect(Object.keys(STATE_EMBLEMS).sort()).toEqual(FILE_SYNC_STATES.filter((s) => s !== 'outside').sort());
    expect(new Set(Object.values(STATE_EMBLEMS))).toEqual(
      new Set(EMBLEM_NAMES.filter((n) => n !== 'shared')),
    );
  });

  it.each(EMBLEM_NAMES)(
    'draws %s at 16 px: a round badge that fills most of the square, two colours or more',
    (name) => {
      const svg = renderEmblemSvg(name);
      expect(svg.split('\n', 1)[0]).toContain(GENERATED_MARKER);
      const { width, rgba } = renderPixels(svg, 16);
      expect(width).toBe(16);
      let opaque = 0;
      const colours = new Set<string>();
      for (let at = 0; at < rgba.length; at += 4) {
        if ((rgba[at + 3] ?? 0) < 255) continue;
        opaque += 1;
        colours.add(`${rgba[at]},${rgba[at + 1]},${rgba[at + 2]}`);
      }
      expect(opaque).toBeGreaterThan(150);
      expect(colours.size).toBeGreaterThan(1);
    },
  );

  it("names the files as Nautilus, Nemo and Caja look a keyword up (emblem-<keyword>), with another profile's key", () => {
    expect(emblemKeyword(defaultProfile, 'up-to-date')).toBe('mch-sync-up-to-date');
    expect(emblemKeyword(otherProfile, 'up-to-date')).toMatch(/^mch-sync-[0-9a-f]{8}-up-to-date$/);
    const target = emblemIconsTarget(defaultProfile, data);
    expect(target.path).toBe(join(data, 'icons', 'hicolor', 'scalable', 'emblems'));
    expect(target.files.map((file) => file.name)).toContain('emblem-mch-sync-conflict.svg');
  });
});

describe('installing and removing them', () => {
  it('writes them 0644 once, touches the theme folder, and removes only ours', async () => {
    const target = emblemIconsTarget(defaultProfile, data);
    expect(await emblemIconsState(target)).toEqual({ state: 'not-installed' });
    expect(await installEmblemIcons(target)).toBe('written');
    expect(readdirSync(target.path).sort()).toEqual(target.files.map((file) => file.name).sort());
    for (const file of target.files) expect(statSync(join(target.path, file.name)).mode & 0o777).toBe(0o644);
    expect(await emblemIconsState(target)).toEqual({ state: 'installed' });

    utimesSync(target.themeDir, new Date(1_000_000), new Date(1_000_000));
    expect(await installEmblemIcons(target)).toBe('unchanged');
    expect(statSync(target.themeDir).mtimeMs).toBe(1_000_000);
    writeFileSync(join(target.path, target.files[0]?.name ?? ''), '<svg/>');
    expect(await emblemIconsState(target)).toEqual({ state: 'outdated' });
    expect(await installEmblemIcons(target)).toBe('written');
    expect(statSync(target.themeDir).mtimeMs).toBeGreaterThan(1_000_000);

    // Someone else's icon at one of our names, and another file in the folder, stay.
    writeFileSync(join(target.path, target.files[1]?.name ?? ''), '<svg>theirs</svg>');
    writeFileSync(join(target.path, 'emblem-other.svg'), '<svg/>');
    expect(await removeEmblemIcons(target)).toBe('removed');
    expect(readdirSync(target.path).sort()).toEqual([target.files[1]?.name, 'emblem-other.svg'].sort());
    expect(await removeEmblemIcons(target)).toBe('not-ours');
  });

  it("keeps another profile's icons apart", async () => {
    await installEmblemIcons(emblemIconsTarget(defaultProfile, data));
    const other = emblemIconsTarget(otherProfile, data);
    await installEmblemIcons(other);
    expect(await removeEmblemIcons(other)).toBe('removed');
    expect(await emblemIconsState(emblemIconsTarget(defaultProfile, data))).toEqual({ state: 'installed' });
  });
});
