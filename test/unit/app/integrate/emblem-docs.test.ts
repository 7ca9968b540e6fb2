// The emblems the README shows are the ones integrate installs: docs/emblems/*.svg are renderEmblemSvg's output (UPDATE_GOLDEN=1 writes them).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMBLEM_NAMES, renderEmblemSvg } from '../../../../app/integrate/emblem-icons.ts';

const DOCS = join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'emblems');

describe('the emblems in the README', () => {
  it('are the installed icons, one file each and nothing else', () => {
    for (const name of EMBLEM_NAMES) {
      const path = join(DOCS, `${name}.svg`);
      if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(path, renderEmblemSvg(name));
      expect(existsSync(path) ? readFileSync(path, 'utf8') : '(missing)', path).toBe(renderEmblemSvg(name));
    }
    expect(readdirSync(DOCS).sort()).toEqual(EMBLEM_NAMES.map((name) => `${name}.svg`).sort());
  });
});
