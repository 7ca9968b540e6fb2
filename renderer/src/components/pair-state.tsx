// A pair's engine state as an icon and words (sync-status.ts names the states; the detail comes from the core).
import type { LucideIcon } from 'lucide-preact';
import {
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
import type { EngineState } from '../../../common/sync-status.ts';

const STATES: Record<EngineState, { words: string; icon: LucideIcon; tone: 'ok' | 'busy' | 'warn' | 'bad' }> =
  {
    idle: { words: 'Up to date', icon: CircleCheck, tone: 'ok' },
    scanning: { words: 'Looking for changes', icon: ScanSearch, tone: 'busy' },
    syncing: { words: 'Syncing', icon: RefreshCw, tone: 'busy' },
    paused: { words: 'Paused', icon: CirclePause, tone: 'warn' },
    offline: { words: 'Device not reachable', icon: CloudOff, tone: 'warn' },
    'sign-in-needed': { words: 'Sign in needed', icon: KeyRound, tone: 'bad' },
    held: { words: 'Waiting for you', icon: Hand, tone: 'bad' },
    error: { words: 'Stopped', icon: CircleX, tone: 'bad' },
  };

export function stateWords(state: EngineState): string {
  return STATES[state].words;
}

export function PairState({ state }: { state: EngineState }): JSX.Element {
  const { words, icon: Icon, tone } = STATES[state];
  return (
    <span class={`pair-state tone-${tone}`}>
      <Icon />
      {words}
    </span>
  );
}
