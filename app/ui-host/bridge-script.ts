// The script the UI host gives the page: `window.mchBridge` (UiBridge of common/contract.ts) over fetch and one EventSource.
import { BRIDGE_GLOBAL } from '../../common/contract.ts';
import { UiHostError } from './ui-host-errors.ts';

/** Where the host serves it; `index.html` gets a `<script src>` for it (static-files.ts). */
export const BRIDGE_PATH = '/bridge.js';

const UNREACHABLE = new UiHostError(
  'UI_HOST_UNREACHABLE',
  'The "mch-sync ui" command may have stopped: start it again and open the address it prints.',
).toUiError();
const BAD_ANSWER = new UiHostError(
  'UI_HOST_BAD_ANSWER',
  'mch-sync answered with something that is not a result.',
).toUiError();

/**
 * Plain JavaScript, kept here as text rather than built: it is a few lines, needs no bundler, and is a
 * file of its own origin, which is all `script-src 'self'` allows (no inline script, no eval). It is the
 * same contract as Electron's preload: `invoke` resolves the value or rejects with a plain UiError
 * object (its optional `details` and `logFile` kept when they are strings); `on` returns the function that stops listening. One EventSource carries every event; it is
 * opened as the page loads, so it is usually connected by the time the renderer subscribes and asks
 * for its first state. The browser reconnects it after a network error and gives up after a 401 (a
 * host restarted with another secret).
 */
export const BRIDGE_SCRIPT = `// mch-sync: window.${BRIDGE_GLOBAL}, the UI contract over this host's /api/ (served by app/ui-host/).
(function () {
  'use strict';
  var UNREACHABLE = ${JSON.stringify(UNREACHABLE)};
  var BAD_ANSWER = ${JSON.stringify(BAD_ANSWER)};
  var events = new EventSource('/api/events');

  function copy(error) {
    var plain = { code: error.code, title: error.title, message: error.message };
    if (typeof error.details === 'string') plain.details = error.details;
    if (typeof error.logFile === 'string') plain.logFile = error.logFile;
    return plain;
  }

  async function invoke(name, request) {
    var body;
    try {
      body = JSON.stringify(request);
    } catch (error) {
      throw { code: 'CONTRACT_BAD_REQUEST', title: 'Bad request', message: 'The request of ' + name + ' cannot be sent: ' + error.message };
    }
    var response;
    try {
      response = await fetch('/api/' + encodeURIComponent(name), {
        method: 'POST',
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { 'content-type': 'application/json' },
        body: body,
      });
    } catch (_) {
      throw copy(UNREACHABLE);
    }
    var result = null;
    try {
      result = await response.json();
    } catch (_) {
      // Not JSON: reported below with the others.
    }
    if (result !== null && typeof result === 'object') {
      if (result.ok === true) return result.value;
      var error = result.error;
      if (result.ok === false && error !== null && typeof error === 'object' && typeof error.code === 'string') {
        throw copy(error);
      }
    }
    throw copy(BAD_ANSWER);
  }

  function on(name, listener) {
    function receive(event) {
      listener(JSON.parse(event.data));
    }
    events.addEventListener(name, receive);
    return function () {
      events.removeEventListener(name, receive);
    };
  }

  Object.defineProperty(window, ${JSON.stringify(BRIDGE_GLOBAL)}, {
    value: Object.freeze({ invoke: invoke, on: on }),
    enumerable: true,
  });
})();
`;
