// First run: sign in, choose the device if there are several, choose the folders, start (desktop-app.md §2.1).
import { Globe, HardDrive, LogIn } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { BusyButton, Spinner } from '../components/busy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PairForm } from '../components/pair-form.tsx';
import { useAction } from '../components/use-action.ts';
import { ViewHeader } from '../components/view-header.tsx';
import { useStores } from '../stores/stores.ts';

export function FirstRunView(): JSX.Element {
  const { account, navigation } = useStores();
  const current = account.account.value;
  const step = current?.signedIn !== true ? 1 : current.device === null ? 2 : 3;
  return (
    <div class="view first-run">
      <ViewHeader title="Set up mch-sync" />
      <ol class="steps" aria-label="Steps">
        {['Sign in', 'Choose the device', 'Choose the folders'].map((label, index) => (
          <li
            key={label}
            aria-current={step === index + 1 ? 'step' : undefined}
            class={step > index + 1 ? 'done' : ''}
          >
            {label}
          </li>
        ))}
      </ol>
      {step === 1 && <SignInStep lastConfigUrl={current?.configUrl ?? null} />}
      {step === 2 && <DeviceStep />}
      {step === 3 && (
        <section class="card" aria-labelledby="folders-step">
          <h2 id="folders-step">Choose the folders to keep in sync</h2>
          <PairForm submitLabel="Start syncing" onAdded={() => navigation.go('status')} />
        </section>
      )}
    </div>
  );
}

function SignInStep({ lastConfigUrl }: { lastConfigUrl: string | null }): JSX.Element {
  const { account } = useStores();
  const [configUrl, setConfigUrl] = useState(lastConfigUrl ?? '');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const ids = { user: useId(), password: useId(), config: useId(), configHint: useId() };
  const withPassword = useAction(() => account.signInWithPassword(configUrl.trim(), username, password));
  const withBrowser = useAction(() => account.signInWithBrowser(configUrl.trim()));
  return (
    <section class="card" aria-labelledby="sign-in-step">
      <h2 id="sign-in-step">Sign in</h2>
      <BusyButton
        class="button primary wide"
        busy={withBrowser.busy}
        icon={Globe}
        disabled={withPassword.busy}
        onClick={() => void withBrowser.run()}
      >
        {withBrowser.busy ? 'Waiting for the browser…' : 'Sign in with browser'}
      </BusyButton>
      <ErrorNote error={withBrowser.error} />
      <p class="separator">
        <span>or with a user name and password</span>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void withPassword.run();
        }}
      >
        <div class="field">
          <label for={ids.user}>User name</label>
          <input
            id={ids.user}
            name="username"
            autoComplete="username"
            required
            value={username}
            onInput={(event) => setUsername(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={ids.password}>Password</label>
          <input
            id={ids.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </div>
        <details class="advanced">
          <summary>Advanced</summary>
          <div class="field">
            <label for={ids.config}>Configuration URL</label>
            <input
              id={ids.config}
              name="configUrl"
              type="url"
              inputMode="url"
              aria-describedby={ids.configHint}
              value={configUrl}
              onInput={(event) => setConfigUrl(event.currentTarget.value)}
            />
            <p class="hint" id={ids.configHint}>
              Only for a device of your own; leave it empty for the usual service.
            </p>
          </div>
        </details>
        <ErrorNote error={withPassword.error} />
        <div class="actions">
          <BusyButton type="submit" busy={withPassword.busy} icon={LogIn} disabled={withBrowser.busy}>
            {withPassword.busy ? 'Signing in…' : 'Sign in'}
          </BusyButton>
        </div>
      </form>
    </section>
  );
}

function DeviceStep(): JSX.Element {
  const { account } = useStores();
  const devices = account.devices.value;
  const [chosen, setChosen] = useState<string | null>(null);
  const load = useAction(() => account.loadDevices());
  const choose = useAction((deviceId: string) => account.chooseDevice(deviceId));
  useEffect(() => void load.run(), []);
  return (
    <section class="card" aria-labelledby="device-step">
      <h2 id="device-step">Choose the device</h2>
      <ErrorNote error={load.error} />
      {devices === null && load.error === null && (
        <p class="muted" role="status">
          <Spinner /> Looking for your devices…
        </p>
      )}
      {devices !== null && devices.length === 0 && (
        <p>No device is linked to this account yet. Link one with its own app, then come back.</p>
      )}
      {devices !== null && devices.length > 0 && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const deviceId = chosen ?? devices[0]?.id;
            if (deviceId !== undefined) void choose.run(deviceId);
          }}
        >
          <fieldset class="choices">
            <legend>Your devices</legend>
            {devices.map((device) => (
              <label key={device.id} class="choice">
                <input
                  type="radio"
                  name="device"
                  value={device.id}
                  checked={(chosen ?? devices[0]?.id) === device.id}
                  onChange={() => setChosen(device.id)}
                />
                <HardDrive />
                <span>
                  {device.name} <span class="muted">({device.modelId})</span>
                </span>
              </label>
            ))}
          </fieldset>
          <ErrorNote error={choose.error} />
          <div class="actions">
            <BusyButton type="submit" class="button primary" busy={choose.busy} icon={HardDrive}>
              Use this device
            </BusyButton>
          </div>
        </form>
      )}
    </section>
  );
}
