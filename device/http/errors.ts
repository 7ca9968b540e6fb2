// HTTP errors of the device: a status plus the JSON body `{label, message}` of device-api.md §3.
import { MchError } from '../../common/errors.ts';

export class HttpError extends MchError {
  readonly status: number;
  /** Extra response headers, e.g. `WWW-Authenticate` on a 401. */
  readonly headers: Record<string, string>;

  constructor(status: number, label: string, message: string, headers: Record<string, string> = {}) {
    super(label, label, message);
    this.status = status;
    this.headers = headers;
  }

  get label(): string {
    return this.code;
  }
}

export const badRequest = (label: string, message: string): HttpError => new HttpError(400, label, message);
export const notFound = (label: string, message: string): HttpError => new HttpError(404, label, message);
export const conflict = (label: string, message: string): HttpError => new HttpError(409, label, message);
export const forbidden = (label: string, message: string): HttpError => new HttpError(403, label, message);
export const preconditionFailed = (message = 'The item has changed since the given eTag.'): HttpError =>
  new HttpError(412, 'PRECONDITION_FAILED', message);
export const unauthorized = (message: string): HttpError =>
  new HttpError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer' });
