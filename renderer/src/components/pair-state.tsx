// A pair's state as an icon and the core's words for it ("Up to date · 1 conflict"); the engine states are named in sync-status.ts.
import type { LucideIcon } from 'lucide-preact';
import {
  CircleAlert,
  CircleCheck,
  CirclePause,
  CircleX,
  CloudOff,
  Hand,
  KeyRound,
  RefreshCw,
  ScanSearch,
} from 'lucide-preact';
import type { JSX } from 'preact';
import type { PairView } from '../../../common/contract.ts';
import type { EngineState } from '../../../common/sync-status.ts';

type Tone = 'ok' | 'busy' | 'warn' | 'bad';

const STATES: Record<EngineState, { icon: LucideIcon; tone: Tone }> = {
  idle: { icon: CircleCheck, tone: 'ok' },
  scanning: { icon: ScanSearch, tone: 'busy' },
  syncing: { icon: RefreshCw, tone: 'busy' },
  paused: { icon: CirclePause, tone: 'warn' },
  offline: { icon: CloudOff, tone: 'warn' },
  'sign-in-needed': { icon: KeyRound, tone: 'bad' },
  held: { icon: Hand, tone: 'bad' },
  error: { icon: CircleX, tone: 'bad' },
};

/** Whether a pass runs now: "Sync now" would only ask for what is already happening. */
export function isSyncing(state: EngineState): boolean {
  return STATES[state].tone === 'busy';
}

export function PairState({
  pair,
}: {
  pair: Pick<PairView, 'state' | 'words' | 'issueCount' | 'selection'>;
}): JSX.Element {
  const { icon, tone } = STATES[pair.state];
  // Up to date with something to look at (or a new folder to answer) is not all well: the icon and
  // colour say so with the words.
  const attention =
    pair.state === 'idle' && (pair.issueCount > 0 || (pair.selection?.waiting.length ?? 0) > 0);
  const Icon = attention ? CircleAlert : icon;
  return (
    <span class={`pair-state tone-${attention ? 'warn' : tone}`}>
      <Icon class={pair.state === 'syncing' ? 'spinner' : undefined} />
      {pair.words}
    </span>
  );
}
