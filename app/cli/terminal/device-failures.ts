// Device failures of a command that runs once: the advice of the sync engine ("will try again later") replaced by what to do now.
import {
  ApiError,
  AuthError,
  DeviceError,
  DeviceUnreachableError,
  type ApiErrorDetails,
} from '../../../common/errors.ts';

/**
 * Runs `work` (which talks to the device) and rewrites its transient failures for a person at a
 * prompt: the transport's messages say the engine will retry, but a one-shot command exits instead.
 * The codes stay what they were (an unreachable device becomes DEVICE_UNREACHABLE); other errors pass
 * through unchanged.
 */
export async function withDeviceAdvice<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ApiError ? adviseOn(error, what) : error;
  }
}

function adviseOn(error: ApiError, what: string): ApiError {
  const details: ApiErrorDetails = {
    cause: error,
    correlationId: error.correlationId,
    label: error.label,
    request: error.request,
  };
  const { code } = error;
  if (code === 'NETWORK' || code === 'TIMEOUT' || code === 'DEVICE_UNREACHABLE') {
    return new DeviceUnreachableError(
      `Could not ${what}: the device did not answer (${causeText(error)}). Check that it is on and ` +
        'connected, then run this again; `mch-sync devices` looks for its address again if it changed.',
      details,
    );
  }
  if (code === 'SERVER_ERROR' || code === 'RATE_LIMITED') {
    return new DeviceError(
      code,
      error.title,
      `Could not ${what}: the device is busy or failing. Try again in a few minutes.`,
      details,
    );
  }
  if (code === 'AUTH_REQUIRED') {
    return new AuthError(
      'AUTH_REQUIRED',
      `Could not ${what}: the device refused the sign-in. Run \`mch-sync login\` again.`,
      details,
    );
  }
  return error;
}

/** The low-level reason (`connect ECONNREFUSED 127.0.0.1:4780`), or the error's own message. */
function causeText(error: ApiError): string {
  const cause: unknown = error.cause;
  const text = cause instanceof Error && cause.message !== '' ? cause.message : error.message;
  return text.replace(/[;.]? *will try again later\.?$/, '');
}
