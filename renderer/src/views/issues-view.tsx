// Issues: every item that is not synced, with why and what to do, in the command line's groups (conflicts with both sides and their three answers); then, quietly, what the client's rules left out or synced with a warning; held deletes first, and a hold's answer while it is carried out (desktop-app.md §2.4); the item a route points at (`#issues?item=…`) highlighted, or said to have no issue.
import { CircleCheck, ExternalLink, FolderSearch, Info } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type {
  ConflictView,
  HoldAnswerView,
  IssueGroupView,
  IssueView,
  PairView,
} from '../../../common/contract.ts';
import { isRouteItem } from '../../../common/window-route.ts';
import { BusyButton, Spinner } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { HoldPanel } from '../components/hold-panel.tsx';
import { PairConflicts } from '../components/pair-conflicts.tsx';
import { PairProgress } from '../components/pair-progress.tsx';
import { usePointedAt } from '../components/pointed-at.ts';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';

/** Each group's tag, in the command line's words (app/cli/terminal/issue-lines.ts HEADINGS). */
const GROUP_WORDS: Record<IssueGroupView, string> = {
  'needs-you': 'Needs you',
  'never-as-is': 'Cannot sync as it is',
  conflict: 'Conflict',
  'retry-later': 'Will retry',
  skipped: 'Left out',
  warning: 'Synced, with a warning',
};

/**
 * The quiet groups, listed for the user to know and never counted (nothing is wrong, nothing needs doing
 * to sync), and what each means; the engine's message says which rule or warning.
 */
const QUIET_WORDS: Partial<Record<IssueGroupView, string>> = {
  skipped: 'mch-sync does not sync this kind of item. Nothing to do.',
  warning: 'It is synced; this is only for you to know.',
};

export function IssuesView(): JSX.Element {
  const { issues, pairs, conflicts, navigation } = useStores();
  const item = navigation.item.value;
  // Conflicts come with both sides from conflicts:list (a moment after the rest, the first time); if it
  // failed, they are listed as the plain issues issues:list has.
  const detailed = conflicts.conflicts.value;
  const plainConflicts = conflicts.error.value !== null;
  const raw = issues.issues.value;
  const list = raw?.filter((issue) => plainConflicts || issue.kind !== 'conflict') ?? null;
  const conflictsComing =
    detailed === null && !plainConflicts && (raw ?? []).some((issue) => issue.kind === 'conflict');
  const pairList = pairs.pairs.value ?? [];
  const held = pairs.held.value;
  const settled = conflicts.outcome.value;
  useEffect(() => {
    const stop = conflicts.watch();
    return () => {
      stop();
      // What a settle did is said until the user leaves Issues, not when they come back another time.
      conflicts.outcome.value = null;
    };
  }, [conflicts]);
  const nothing =
    list !== null &&
    list.length === 0 &&
    (detailed ?? []).length === 0 &&
    held.length === 0 &&
    !conflictsComing;
  // Said only once the lists are in: before that, every item would read as having no issue.
  const itemMissing =
    item !== null &&
    list !== null &&
    !conflictsComing &&
    !pairList.some(
      (pair) =>
        list.some((issue) => issue.pairId === pair.id && isIssueOf(item, pair, issue)) ||
        (!plainConflicts && pointedConflict(item, pair, conflicts.ofPair(pair.id)) !== null),
    );
  return (
    <div class="view">
      <ViewHeader title="Issues" />
      <ErrorNote error={issues.error.value ?? conflicts.error.value} />
      {held.map((pair) =>
        pair.answering !== null ? (
          <AnswerUnderWay key={pair.id} pair={pair} answer={pair.answering} />
        ) : (
          pair.hold !== null && <HoldPanel key={pair.id} pair={pair} hold={pair.hold} />
        ),
      )}
      {settled !== null && (
        <p class="note conflict-outcome" role="status">
          <CircleCheck aria-hidden="true" />
          <span>
            {settled.words}
            {settled.failed.length > 0 && ` Not settled: ${settled.failed.join(' ')}`}
          </span>
        </p>
      )}
      {itemMissing && (
        <p class="note item-missing" role="status">
          <Info aria-hidden="true" />
          <span>
            Nothing is listed for <span class="issue-path">{item}</span> any more: it has synced since, or it
            is left out on purpose (your ignore rules, or a system file mch-sync never syncs).
          </span>
        </p>
      )}
      {nothing && (
        <p class="card empty">
          <CircleCheck />
          Every item is synced.
        </p>
      )}
      {list !== null &&
        pairList.map((pair) => {
          const own = list.filter((issue) => issue.pairId === pair.id);
          const ownConflicts = plainConflicts ? [] : conflicts.ofPair(pair.id);
          return own.length === 0 && ownConflicts.length === 0 ? null : (
            <PairIssues key={pair.id} pair={pair} issues={own} conflicts={ownConflicts} item={item} />
          );
        })}
    </div>
  );
}

