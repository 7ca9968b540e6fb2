// "Copy share link" from the file manager in the running app: the link of the paths through the UiCore, on the clipboard, told as a notification.
import { relative, isAbsolute } from 'node:path';
import type { PairView, ShareView, ViewName } from '../../common/contract.ts';
import { MchError } from '../../common/errors.ts';
import { SHARE_NOTICES } from '../share/share-paths.ts';
import { shareThroughCore } from '../ui/content-handlers.ts';
import type { UiCore } from '../ui/ui-core.ts';

/** The clipboard of the host; the Electron glue gives `clipboard.writeText`. */
export interface ClipboardPort {
  writeText(text: string): void | Promise<void>;
}

/** What to tell the person, shaped like a NotificationView: clicking it opens `view`. */
export interface ShareNotice {
  /** `waiting`: only told through `onWaiting`, before the outcome, when items are uploaded first. */
  outcome: 'copied' | 'not-copied' | 'failed' | 'waiting';
  title: string;
  body: string;
  view: ViewName;
  /** The link, when one was made or found. */
  url: string | null;
  /** The failure's stable code, when it failed. */
  code: string | null;
}

export interface ShareActionOptions {
  core: UiCore;
  clipboard: ClipboardPort;
  /** Said when items must be uploaded first (up to a minute), so a slow share is not a silent one. */
  onWaiting?: (notice: ShareNotice) => void;
}

/**
 * The same flow as `mch-sync share --copy --notify` (app/share/share-paths.ts), over the app's own
 * sign-in and folder pairs: items not uploaded yet are synced first by the pairs' running services.
 * Never throws: every outcome is a notice that says what happened and what to do.
 */
export class ShareAction {
  readonly #options: ShareActionOptions;

  constructor(options: ShareActionOptions) {
    this.#options = options;
  }

  async share(paths: readonly string[], options: { signal?: AbortSignal } = {}): Promise<ShareNotice> {
    const { core, clipboard, onWaiting } = this.#options;
    let link;
    try {
      link = await shareThroughCore(core, paths, {
        onWaiting: (message) => {
          core.options.log('info', message);
          onWaiting?.({
            outcome: 'waiting',
            title: 'Uploading first',
            body: 'The items are not on the device yet: the link is copied once they are uploaded.',
            view: 'status',
            url: null,
            code: null,
          });
        },
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (!(error instanceof MchError)) {
        core.options.log('error', `the share action failed: ${String(error)}`);
      }
      return failureNotice(error, { pairs: core.pairViews(), paths });
    }
    void this.#tellWindow();
    try {
      await clipboard.writeText(link.url);
    } catch (error) {
      return {
        outcome: 'not-copied',
        title: SHARE_NOTICES.notCopiedTitle,
        body: SHARE_NOTICES.notCopiedBody(`The clipboard refused it (${messageOf(error)}).`, link.url),
        view: 'shares',
        url: link.url,
        code: 'CLIPBOARD_UNAVAILABLE',
      };
    }
    return {
      outcome: 'copied',
      title: SHARE_NOTICES.copiedTitle,
      body: SHARE_NOTICES.copiedBody(link.items),
      view: 'shares',
      url: link.url,
      code: null,
    };
  }

  /** An open window lists the new link (shares:changed), as after its own shares:create. */
  async #tellWindow(): Promise<void> {
    const { core } = this.#options;
    try {
      // The handlers map is typed loosely (its requests by schema); shares:list answers ShareView[].
      core.emit('shares:changed', (await core.handlers['shares:list']({})) as ShareView[]);
    } catch (error) {
      core.options.log('warn', `the shares could not be listed again: ${messageOf(error)}`);
    }
  }
}

/** A failure in the app's words: where to go and what to do there, never a command to type. */
export function failureNotice(
  error: unknown,
  context: { pairs: readonly PairView[]; paths: readonly string[] },
): ShareNotice {
  const failed = (title: string, body: string, view: ViewName): ShareNotice => ({
    outcome: 'failed',
    title,
    body,
    view,
    url: null,
    code: error instanceof MchError ? error.code : 'BUG',
  });
  if (!(error instanceof MchError)) {
    return failed(SHARE_NOTICES.failedTitle, `Something went wrong: ${messageOf(error)}`, 'status');
  }
  // Messages written for the command line name commands to type; the app says where to click instead.
  const ownWords = error.message.includes('`') ? null : error.message;
  switch (error.code) {
    case 'NOT_IN_SYNCED_FOLDER':
      return context.pairs.length === 0
        ? failed(
            error.title,
            'No folder is synced yet: add one in the window, then share from inside it.',
            'first-run',
          )
        : failed(error.title, ownWords ?? 'Only items in a synced folder can be shared.', 'settings');
    case 'IN_STATE_FOLDER':
    case 'LOCAL_ITEM_MISSING':
      return failed(error.title, ownWords ?? error.title, 'status');
    case 'NOT_UPLOADED_YET': {
      const paused = context.pairs.find(
        (pair) => pair.paused && context.paths.some((given) => isInside(given, pair.localRoot)),
      );
      if (paused !== undefined) {
        return failed(
          error.title,
          `Syncing of ${paused.localRoot} is paused, so it cannot upload what you shared: resume it, then share again.`,
          'status',
        );
      }
      return failed(
        error.title,
        ownWords ??
          'It is not on the device yet and could not be uploaded now. Status and Issues show what the sync of ' +
            'its folder is doing (resume it if it is paused); share again once it is up to date.',
        'issues',
      );
    }
    case 'SIGN_IN_REQUIRED':
    case 'AUTH_REQUIRED':
    case 'AUTH_INVALID_CREDENTIALS':
      return failed(
        'Sign in to share',
        'Sign in to your device in the window, then share again.',
        'first-run',
      );
    case 'DEVICE_UNREACHABLE':
    case 'NETWORK':
    case 'TIMEOUT':
      return failed(
        'Device unreachable',
        'The device did not answer, so no link was made. Check that it is on and connected, then share again.',
        'status',
      );
    case 'SERVER_ERROR':
    case 'RATE_LIMITED':
      return failed('Device busy', 'The device is busy or failing: share again in a few minutes.', 'status');
    default:
      return failed(
        error.title || SHARE_NOTICES.failedTitle,
        ownWords ?? SHARE_NOTICES.failedTitle,
        'status',
      );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isInside(path: string, root: string): boolean {
  const inner = relative(root, path);
  return inner === '' || (!inner.startsWith('..') && !isAbsolute(inner));
}
