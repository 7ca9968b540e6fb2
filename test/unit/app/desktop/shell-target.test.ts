// shellTargetOf: only http and https addresses go to the browser; everything else is a path.
import { describe, expect, it } from 'vitest';
import { shellTargetOf } from '../../../../app/desktop/shell-target.ts';

describe('shellTargetOf', () => {
  it.each(['https://device.test/s/abc', 'http://127.0.0.1:4780/s/x?y=1', 'HTTPS://Device.Test/'])(
    'sends %s to the browser',
    (target) => {
      expect(shellTargetOf(target).kind).toBe('url');
    },
  );

  it.each([
    '/home/ann/MyCloud/report.pdf',
    'C:\\Users\\ann\\MyCloud',
    'file:///etc/passwd',
    'ms-settings:x',
    'javascript:alert(1)',
    'http:/x',
  ])('treats %s as a path', (target) => {
    expect(shellTargetOf(target)).toEqual({ kind: 'path', path: target });
  });
});
