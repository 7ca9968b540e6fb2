// The profile's own errors: a settings file that exists but cannot be used.
import { MchError } from '../../common/errors.ts';

/** The profile's settings file exists but cannot be used. */
export class ProfileError extends MchError {
  declare readonly code: 'PROFILE_INVALID';

  constructor(message: string, options?: { cause?: unknown }) {
    super('PROFILE_INVALID', 'Settings unreadable', message, options);
  }
}
