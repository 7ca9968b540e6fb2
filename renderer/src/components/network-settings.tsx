// Settings' Network section: the upload and download limits (as `mch-sync limits` reads them) and the profile's own proxy, with the proxy in use and where it comes from.
import { Globe, Save, Trash2 } from 'lucide-preact';
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { NetworkView, ProxyView } from '../../../common/contract.ts';
import { rateText } from '../../../common/rate-text.ts';
import { useStores } from '../stores/stores.ts';
import { BusyButton, Spinner } from './busy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { useShownValue } from './general-settings.tsx';
import { useAction } from './use-action.ts';

export function NetworkSettings(): JSX.Element {
  const { core } = useStores();
  const [view, setView] = useState<NetworkView | null>(null);
  const load = useAction(async () => setView(await core.invoke('network:get', {})));
  useEffect(() => void load.run(), []);
  return (
    <section class="card" aria-labelledby="network-settings">
      <h2 id="network-settings">Network</h2>
      <ErrorNote error={load.error} />
      {view === null ? (
        load.busy && (
          <p class="note note-busy" role="status">
            <Spinner />
            <span>Reading the network settings…</span>
          </p>
        )
      ) : (
        <>
          <LimitsForm view={view} onSaved={setView} />
          <ProxyForm view={view} onSaved={setView} />
        </>
      )}
    </section>
  );
}

/** A stored limit as its field shows it: exact (saved again unchanged), empty for no limit. */
function shownRate(bytesPerSec: number | null): string {
  return bytesPerSec === null ? '' : rateText(bytesPerSec);
}

function LimitsForm({
  view,
  onSaved,
}: {
  view: NetworkView;
  onSaved: (view: NetworkView) => void;
}): JSX.Element {
  const { core } = useStores();
  const ids = { up: useId(), down: useId(), hint: useId() };
  const storedUp = shownRate(view.limits.upBytesPerSec);
  const storedDown = shownRate(view.limits.downBytesPerSec);
  const [up, setUp] = useShownValue(storedUp);
  const [down, setDown] = useShownValue(storedDown);
  const save = useAction(async () => {
    const saved = await core.invoke('network:setLimits', { up, down });
    // The fields show what was kept in the core's writing (`2MB/s` for `2 mb`): Save is off again.
    setUp(shownRate(saved.limits.upBytesPerSec));
    setDown(shownRate(saved.limits.downBytesPerSec));
    onSaved(saved);
  });
  const edit = (set: (text: string) => void) => (event: JSX.TargetedEvent<HTMLInputElement>) => {
    set(event.currentTarget.value);
    save.clear();
  };
  // The core's words name the field whose rate it could not read; either, when they name neither.
  const refused = save.error?.message ?? null;
  const named = refused !== null && /^(Upload|Download) limit:/.test(refused);
  const invalid = (label: string): boolean => refused !== null && (!named || refused.startsWith(`${label}:`));
  return (
    <form
      class="network-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <h3>Upload and download limits</h3>
      <div class="network-fields">
        <RateField
          id={ids.up}
          label="Upload limit"
          hint={ids.hint}
          invalid={invalid('Upload limit')}
          value={up}
          onInput={edit(setUp)}
        />
        <RateField
          id={ids.down}
          label="Download limit"
          hint={ids.hint}
          invalid={invalid('Download limit')}
          value={down}
          onInput={edit(setDown)}
        />
      </div>
      <p class="hint" id={ids.hint}>
        A speed such as 2MB/s, 500KB/s or 1.5MiB/s (KB = 1000 bytes, KiB = 1024); empty or off for no limit.
        They hold for every folder together and apply at once, also to transfers under way.
      </p>
      <ErrorNote error={save.error} />
      <div class="actions">
        <BusyButton
          type="submit"
          icon={Save}
          busy={save.busy}
          disabled={up === storedUp && down === storedDown}
        >
          Save limits
        </BusyButton>
      </div>
    </form>
  );
}

/** One speed field of the limits form: its label, the shared hint, and marked when the core refused it. */
function RateField(props: {
  id: string;
  label: string;
  hint: string;
  invalid: boolean;
  value: string;
  onInput: (event: JSX.TargetedEvent<HTMLInputElement>) => void;
}): JSX.Element {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        placeholder="off"
        autocomplete="off"
        spellcheck={false}
        aria-describedby={props.hint}
        aria-invalid={props.invalid}
        value={props.value}
        onInput={props.onInput}
      />
    </div>
  );
}