/** The hold answered: what is under way, with the pass's progress, until it ends (then the hold is gone, or back). */
function AnswerUnderWay({ pair, answer }: { pair: PairView; answer: HoldAnswerView }): JSX.Element {
  const name = baseName(pair.localRoot);
  const headingId = `answer-${pair.id}`;
  return (
    <section class="card hold" aria-labelledby={headingId} aria-busy="true">
      <h2 id={headingId}>
        {pair.hold?.title ?? 'Answer'}: {name}
      </h2>
      <p class="note note-busy" role="status">
        <Spinner />
        <span>{answer.words}</span>
      </p>
      {pair.progress !== null && <PairProgress progress={pair.progress} name={name} />}
    </section>
  );
}

/**
 * A pair's issues: what needs the user (counted, as on its card), then what is listed only to be known
 * under its own heading, so a symbolic link left out never reads like a failure.
 */
function PairIssues({
  pair,
  issues,
  conflicts,
  item,
}: {
  pair: PairView;
  issues: IssueView[];
  conflicts: ConflictView[];
  /** The item the route points at (absolute), if any. */
  item: string | null;
}): JSX.Element {
  const headingId = `issues-${pair.id}`;
  const needing = issues.filter((issue) => QUIET_WORDS[issue.group] === undefined);
  const quiet = issues.filter((issue) => QUIET_WORDS[issue.group] !== undefined);
  const count = needing.length + conflicts.length;
  return (
    <section class="issue-group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {baseName(pair.localRoot)}
        {count > 0 && <span class="muted"> ({count})</span>}
      </h2>
      {conflicts.length > 0 && (
        <PairConflicts
          pairId={pair.id}
          conflicts={conflicts}
          pointed={item === null ? null : pointedConflict(item, pair, conflicts)}
        />
      )}
      {needing.length > 0 && (
        <ul class="issue-list">
          {needing.map((issue) => (
            <IssueItem
              key={`${issue.kind}:${issue.path}`}
              issue={issue}
              pointed={item !== null && isIssueOf(item, pair, issue)}
            />
          ))}
        </ul>
      )}
      {quiet.length > 0 && (
        <>
          <h3 class="issue-quiet-heading muted">For your information</h3>
          <ul class="issue-list">
            {quiet.map((issue) => (
              <IssueItem
                key={`${issue.kind}:${issue.path}`}
                issue={issue}
                pointed={item !== null && isIssueOf(item, pair, issue)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The issue is the item's: at its path, or (a conflict) its conflicted copy. */
function isIssueOf(item: string, pair: PairView, issue: IssueView): boolean {
  return (
    isRouteItem(item, pair.localRoot, issue.path) ||
    (issue.otherCopy !== null && isRouteItem(item, issue.otherCopy, ''))
  );
}

/** The conflicted copy of the pair's conflict that is the item's (its original or its copy), if any. */
function pointedConflict(item: string, pair: PairView, conflicts: readonly ConflictView[]): string | null {
  const found = conflicts.find(
    (conflict) =>
      isRouteItem(item, pair.localRoot, conflict.originalPath) ||
      isRouteItem(item, pair.localRoot, conflict.copyPath),
  );
  return found?.copyPath ?? null;
}

function IssueItem({ issue, pointed }: { issue: IssueView; pointed: boolean }): JSX.Element {
  const { core } = useStores();
  const ref = useRef<HTMLLIElement>(null);
  usePointedAt(ref, pointed);
  const openThis = useAction((path: string) => core.invoke('shell:openPath', { path }));
  const openOther = useAction((path: string) => core.invoke('shell:openPath', { path }));
  const show = useAction((path: string) => core.invoke('shell:showItem', { path }));
  return (
    <li
      ref={ref}
      class={`card issue issue-${issue.group}${pointed ? ' pointed' : ''}`}
      tabIndex={-1}
      aria-current={pointed ? 'true' : undefined}
    >
      <p class="issue-head">
        <span class={`tag tag-${issue.group}`}>{GROUP_WORDS[issue.group]}</span>
        <span class="issue-path">{issue.path}</span>
      </p>
      <p>{issue.message}</p>
      {QUIET_WORDS[issue.group] !== undefined && <p class="muted">{QUIET_WORDS[issue.group]}</p>}
      {issue.kind === 'conflict' && issue.otherCopy !== null && (
        <p class="muted">
          The other copy, kept beside it: <span class="issue-path">{baseName(issue.otherCopy)}</span>
        </p>
      )}
      <p class="details">Details: {issue.code}</p>
      <div class="actions">
        {issue.kind === 'conflict' && issue.localPath !== null && (
          <BusyButton
            class="button small"
            busy={openThis.busy}
            icon={ExternalLink}
            onClick={() => void openThis.run(issue.localPath ?? '')}
          >
            Open this copy
          </BusyButton>
        )}
        {issue.kind === 'conflict' && issue.otherCopy !== null && (
          <BusyButton
            class="button small"
            busy={openOther.busy}
            icon={ExternalLink}
            onClick={() => void openOther.run(issue.otherCopy ?? '')}
          >
            Open the other copy
          </BusyButton>
        )}
        {issue.localPath !== null && (
          <BusyButton
            class="button small"
            busy={show.busy}
            icon={FolderSearch}
            onClick={() => void show.run(issue.localPath ?? '')}
          >
            Show in folder
          </BusyButton>
        )}
      </div>
      <ErrorNote error={openThis.error ?? openOther.error ?? show.error} />
    </li>
  );
}
