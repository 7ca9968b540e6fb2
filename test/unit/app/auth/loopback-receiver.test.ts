// The loopback redirect receiver: code with the right state, forged answers, error redirects, timeout, pasting.
import { afterEach, describe, expect, it } from 'vitest';
import { errorFromRedirect, LoopbackReceiver } from '../../../../app/auth/loopback-receiver.ts';

const receivers: Array<LoopbackReceiver<string>> = [];
afterEach(() => {
  for (const receiver of receivers.splice(0)) receiver.cancel();
});

/** A receiver whose "exchange" gives back `token-for-<code>`, or fails for the code `bad`. */
async function start(options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const receiver = await LoopbackReceiver.start({
    state: 'the-state',
    redeem: async (code: string) => {
      if (code === 'bad') throw new Error('The authorization code is invalid, expired or already used.');
      return `token-for-${code}`;
    },
    ...options,
  });
  receivers.push(receiver);
  return receiver;
}

describe('LoopbackReceiver', () => {
  it('listens on 127.0.0.1 on a free port under a random path', async () => {
    const first = await start();
    const second = await start();
    expect(first.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/[0-9a-f]{32}$/);
    expect(new URL(first.redirectUri).pathname).not.toBe(new URL(second.redirectUri).pathname);
  });

  it('resolves with the code of an answer with its state, shows the success page, then stops listening', async () => {
    const receiver = await start();
    const answer = await fetch(`${receiver.redirectUri}?code=abc&state=the-state`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await answer.text()).toContain('You can close this window and return to mch-sync.');
    expect(await receiver.result()).toBe('token-for-abc');
    await expect(fetch(receiver.redirectUri)).rejects.toThrow();
  });

  it('keeps waiting after an answer with another state or none, and after other paths', async () => {
    const receiver = await start();
    expect((await fetch(`${receiver.redirectUri}?code=forged&state=other`)).status).toBe(400);
    expect((await fetch(`${receiver.redirectUri}?code=forged`)).status).toBe(400);
    expect((await fetch(`${receiver.redirectUri}`)).status).toBe(400);
    expect((await fetch(new URL('/favicon.ico', receiver.redirectUri))).status).toBe(404);
    expect((await fetch(`${receiver.redirectUri}?code=real&state=the-state`)).status).toBe(200);
    expect(await receiver.result()).toBe('token-for-real');
  });

  it('shows the failure, not success, when the code cannot be exchanged', async () => {
    const receiver = await start();
    const answer = await fetch(`${receiver.redirectUri}?code=bad&state=the-state`);
    const page = await answer.text();
    expect(page).toContain('Sign-in did not finish');
    expect(page).toContain('The authorization code is invalid, expired or already used.');
    await expect(receiver.result()).rejects.toThrow('The authorization code is invalid');
  });

  it('turns access_denied into SIGN_IN_DENIED and shows it on the page', async () => {
    const receiver = await start();
    const answer = await fetch(
      `${receiver.redirectUri}?error=access_denied&error_description=No%20thanks&state=the-state`,
    );
    expect(await answer.text()).toContain('access_denied: No thanks');
    await expect(receiver.result()).rejects.toMatchObject({
      code: 'SIGN_IN_DENIED',
      message:
        'The sign-in was refused in the browser (access_denied: No thanks). Run `mch-sync login` again to retry.',
    });
  });

  it('maps the other error codes of RFC 6749 §4.1.2.1 to SIGN_IN_FAILED', () => {
    const refused = errorFromRedirect('invalid_scope', 'No known scope');
    expect(refused.code).toBe('SIGN_IN_FAILED');
    expect(refused.message).toContain('refused the sign-in request (invalid_scope: No known scope)');
    expect(errorFromRedirect('temporarily_unavailable', null).message).toContain('wait a moment');
  });

  it('times out with SIGN_IN_TIMEOUT and stops listening', async () => {
    const receiver = await start({ timeoutMs: 50 });
    await expect(receiver.result()).rejects.toMatchObject({ code: 'SIGN_IN_TIMEOUT' });
    await expect(receiver.result()).rejects.toThrow('No sign-in arrived from the browser within 0.05 s');
    await expect(fetch(receiver.redirectUri)).rejects.toThrow();
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const receiver = await start({ signal: controller.signal });
    controller.abort();
    await expect(receiver.result()).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('accepts a pasted address with the same checks', async () => {
    const receiver = await start();
    expect(receiver.submitRedirectUrl('not a url')).toBe('not-a-redirect');
    expect(receiver.submitRedirectUrl('http://127.0.0.1:1/callback/other?code=x&state=the-state')).toBe(
      'not-a-redirect',
    );
    expect(receiver.submitRedirectUrl(`${receiver.redirectUri}?code=x&state=wrong`)).toBe('unrelated');
    expect(receiver.submitRedirectUrl(`  ${receiver.redirectUri}?code=pasted&state=the-state \n`)).toBe(
      'accepted',
    );
    expect(await receiver.result()).toBe('token-for-pasted');
  });
});
