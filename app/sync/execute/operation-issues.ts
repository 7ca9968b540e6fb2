// What an operation that failed becomes in the pass report: its item's problem in words, classed by what the user can do.
import { ApiError, assertNever, InvalidNameError, MchError } from '../../../common/errors.ts';
import { ReplanNeeded } from './replan-needed.ts';
import { fileError, type FileAction } from '../local/file-errors.ts';
import { deviceNameProblem, remoteNameProblem } from '../local/local-names.ts';
import { UnsafePathError } from '../local/local-paths.ts';
import { TrashError } from '../trash/local-trash.ts';
import type { Operation } from '../plan/operations.ts';
import { unsyncedItem, type PassIssue } from '../pass-report.ts';

/** The path an operation is about: where its item is (or goes) in the synced folder. */
export function pathOf(operation: Operation): string {
  if ('path' in operation) return operation.path;
  if ('toPath' in operation) return operation.toPath;
  return operation.op === 'index-remove' ? operation.index.path : operation.local.path;
}

/** What the operation does to its item, for messages: "The connection broke while it was <doing>". */
function doing(operation: Operation): string {
  switch (operation.op) {
    case 'upload':
    case 'upload-content':
      return 'uploaded';
    case 'download':
    case 'download-content':
      return 'downloaded';
    case 'remote-create-folder':
      return 'made on the device';
    case 'remote-move':
      return 'moved on the device';
    case 'remote-delete':
      return 'deleted on the device';
    case 'local-mkdir':
      return 'made here';
    case 'local-move':
      return 'moved here';
    case 'local-trash':
      return 'moved to the trash here';
    case 'index-update':
    case 'index-remove':
      return 'recorded';
    default:
      return assertNever(operation, 'operation');
  }
}

/** What a file system error of the operation was about: the file read to send it, or a place here. */
function fileAction(operation: Operation): FileAction {
  switch (operation.op) {
    case 'download':
    case 'download-content':
    case 'index-update':
    case 'index-remove':
      return 'write';
    case 'local-mkdir':
      return 'create-folder';
    case 'local-move':
      return 'move';
    case 'local-trash':
      return 'trash';
    case 'upload':
    case 'upload-content':
    case 'remote-create-folder':
    case 'remote-move':
    case 'remote-delete':
      return 'read';
    default:
      return assertNever(operation, 'operation');
  }
}

/**
 * The issue of an operation's failure and whether the round should plan again. The device's own error
 * messages name items by id and say "will try again later" whatever the outcome, so each answer gets
 * words here, by what the user can do; the details go to the log. Anything else is not an item's
 * problem and is thrown.
 */
export function issueFor(operation: Operation, error: unknown): { issue: PassIssue; replan: boolean } {
  const path = pathOf(operation);
  if (error instanceof ReplanNeeded) {
    // A state other than the planned one: always looked at again, whatever the code.
    const issue: PassIssue = {
      kind: 'retry',
      remedy: 'retry-later',
      path: error.path,
      code: error.code,
      message: error.message,
    };
    return { issue, replan: true };
  }
  if (error instanceof UnsafePathError) {
    const message =
      'On the device: its name would lead outside the synced folder, so it is never brought here. Rename it on the device to sync it.';
    return { issue: unsyncedItem(error.code, path, message), replan: false };
  }
  if (error instanceof InvalidNameError) {
    const name = error.invalidName;
    const local =
      operation.op === 'upload' || operation.op === 'remote-create-folder' || operation.op === 'remote-move';
    const message = (local ? deviceNameProblem(name) : remoteNameProblem(name)) ?? error.message;
    return { issue: unsyncedItem(error.code, path, message), replan: false };
  }
  if (error instanceof ApiError) return deviceAnswer(operation, path, error);
  const local = fileError(error, fileAction(operation));
  if (local !== undefined) {
    return {
      issue: unsyncedItem(local.code, path, local.message),
      replan: local.code === 'CHANGED_MEANWHILE',
    };
  }
  if (error instanceof TrashError) {
    const message =
      'It was deleted on the device, but no trash here could take it; it stays where it is and the next run tries again.';
    return { issue: unsyncedItem(error.code, path, message), replan: false };
  }
  if (error instanceof MchError)
    return { issue: unsyncedItem(error.code, path, error.message), replan: false };
  throw error;
}

/** An answer of the device (or none) that failed this item only. */
function deviceAnswer(
  operation: Operation,
  path: string,
  error: ApiError,
): { issue: PassIssue; replan: boolean } {
  const verb = doing(operation);
  const item = (
    code: string,
    message: string,
    { replan }: { replan: boolean } = { replan: false },
  ): { issue: PassIssue; replan: boolean } => ({ issue: unsyncedItem(code, path, message), replan });
  switch (error.code) {
    case 'SOURCE_CHANGED':
      return item('LOCAL_CHANGED', 'It changed while it was sent; it is sent again once it is quiet.', {
        replan: true,
      });
    case 'NETWORK':
    case 'TIMEOUT':
    case 'DEVICE_UNREACHABLE':
      return item(
        error.code,
        `The connection to the device broke while it was ${verb}; the next run tries again.`,
      );
    case 'OUTCOME_UNKNOWN':
      return item(
        error.code,
        `The connection broke while it was ${verb}; the next run looks whether it happened.`,
      );
    case 'RATE_LIMITED':
      return item(error.code, `The device was too busy while it was ${verb}; the next run tries again.`);
    case 'SERVER_ERROR':
      // device-api.md: 507 INSUFFICIENT_STORAGE is the device's own disk full, which waiting does not fix.
      if (error.label === 'INSUFFICIENT_STORAGE') {
        return item(
          'DEVICE_FULL',
          `The device is full, so it could not be ${verb}: free some space on it; the next run tries again.`,
        );
      }
      return item(error.code, `The device failed while it was ${verb}; the next run tries again.`);
    case 'BAD_RESPONSE':
      return item(
        error.code,
        `The device's answer could not be used while it was ${verb}; the next run tries again.`,
      );
    case 'PRECONDITION_FAILED':
    case 'NOT_FOUND':
    case 'CONFLICT':
      return item(error.code, `It changed on the device while it was ${verb}; the next run looks again.`, {
        replan: true,
      });
    case 'FORBIDDEN':
      return item(
        error.code,
        `The device does not allow it to be ${verb}: check your permissions on the device.`,
      );
    case 'BAD_REQUEST':
    case 'NOT_SUPPORTED':
    case 'UNEXPECTED_STATUS': {
      const said = error.label === undefined ? '' : ` (${error.label})`;
      return item(
        error.code,
        `The device refused to let it be ${verb}${said}. If it keeps happening, report it with the log (mch-sync run --verbose).`,
      );
    }
    case 'INVALID_NAME':
    case 'ABORTED':
    case 'AUTH_REQUIRED':
    case 'AUTH_INVALID_CREDENTIALS':
    case 'INSECURE_URL':
      // A name is handled above; the others end the pass (executor.ts isFatal) before they get here.
      return item(error.code, error.message);
    default:
      return assertNever(error.code, 'API error code');
  }
}
