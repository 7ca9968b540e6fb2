// Wire types of the configuration, device lookup and user lookup services (device-api.md §5).

/** The envelope of the cloud services: `error` is null on success, `data` null on failure. */
export interface Wrapped<T> {
  data: T | null;
  error: { label: string; message: string } | null;
}

/** Keys of `componentMap["cloud.service.urls"]` that clients use. */
export type ServiceUrlKey =
  | 'service.device.url'
  | 'service.share.url'
  | 'service.identity.url'
  | 'service.auth0.url'
  | 'service.auth.url'
  | 'service.client.url';

export interface Configuration {
  configurationId: string;
  name: string;
  modelId: string;
  modifiedOn: number;
  createdOn: number;
  componentMap: {
    'cloud.service.urls': Record<ServiceUrlKey, string> & Record<string, string>;
  } & Record<string, unknown>;
}

export interface DeviceNetwork {
  internalDNSName: string;
  internalURL: string;
  proxyURL: string;
  externalURI: string;
}

export interface DeviceRecord {
  deviceId: string;
  name: string;
  modelId: string;
  type: string;
  serialNumber: string;
  createdOn: number;
  network: DeviceNetwork;
}

export interface UserRecord {
  user_id: string;
  email: string;
  name: string;
  user_metadata: { first_name: string; last_name: string; lang: string; time_zone_name: string };
}
