// A child process that sends requests through the client's Transport with the proxy its environment names,
// trusting the test's self-signed certificate (NODE_EXTRA_CA_CERTS is read only when a process starts).
import { Readable } from 'node:stream';
import { proxyFromEnvironment } from '../../app/api/http/proxy-config.ts';
import { ProxyResolver } from '../../app/api/http/proxy-resolver.ts';
import { Transport } from '../../app/api/http/transport.ts';

/** What the child prints: each request's status and body, or its error's code and message. */
export interface ProxiedOutcome {
  what: string;
  status?: number;
  body?: string;
  error?: { code: string; message: string; causeCode?: string };
}

async function main(url: string): Promise<ProxiedOutcome[]> {
  const transport = new Transport({
    proxy: new ProxyResolver(proxyFromEnvironment(process.env)),
    retry: { maxAttempts: 1 },
  });
  const target = new URL(url);
  const outcomes: ProxiedOutcome[] = [];
  const attempt = async (
    what: string,
    send: () => Promise<{ status: number; body: string }>,
  ): Promise<void> => {
    try {
      outcomes.push({ what, ...(await send()) });
    } catch (error) {
      const failure = error as { code?: string; message?: string; cause?: { code?: string } };
      outcomes.push({
        what,
        error: {
          code: String(failure.code),
          message: String(failure.message),
          ...(failure.cause?.code === undefined ? {} : { causeCode: failure.cause.code }),
        },
      });
    }
  };
  // In memory (node:https with the agent), then streamed both ways (got with the agent).
  await attempt('request', async () => {
    const answer = await transport.request({ method: 'GET', url: target, what: 'read it', auth: 'none' });
    return { status: 200, body: answer.body.toString() };
  });
  await attempt('stream', async () => {
    const answer = await transport.stream({
      method: 'PUT',
      url: target,
      what: 'send it',
      auth: 'none',
      idempotent: true,
      body: () => Readable.from([Buffer.from('streamed body')]),
      contentLength: 13,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    return { status: 200, body: Buffer.concat(chunks).toString() };
  });
  transport.proxy?.destroy();
  return outcomes;
}

const url = process.argv[2];
if (url === undefined) throw new Error('usage: proxied-requests.ts URL');
process.stdout.write(`${JSON.stringify(await main(url))}\n`);
