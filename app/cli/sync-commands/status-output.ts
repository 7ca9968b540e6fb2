// What `mch-sync status` prints for people: the folder's state, transfers, last sync, issues by what to do, recent activity.
import { formatBytes } from '../../../common/units.ts';
import { terminalSafe } from '../../search/terminal-text.ts';
import { groupOf } from '../../sync/issue-groups.ts';
import { GROUP_LABELS, issueLine, unsyncedWords } from '../terminal/issue-lines.ts';
import { table } from '../terminal/output.ts';
import type { LastPassJson, StatusJson } from './status-json.ts';
import { connectionWords } from './connection-words.ts';

const MAX_ISSUES_SHOWN = 10;
const MAX_ACTIVITY_SHOWN = 5;

/** The human-readable status, as lines. */
export function formatStatus(status: StatusJson, nowMs: number): string[] {
  const rows: Array<[string, string]> = [
    ['folder', status.localRoot],
    ['device folder', status.remoteFolder || '(not paired yet)'],
    ['live sync', status.running ? `running (pid ${status.pid ?? '?'})` : 'not running'],
  ];
  rows.push(['state', status.running ? describeState(status) : describeLastState(status)]);
  if (status.connection !== undefined) rows.push(['network', connectionWords(status.connection)]);
  if (status.device !== undefined) rows.push(['device', deviceSpaceWords(status.device, nowMs)]);
  for (const transfer of status.progress?.transfers ?? []) {
    const arrow = transfer.direction === 'up' ? 'up' : 'down';
    rows.push([
      'transfer',
      `${arrow} ${transfer.path} (${percent(transfer.bytesDone, transfer.bytesTotal)})`,
    ]);
  }
  rows.push([
    'last sync',
    status.lastSyncAtMs === null
      ? 'never'
      : `${iso(status.lastSyncAtMs)} (${ago(status.lastSyncAtMs, nowMs)})`,
  ]);
  if (status.lastPass !== null) rows.push(['last pass', describePass(status.lastPass)]);
  if (status.itemsSynced !== null) rows.push(['items synced', String(status.itemsSynced)]);
  if (status.pendingChanges !== null && status.pendingChanges > 0) {
    const changes =
      status.pendingChanges === 1
        ? '1 change whose outcome is'
        : `${status.pendingChanges} changes whose outcome is`;
    rows.push(['pending', `${changes} checked at the next pass`]);
  }
  const selection = status.selection;
  if (selection !== null && (selection.excluded > 0 || selection.waiting.length > 0)) {
    rows.push([
      'excluded',
      `${selection.excluded} ${selection.excluded === 1 ? 'folder' : 'folders'} (\`mch-sync select\`)`,
    ]);
    for (const waiting of selection.waiting) {
      rows.push([
        'waiting',
        `${waiting.path} (${waiting.files} files, ${formatBytes(waiting.bytes)}): \`mch-sync include\` or \`exclude\``,
      ]);
    }
  }
  rows.push(...onDemandRows(status));
  // The index keeps the first issues of a pass and their total; a running service sends all it has.
  const issueCount = status.running
    ? status.issues.length
    : (status.lastPass?.issueCount ?? status.issues.length);
  rows.push(['issues', issueCount === 0 ? 'none' : String(issueCount)]);
  const lines = table(rows);
  for (const issue of status.issues.slice(0, MAX_ISSUES_SHOWN)) {
    lines.push(`  ${`${GROUP_LABELS[groupOf(issue)]}:`.padEnd(13)}${issueLine(issue)}`);
  }
  if (issueCount > MAX_ISSUES_SHOWN) {
    lines.push(`  ... and ${issueCount - MAX_ISSUES_SHOWN} more (--json lists what was kept)`);
  }
  if (status.activity.length > 0) {
    lines.push('recent:');
    for (const entry of status.activity.slice(0, MAX_ACTIVITY_SHOWN)) {
      lines.push(`  ${iso(entry.atMs)} ${entry.action} ${entry.path}`);
    }
  }
  // Names (a transfer, an issue, an activity line) from the disk or the device: one line each, inert.
  return lines.map(terminalSafe);
}

