// The settings of every pair: start at login, the file manager's share entry, notifications, how often the device is asked, extra ignore rules (with what they leave out now); each change says where it failed.
import type { JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { SettingsView } from '../../../common/contract.ts';
import { formatCount } from '../format.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useAction } from './use-action.ts';

export function GeneralSettings({ settings }: { settings: SettingsView }): JSX.Element {
  const store = useStores().settings;
  const ids = {
    login: useId(),
    entries: useId(),
    entriesHint: useId(),
    notify: useId(),
    poll: useId(),
    pollHint: useId(),
    rules: useId(),
    rulesHint: useId(),
  };
  // One call per control group: an error shows beside what was changed, and only that is busy.
  const toggle = useAction((change: Partial<SettingsView>) => store.update(change));
  const savePoll = useAction((seconds: number) => store.update({ pollIntervalSeconds: seconds }));
  const saveRules = useAction((text: string) => store.update({ ignoreRules: text }));
  const [poll, setPoll] = useShownValue(String(settings.pollIntervalSeconds));
  const [rules, setRules] = useShownValue(settings.ignoreRules);
  const pollSeconds = Number(poll);
  return (
    <section class="card" aria-labelledby="general-settings">
      <h2 id="general-settings">General</h2>
      <div class="check">
        <input
          id={ids.login}
          type="checkbox"
          checked={settings.startAtLogin}
          disabled={toggle.busy}
          onChange={(event) => void toggle.run({ startAtLogin: event.currentTarget.checked })}
        />
        <label for={ids.login}>Start mch-sync when I log in</label>
      </div>
      <div class="check">
        <input
          id={ids.entries}
          type="checkbox"
          checked={settings.fileManagerEntries}
          disabled={toggle.busy}
          aria-describedby={ids.entriesHint}
          onChange={(event) => void toggle.run({ fileManagerEntries: event.currentTarget.checked })}
        />
        <label for={ids.entries}>Add &ldquo;Copy share link&rdquo; to the file manager</label>
      </div>
      <p class="hint check-hint" id={ids.entriesHint}>
        Right-click files in a synced folder to put one link to them on the clipboard. Turning this off
        removes the entry.
      </p>
      <div class="check">
        <input
          id={ids.notify}
          type="checkbox"
          checked={settings.notifications}
          disabled={toggle.busy}
          onChange={(event) => void toggle.run({ notifications: event.currentTarget.checked })}
        />
        <label for={ids.notify}>Show notifications</label>
      </div>
      <ErrorNote error={toggle.error} />
      <form
        class="field"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void savePoll.run(pollSeconds);
        }}
      >
        <label for={ids.poll}>Ask the device for changes every (seconds)</label>
        <div class="search-row">
          <input
            id={ids.poll}
            type="number"
            step={1}
            required
            inputMode="numeric"
            aria-describedby={ids.pollHint}
            aria-invalid={savePoll.error !== null}
            value={poll}
            onInput={(event) => {
              setPoll(event.currentTarget.value);
              savePoll.clear();
            }}
          />
          <BusyButton
            type="submit"
            busy={savePoll.busy}
            disabled={poll.trim() === '' || pollSeconds === settings.pollIntervalSeconds}
          >
            Save
          </BusyButton>
        </div>
        <p class="hint" id={ids.pollHint}>
          Changes on this computer are seen at once; this is for changes made elsewhere.
        </p>
        <ErrorNote error={savePoll.error} />
      </form>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          void saveRules.run(rules);
        }}
      >
        <label for={ids.rules}>Ignore rules</label>
        <textarea
          id={ids.rules}
          rows={4}
          spellcheck={false}
          aria-describedby={ids.rulesHint}
          aria-invalid={saveRules.error !== null}
          value={rules}
          onInput={(event) => {
            setRules(event.currentTarget.value);
            saveRules.clear();
          }}
        />
        <p class="hint" id={ids.rulesHint}>
          One pattern a line, as in .gitignore, for every folder (each folder&apos;s own .mchignore still
          applies).
        </p>
        <ErrorNote error={saveRules.error} />
        <div class="actions">
          <BusyButton type="submit" busy={saveRules.busy} disabled={rules === settings.ignoreRules}>
            Save rules
          </BusyButton>
        </div>
      </form>
      <LeftOut />
    </section>
  );
}

/**
 * A field's text, starting from the stored value: a change made elsewhere (the tray, another window)
 * replaces what is shown unless it was edited here. Never on the first render's effect: text typed
 * before it ran (a fast user, a test) would be put back to the stored value, and its Save turned off.
 */
export function useShownValue(stored: string): [string, (text: string) => void] {
  const [text, setText] = useState(stored);
  const shown = useRef(stored);
  useEffect(() => {
    const before = shown.current;
    shown.current = stored;
    if (before !== stored) setText((current) => (current === before ? stored : current));
  }, [stored]);
  return [text, setText];
}

/** What is not synced on purpose now, as the core counts it (never listed under Issues). */
function LeftOut(): JSX.Element | null {
  const pairs = useStores().pairs.pairs.value ?? [];
  const ignored = pairs.reduce((sum, pair) => sum + pair.leftOut.ignored, 0);
  const systemFiles = pairs.reduce((sum, pair) => sum + pair.leftOut.systemFiles, 0);
  if (pairs.length === 0) return null;
  return (
    <p class="muted small left-out">
      Left out now, on purpose: {formatCount(ignored, 'item', 'items')} matching ignore rules;{' '}
      {formatCount(systemFiles, 'system or temporary file', 'system or temporary files')} (such as .DS_Store
      or editor swap files), which are never synced.
    </p>
  );
}
