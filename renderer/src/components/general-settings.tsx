// The settings of every pair: start at login, the file manager's share entry, notifications, how often the device is asked, extra ignore rules.
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { SettingsView } from '../../../common/contract.ts';
import { useStores } from '../stores/stores.ts';
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
  const update = useAction((change: Partial<SettingsView>) => store.update(change));
  const [poll, setPoll] = useState(String(settings.pollIntervalSeconds));
  const [rules, setRules] = useState(settings.ignoreRules);
  // A change made elsewhere (the tray, another window) replaces what is shown, unless edited here.
  useEffect(() => setPoll(String(settings.pollIntervalSeconds)), [settings.pollIntervalSeconds]);
  useEffect(() => setRules(settings.ignoreRules), [settings.ignoreRules]);
  const pollSeconds = Number(poll);
  return (
    <section class="card" aria-labelledby="general-settings">
      <h2 id="general-settings">General</h2>
      <div class="check">
        <input
          id={ids.login}
          type="checkbox"
          checked={settings.startAtLogin}
          disabled={update.busy}
          onChange={(event) => void update.run({ startAtLogin: event.currentTarget.checked })}
        />
        <label for={ids.login}>Start mch-sync when I log in</label>
      </div>
      <div class="check">
        <input
          id={ids.entries}
          type="checkbox"
          checked={settings.fileManagerEntries}
          disabled={update.busy}
          aria-describedby={ids.entriesHint}
          onChange={(event) => void update.run({ fileManagerEntries: event.currentTarget.checked })}
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
          disabled={update.busy}
          onChange={(event) => void update.run({ notifications: event.currentTarget.checked })}
        />
        <label for={ids.notify}>Show notifications</label>
      </div>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          void update.run({ pollIntervalSeconds: pollSeconds });
        }}
      >
        <label for={ids.poll}>Ask the device for changes every (seconds)</label>
        <div class="search-row">
          <input
            id={ids.poll}
            type="number"
            min={5}
            step={1}
            required
            inputMode="numeric"
            aria-describedby={ids.pollHint}
            value={poll}
            onInput={(event) => setPoll(event.currentTarget.value)}
          />
          <button
            type="submit"
            class="button"
            disabled={
              update.busy || !Number.isFinite(pollSeconds) || pollSeconds === settings.pollIntervalSeconds
            }
          >
            Save
          </button>
        </div>
        <p class="hint" id={ids.pollHint}>
          Changes on this computer are seen at once; this is for changes made elsewhere.
        </p>
      </form>
      <form
        class="field"
        onSubmit={(event) => {
          event.preventDefault();
          void update.run({ ignoreRules: rules });
        }}
      >
        <label for={ids.rules}>Ignore rules</label>
        <textarea
          id={ids.rules}
          rows={4}
          spellcheck={false}
          aria-describedby={ids.rulesHint}
          value={rules}
          onInput={(event) => setRules(event.currentTarget.value)}
        />
        <p class="hint" id={ids.rulesHint}>
          One pattern a line, as in .gitignore, for every folder (each folder&apos;s own .mchignore still
          applies).
        </p>
        <div class="actions">
          <button type="submit" class="button" disabled={update.busy || rules === settings.ignoreRules}>
            Save rules
          </button>
        </div>
      </form>
      <ErrorNote error={update.error} />
    </section>
  );
}
