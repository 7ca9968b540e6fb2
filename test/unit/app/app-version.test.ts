// packageVersion and clientVersion: the version found from the sources and from a compiled tree one folder deeper.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clientVersion, packageVersion } from '../../../app/app-version.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'mch-version-'));
  made.push(root);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'mch-sync', version: '1.2.3' }));
  return root;
}

describe('packageVersion', () => {
  it('finds the package from the sources and from the compiled tree one folder deeper', () => {
    const root = tree();
    mkdirSync(join(root, 'app', 'ui'), { recursive: true });
    mkdirSync(join(root, 'dist', 'app', 'ui'), { recursive: true });
    expect(packageVersion(join(root, 'app', 'ui'))).toBe('1.2.3');
    expect(packageVersion(join(root, 'dist', 'app', 'ui'))).toBe('1.2.3');
  });

  it("skips another package's package.json on the way up", () => {
    const root = tree();
    const inner = join(root, 'node_modules', 'other');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(inner, 'package.json'), JSON.stringify({ name: 'other', version: '9.9.9' }));
    expect(packageVersion(inner)).toBe('1.2.3');
  });

  it('says so when there is none', () => {
    expect(() => packageVersion(tmpdir(), 'no-such-package-here')).toThrow(
      /no package.json of no-such-package-here/,
    );
  });

  it("is this repository's version for the client", () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(clientVersion()).toBe(version);
  });
});
