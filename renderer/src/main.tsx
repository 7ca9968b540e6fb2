// Mounts the window: finds the host's bridge, makes the stores, loads them, renders; a missing bridge or a failed load is a page that says so.
import { render, type JSX } from 'preact';
import type { UiError } from '../../common/contract.ts';
import { App } from './app.tsx';
import { Core, findBridge, toUiError } from './bridge.ts';
import { createStores, loadStores, StoresContext } from './stores/stores.ts';

const NO_BRIDGE: UiError = {
  code: 'UI_NO_BRIDGE',
  title: 'This window is not connected to mch-sync',
  message:
    'The page was opened without the app behind it. Open the window from the mch-sync tray icon, or run "mch-sync ui" and open the address it prints.',
};

function FailurePage({ error, retry }: { error: UiError; retry?: () => void }): JSX.Element {
  return (
    <main id="main" class="failure">
      <h1>{error.title}</h1>
      <p>{error.message}</p>
      <details class="error-details">
        <summary>Details</summary>
        <p class="path">
          {error.code}
          {error.details !== undefined && `: ${error.details}`}
        </p>
      </details>
      {retry !== undefined && (
        <button type="button" class="button primary" onClick={retry}>
          Try again
        </button>
      )}
    </main>
  );
}

function Loading(): JSX.Element {
  return (
    <main id="main" class="failure" aria-busy="true">
      <p>Loading…</p>
    </main>
  );
}

async function start(root: HTMLElement): Promise<void> {
  const bridge = findBridge();
  if (bridge === null) {
    render(<FailurePage error={NO_BRIDGE} />, root);
    return;
  }
  const stores = createStores(new Core(bridge));
  const load = async (): Promise<void> => {
    render(<Loading />, root);
    try {
      await loadStores(stores);
    } catch (error) {
      render(<FailurePage error={toUiError(error)} retry={() => void load()} />, root);
      return;
    }
    render(
      <StoresContext.Provider value={stores}>
        <App />
      </StoresContext.Provider>,
      root,
    );
  };
  await load();
}

const root = document.getElementById('root');
if (root !== null) void start(root);
