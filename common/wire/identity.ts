// Wire types of the identity provider (device-api.md §2).

/** Every scope the identity provider knows. */
export const ALL_SCOPES = [
  'openid',
  'email',
  'profile',
  'offline_access',
  'nas_read_only',
  'nas_read_write',
  'user_read',
  'device_read',
] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** The public client of the desktop app; it has no secret, PKCE protects its code flow. */
export const DESKTOP_CLIENT_ID = 'mch-desktop';

export const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';

export interface TokenResponse {
  access_token: string;
  /** Left out of a refresh answer: the client keeps the refresh token it has. */
  refresh_token?: string;
  id_token?: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

export interface UserInfo {
  sub: string;
  email: string;
  name: string;
}

export interface OAuthErrorBody {
  error: string;
  error_description: string;
}
