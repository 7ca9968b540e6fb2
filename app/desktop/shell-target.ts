// What the core asks the system to open: a web address goes to the browser, anything else is a local path for its application or the file manager.

export type ShellTarget = { kind: 'url'; url: string } | { kind: 'path'; path: string };

/**
 * The core hands one opener both kinds (UiCoreOptions.openExternal): sign-in pages and share links
 * (http or https only, checked by the contract's schema) and synced paths (checked to be inside a
 * pair). Only http and https go to `shell.openExternal`: any other scheme there could start an
 * arbitrary registered handler. A path is never read as a URL, whatever it looks like.
 */
export function shellTargetOf(target: string): ShellTarget {
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'url', url: url.href };
    } catch {
      // Not a URL after all: handled as a path below, which the opener refuses unless absolute.
    }
  }
  return { kind: 'path', path: target };
}
