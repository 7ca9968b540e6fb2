// Unit tests of how often the device looks for abandoned resumable uploads.
import { describe, expect, it } from 'vitest';
import { DEFAULT_UPLOAD_TTL_SECONDS, sweepIntervalFor } from '../../../../device/store/upload-sweeper.ts';

describe('sweepIntervalFor', () => {
  it('looks every quarter of the age, at least every second and at most every hour', () => {
    expect(sweepIntervalFor(DEFAULT_UPLOAD_TTL_SECONDS)).toBe(3_600_000);
    expect(sweepIntervalFor(60)).toBe(15_000);
    expect(sweepIntervalFor(1)).toBe(1000);
  });
});
