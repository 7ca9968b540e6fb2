// Issues: every item that is not synced, with why and what to do; held deletes first, and a hold's answer while it is carried out (desktop-app.md §2.4).
import { CircleCheck, ExternalLink, FolderSearch } from 'lucide-preact';
import type { JSX } from 'preact';
import type { HoldAnswerView, IssueView, PairView } from '../../../common/contract.ts';
import { BusyButton, Spinner } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { HoldPanel } from '../components/hold-panel.tsx';
import { PairProgress } from '../components/pair-progress.tsx';
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
      {held.map((pair) =>
        pair.answering !== null ? (
          <AnswerUnderWay key={pair.id} pair={pair} answer={pair.answering} />
        ) : (
          pair.hold !== null && <HoldPanel key={pair.id} pair={pair} hold={pair.hold} />
        ),
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
          return own.length === 0 ? null : <PairIssues key={pair.id} pair={pair} issues={own} />;
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
  const openThis = useAction((path: string) => core.invoke('shell:openPath', { path }));
  const openOther = useAction((path: string) => core.invoke('shell:openPath', { path }));
  const show = useAction((path: string) => core.invoke('shell:showItem', { path }));
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
