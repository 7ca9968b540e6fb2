// Typed failures of the on-demand mount: FUSE missing, a mount point that cannot be used, a bad start.
import { MchError } from '../../common/errors.ts';

/**
 * `FUSE_UNAVAILABLE`: no libfuse2 or no /dev/fuse here; `MOUNT_POINT_MISSING`: the mount point is not
 * a folder; `MOUNT_POINT_NOT_EMPTY`: it holds something (a mount would hide it); `MOUNT_SOURCE_MISSING`:
 * the cache folder is not a folder; `MOUNT_FAILED`: libfuse refused; `MOUNT_BAD_ARGUMENTS`: the mount
 * process was started wrongly; `HYDRATION_SOCKET_FAILED`: the service's socket could not be reached or
 * sent something that is not the protocol.
 */
export type MountErrorCode =
  | 'FUSE_UNAVAILABLE'
  | 'MOUNT_POINT_MISSING'
  | 'MOUNT_POINT_NOT_EMPTY'
  | 'MOUNT_SOURCE_MISSING'
  | 'MOUNT_FAILED'
  | 'MOUNT_BAD_ARGUMENTS'
  | 'HYDRATION_SOCKET_FAILED';

/** The mount process's exit code when its folder was unmounted by someone else (not by a stop). */
export const UNMOUNTED_FROM_OUTSIDE_EXIT = 3;

const TITLES: Record<MountErrorCode, string> = {
  FUSE_UNAVAILABLE: 'FUSE not available',
  MOUNT_POINT_MISSING: 'Folder missing',
  MOUNT_POINT_NOT_EMPTY: 'Folder not empty',
  MOUNT_SOURCE_MISSING: 'Cache folder missing',
  MOUNT_FAILED: 'Could not show the folder',
  MOUNT_BAD_ARGUMENTS: 'Bad mount arguments',
  HYDRATION_SOCKET_FAILED: 'Service unreachable',
};

export class MountError extends MchError {
  declare readonly code: MountErrorCode;

  constructor(code: MountErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, TITLES[code], message, options);
  }
}

/** Whether `code` is one of the mount's (for an error read back from the mount process's output). */
export function isMountErrorCode(code: string): code is MountErrorCode {
  return Object.hasOwn(TITLES, code);
}
