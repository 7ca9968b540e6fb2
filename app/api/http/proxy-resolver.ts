// The proxy of each request: which proxy (if any) a URL goes through, and the agent that speaks to it.
import type { Agent } from 'node:http';
import type { ProxyChoice, ProxyServer } from './proxy-config.ts';
import { ForwardProxyAgent, TunnelProxyAgent } from './proxy-agents.ts';

/**
 * One per run, shared by every Transport made from the first (withTokens, withOptions), so the
 * proxy's keep-alive connections are shared too. Without a choice every request goes direct.
 */
export class ProxyResolver {
  readonly choice: ProxyChoice | undefined;
  readonly #agents = new Map<string, Agent>();

  constructor(choice: ProxyChoice | undefined) {
    this.choice = choice;
  }

  /** The proxy `url` goes through, or undefined when it goes direct (none set, or NO_PROXY names it). */
  proxyFor(url: URL): ProxyServer | undefined {
    const choice = this.choice;
    if (choice === undefined) return undefined;
    const server =
      url.protocol === 'https:' ? choice.https : url.protocol === 'http:' ? choice.http : undefined;
    if (server === undefined || choice.noProxy.bypasses(url)) return undefined;
    return server;
  }

  /** The agent for `url` through its proxy (a tunnel for https, absolute-form for http), or undefined. */
  agentFor(url: URL): Agent | undefined {
    const proxy = this.proxyFor(url);
    if (proxy === undefined) return undefined;
    const key = `${url.protocol} ${proxy.label} ${proxy.authorization ?? ''}`;
    let agent = this.#agents.get(key);
    if (agent === undefined) {
      agent = url.protocol === 'https:' ? new TunnelProxyAgent(proxy) : new ForwardProxyAgent(proxy);
      this.#agents.set(key, agent);
    }
    return agent;
  }

  /** Closes the idle connections to the proxies (the end of a run). */
  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}
