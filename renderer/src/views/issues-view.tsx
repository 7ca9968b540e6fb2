// Issues: every item that is not synced, with why and what to do; held deletes first (desktop-app.md §2.4).
import { CircleCheck, ExternalLink, FolderSearch } from 'lucide-preact';
import type { JSX } from 'preact';
import type { IssueView, PairView } from '../../../common/contract.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { HoldPanel } from '../components/hold-panel.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { baseName } from '../format.ts';
import { useStores } from '../stores/stores.ts';

const KIND_WORDS: Record<IssueView['kind'], string> = {
  skipped: 'Not synced',
  retry: 'Will retry',
  failed: 'Failed',
  warning: 'Warning',
  conflict: 'Conflict',
};

export function IssuesView(): JSX.Element {
  const { issues, pairs } = useStores();
  const list = issues.issues.value;
  const pairList = pairs.pairs.value ?? [];
  const held = pairs.held.value;
  const nothing = list !== null && list.length === 0 && held.length === 0;
  return (
    <div class="view">
      <ViewHeader title="Issues" />
      <ErrorNote error={issues.error.value} />
      {held.map((pair) => pair.hold !== null && <HoldPanel key={pair.id} pair={pair} hold={pair.hold} />)}
      {nothing && (
        <p class="card empty">
          <CircleCheck />
          Every item is synced.
        </p>
      )}
      {list !== null &&
        pairList.map((pair) => {
          const own = list.filter((issue) => issue.pairId === pair.id);
          return own.length === 0 ? null : <PairIssues key={pair.id} pair={pair} issues={own} />;
        })}
    </div>
  );
}

function PairIssues({ pair, issues }: { pair: PairView; issues: IssueView[] }): JSX.Element {
  const headingId = `issues-${pair.id}`;
  return (
    <section class="issue-group" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {baseName(pair.localRoot)} <span class="muted">({issues.length})</span>
      </h2>
      <ul class="issue-list">
        {issues.map((issue) => (
          <IssueItem key={`${issue.kind}:${issue.path}`} issue={issue} />
        ))}
      </ul>
    </section>
  );
}

function IssueItem({ issue }: { issue: IssueView }): JSX.Element {
  const { core } = useStores();
  const act = useAction((name: 'shell:openPath' | 'shell:showItem', path: string) =>
    core.invoke(name, { path }),
  );
  return (
    <li class={`card issue issue-${issue.kind}`}>
      <p class="issue-head">
        <span class={`tag tag-${issue.kind}`}>{KIND_WORDS[issue.kind]}</span>
        <span class="issue-path">{issue.path}</span>
      </p>
      <p>{issue.message}</p>
      {issue.kind === 'conflict' && issue.otherCopy !== null && (
        <p class="muted">
          The other copy, kept beside it: <span class="issue-path">{baseName(issue.otherCopy)}</span>
        </p>
      )}
      <p class="details">Details: {issue.code}</p>
      <div class="actions">
        {issue.kind === 'conflict' && issue.localPath !== null && (
          <button
            type="button"
            class="button small"
            onClick={() => void act.run('shell:openPath', issue.localPath ?? '')}
          >
            <ExternalLink />
            Open this copy
          </button>
        )}
        {issue.kind === 'conflict' && issue.otherCopy !== null && (
          <button
            type="button"
            class="button small"
            onClick={() => void act.run('shell:openPath', issue.otherCopy ?? '')}
          >
            <ExternalLink />
            Open the other copy
          </button>
        )}
        {issue.localPath !== null && (
          <button
            type="button"
            class="button small"
            onClick={() => void act.run('shell:showItem', issue.localPath ?? '')}
          >
            <FolderSearch />
            Show in folder
          </button>
        )}
      </div>
      <ErrorNote error={act.error} />
    </li>
  );
}
