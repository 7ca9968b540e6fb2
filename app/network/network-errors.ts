// The network monitor's errors: a bus that cannot be reached or answers wrongly, a call refused.
import { MchError } from '../../common/errors.ts';

export type DbusErrorCode =
  /** No bus at the address (no socket, refused, not a D-Bus address this client speaks). */
  | 'DBUS_UNREACHABLE'
  /** The bus refused the sign-in (SASL EXTERNAL) or said something that is not the protocol. */
  | 'DBUS_AUTH_FAILED'
  /** A message that breaks the wire format or its bounds: the connection is closed. */
  | 'DBUS_BAD_MESSAGE'
  /** The other side answered a call with an error (its D-Bus name is in `dbusName`). */
  | 'DBUS_CALL_FAILED'
  /** The connection closed before the answer came. */
  | 'DBUS_CLOSED'
  /** No answer within the call's time. */
  | 'DBUS_TIMEOUT';

export class DbusError extends MchError {
  declare readonly code: DbusErrorCode;
  /** For DBUS_CALL_FAILED: the error's name (`org.freedesktop.DBus.Error.ServiceUnknown`...). */
  readonly dbusName: string | undefined;

  constructor(code: DbusErrorCode, message: string, options: { dbusName?: string; cause?: unknown } = {}) {
    super(code, 'System bus', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.dbusName = options.dbusName;
  }
}