/** Files on demand: what is here, what is on the device only, the pins and the cache limit. */
function onDemandRows(status: StatusJson): Array<[string, string]> {
  const onDemand = status.onDemand;
  if (onDemand === null || onDemand === undefined) return [];
  const files = (count: number): string => `${count} ${count === 1 ? 'file' : 'files'}`;
  const use = onDemand.use;
  const rows: Array<[string, string]> =
    use === null
      ? [['on demand', 'not counted yet (the next pass counts)']]
      : [
          ['on this computer', `${files(use.whole.files)}, ${formatBytes(use.whole.bytes)}`],
          ['device only', `${files(use.placeholders.files)}, ${formatBytes(use.placeholders.bytes)}`],
        ];
  const pinned = onDemand.pinned.map((pin) => pin.path || '(the whole folder)');
  rows.push(['pinned', pinned.length === 0 ? 'none' : pinned.join(', ')]);
  const used = onDemand.cacheUsedBytes === null ? 'not counted yet' : formatBytes(onDemand.cacheUsedBytes);
  rows.push([
    'cache',
    onDemand.cacheLimitBytes === null
      ? `${used} used, no limit`
      : `${used} used of ${formatBytes(onDemand.cacheLimitBytes)} (pinned files are never freed)`,
  ]);
  return rows;
}

function describeState(status: StatusJson): string {
  // Idle with items left unsynced does not mean the sides match: said with run --once's words; the
  // service's detail counts the same issues, so these words take its place (issue 27).
  const unsynced = status.state === 'idle' ? unsyncedWords(status.issues) : undefined;
  if (unsynced !== undefined) return `idle, not all synced: ${unsynced}`;
  const parts: string[] = [status.state];
  const progress = status.progress;
  if (progress !== null && progress.itemsTotal > 0) {
    let text = `${progress.itemsDone} of ${progress.itemsTotal} items`;
    if (progress.bytesTotal > 0) {
      text += `, ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`;
    }
    parts.push(text);
  }
  if (status.detail !== null) parts.push(status.detail);
  return parts.join(': ');
}

/** Without a service, the state is what the last pass left. */
function describeLastState(status: StatusJson): string {
  return `${status.state} (as the last pass left it)${status.detail === null ? '' : `: ${status.detail}`}`;
}

function describePass(pass: LastPassJson): string {
  const counts = pass.counts;
  const moved: Array<[number, string]> = [
    [counts.uploaded, 'uploaded'],
    [counts.downloaded, 'downloaded'],
    [counts.renamed, 'renamed'],
    [counts.moved, 'moved'],
    [counts.deleted, 'deleted'],
    [counts.conflicts, 'conflicts'],
    [counts.foldersCreated, 'folders created'],
    [counts.timesUpdated ?? 0, 'times updated'],
  ];
  const done = moved.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  return `${iso(pass.finishedAtMs)}: ${pass.status}${done.length > 0 ? `, ${done.join(', ')}` : ''}`;
}

function percent(done: number, total: number): string {
  return total > 0 ? `${Math.floor((100 * done) / total)}%` : formatBytes(done);
}

/** "12.3 GB free of 2.0 TB (checked 40 s ago)": the device's space as the last pass read it (issue #33). */
function deviceSpaceWords(device: NonNullable<StatusJson['device']>, nowMs: number): string {
  const free = `${formatBytes(device.freeBytes)} free of ${formatBytes(device.totalBytes)}`;
  return `${free} (checked ${ago(device.checkedAtMs, nowMs)})`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** "40 s ago", "12 min ago", "3 h ago", "2 days ago"; "just now" for a clock that is behind. */
function ago(thenMs: number, nowMs: number): string {
  const seconds = Math.round((nowMs - thenMs) / 1000);
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} days ago`;
}