function ProxyForm({
  view,
  onSaved,
}: {
  view: NetworkView;
  onSaved: (view: NetworkView) => void;
}): JSX.Element {
  const { core } = useStores();
  const ids = { url: useId(), user: useId(), password: useId(), hint: useId(), passwordHint: useId() };
  const { proxy } = view;
  const [url, setUrl] = useShownValue(proxy.url ?? '');
  const [user, setUser] = useShownValue(proxy.user ?? '');
  const [password, setPassword] = useState('');
  const save = useAction(async (removing: boolean) => {
    const given = (text: string): string | null => (text.trim() === '' ? null : text.trim());
    const request = removing
      ? { url: null, user: null, password: null }
      : {
          url: given(url),
          user: given(user),
          // Left empty: the password kept stays (there is none to keep without one).
          ...(password === '' ? (proxy.hasPassword ? {} : { password: null }) : { password }),
        };
    const saved = await core.invoke('network:setProxy', request);
    // The URL as kept (credentials taken out of it, a port made explicit); the password never shows.
    setUrl(saved.proxy.url ?? '');
    setUser(saved.proxy.user ?? '');
    setPassword('');
    onSaved(saved);
  });
  const [removing, setRemoving] = useState(false);
  const edit = (set: (text: string) => void) => (event: JSX.TargetedEvent<HTMLInputElement>) => {
    set(event.currentTarget.value);
    save.clear();
  };
  const unchanged = url === (proxy.url ?? '') && user === (proxy.user ?? '') && password === '';
  return (
    <form
      class="network-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setRemoving(false);
        void save.run(false);
      }}
    >
      <h3>Proxy</h3>
      <p class="proxy-in-use" role="status">
        <Globe aria-hidden="true" />
        <span>{inUseWords(proxy)}</span>
      </p>
      <div class="field">
        <label for={ids.url}>Proxy URL</label>
        <input
          id={ids.url}
          type="url"
          inputMode="url"
          placeholder="http://proxy.example:3128"
          autocomplete="off"
          spellcheck={false}
          aria-describedby={ids.hint}
          aria-invalid={save.error !== null}
          value={url}
          onInput={edit(setUrl)}
        />
        <p class="hint" id={ids.hint}>
          This profile&apos;s own proxy wins over the environment&apos;s (HTTPS_PROXY, HTTP_PROXY) and the
          system&apos;s; empty: they apply again. A change applies when mch-sync next starts: restart the app
          (or a running mch-sync) to use it.
        </p>
      </div>
      <div class="network-fields">
        <div class="field">
          <label for={ids.user}>User</label>
          <input
            id={ids.user}
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={user}
            onInput={edit(setUser)}
          />
        </div>
        <div class="field">
          <label for={ids.password}>Password</label>
          <input
            id={ids.password}
            type="password"
            autocomplete="new-password"
            placeholder={proxy.hasPassword ? 'unchanged' : ''}
            aria-describedby={ids.passwordHint}
            value={password}
            onInput={edit(setPassword)}
          />
        </div>
      </div>
      <p class="hint" id={ids.passwordHint}>
        The password is kept in the system keychain (or this profile&apos;s private secrets file), never in
        the settings.
        {proxy.hasPassword ? ' Leave it empty to keep the one stored; clear the user to drop it.' : ''}
      </p>
      <ErrorNote error={save.error} />
      <div class="actions">
        <BusyButton type="submit" icon={Save} busy={save.busy && !removing} disabled={save.busy || unchanged}>
          Save proxy
        </BusyButton>
        {proxy.url !== null && (
          <BusyButton
            icon={Trash2}
            busy={save.busy && removing}
            disabled={save.busy}
            onClick={() => {
              setRemoving(true);
              void save.run(true);
            }}
          >
            Stop using this proxy
          </BusyButton>
        )}
      </div>
    </form>
  );
}

/** "In use: http://proxy:3128, this profile's own", or that every request goes direct. */
function inUseWords(proxy: ProxyView): string {
  if (proxy.effective === null) return 'In use: no proxy; every request goes direct.';
  const from = {
    manual: "this profile's own",
    environment: 'from the environment (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY)',
    system: "the system's proxy settings",
    none: 'from nowhere',
  }[proxy.source];
  const direct = proxy.noProxy === null ? '' : ` Reached directly: ${proxy.noProxy}.`;
  return `In use: ${proxy.effective}, ${from}.${direct}`;
}
