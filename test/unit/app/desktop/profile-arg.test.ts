// profileFlagOf: the app's --profile, as mch-sync takes it.
import { describe, expect, it } from 'vitest';
import { profileFlagOf } from '../../../../app/desktop/profile-arg.ts';

describe('profileFlagOf', () => {
  it.each<[string[], string | undefined]>([
    [['/opt/mch/mch-sync'], undefined],
    [['/opt/mch/mch-sync', '--profile', '/home/ann/p'], '/home/ann/p'],
    [['/opt/mch/mch-sync', '--profile=/home/ann/p', '--share', '/a'], '/home/ann/p'],
    [['electron', '.', '--profile', 'rel', '--profile', 'last'], 'last'],
    [['app', '--profile', '--share', '/a'], undefined],
    [['app', '--profile='], undefined],
    [['app', '--share', '--', '--profile', '/x'], undefined],
  ])('%j gives %s', (argv, profile) => {
    expect(profileFlagOf(argv)).toBe(profile);
  });
});
