// The one Content-Security-Policy of the window, sent by the headless host and set by the Electron host.

/**
 * Only this origin's own files: no inline script or style, no `eval`, no plugins, no frames, no forms
 * posting elsewhere. Images may also be `data:` and `blob:` URLs (thumbnails the renderer makes). The
 * renderer's build must keep to it: Vite's output is files under `assets/`, which it is.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
