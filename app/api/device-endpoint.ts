// What the device modules (listing, download, resumable upload) need of a device client: its URLs and its transport.
import type { ApiResponse, RequestSpec, Transport } from './http/transport.ts';

/**
 * The part of `DeviceClient` the modules it is built from call back into. It lives in a leaf file so
 * that those modules do not import `device-client.ts`, which imports them: imports run one way.
 */
export interface DeviceEndpoint {
  readonly deviceUrl: URL;
  readonly transport: Transport;
  /** Bytes per PUT of a resumable upload. */
  readonly chunkBytes: number;
  /** An absolute URL for a device path such as `/sdk/v2/files/x` (kept under a relay base's path). */
  url(path: string, query?: Record<string, string | number | boolean | undefined>): URL;
  /** Sends a request and returns the answer. */
  send(spec: RequestSpec): Promise<ApiResponse>;
}
