// `GET /authorize` shows the sign-in page; `POST /authorize` checks it and sends the browser back with a code.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { assertNever } from '../../common/errors.ts';
import { checkAuthorizeRequest, type AuthorizeRequest } from './authorize-request.ts';
import { redirectWith } from './clients.ts';
import { pageHeaders, renderErrorPage, renderLoginPage } from './login-page.ts';
import { optionalParam, type OAuthParams } from './oauth-params.ts';
import type { IdentityServices } from './token-grants.ts';

function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  formTargets: readonly string[] = [],
): void {
  void reply.code(status).headers(pageHeaders(formTargets)).send(html);
}

function sendLoginPage(
  reply: FastifyReply,
  status: number,
  request: AuthorizeRequest,
  username?: string,
  error?: string,
): void {
  // 'self' for the form post itself, the client's origin for the redirect that answers it. CSP host
  // sources cannot name an IPv6 literal, so an [::1] client is let through by its scheme instead.
  const clientOrigin = request.redirectUrl.hostname.startsWith('[') ? 'http:' : request.redirectUrl.origin;
  const targets = ["'self'", clientOrigin];
  sendPage(reply, status, renderLoginPage({ carried: request.carried, username, error }), targets);
}

/** A form field as typed, or undefined: a JSON post may send anything, and it only means "not given". */
function formField(params: OAuthParams, name: string): string | undefined {
  try {
    return optionalParam(params, name);
  } catch {
    return undefined;
  }
}

/** Asks the request's own questions first, so the same checks guard the page and the form behind it. */
function withValidRequest(
  reply: FastifyReply,
  params: OAuthParams,
  onValid: (request: AuthorizeRequest) => void,
): void {
  const check = checkAuthorizeRequest(params);
  switch (check.kind) {
    case 'untrusted':
      sendPage(reply, 400, renderErrorPage(check.message));
      return;
    case 'redirect':
      void reply.redirect(check.location, 302);
      return;
    case 'valid':
      onValid(check.request);
      return;
    default:
      assertNever(check, 'authorize check');
  }
}

export function registerAuthorizeRoutes(app: FastifyInstance, services: IdentityServices): void {
  app.get('/authorize', (request, reply) => {
    withValidRequest(reply, request.query as OAuthParams, (valid) => sendLoginPage(reply, 200, valid));
  });

  app.post('/authorize', (request, reply) => {
    const body = request.body;
    // Anything but a form or a JSON object is an empty request, which fails the checks below.
    const params =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as OAuthParams) : {};
    withValidRequest(reply, params, (valid) => {
      const username = formField(params, 'username');
      const password = formField(params, 'password');
      if (username === undefined || password === undefined) {
        sendLoginPage(reply, 400, valid, username, 'Enter your username and password.');
        return;
      }
      const user = services.checkCredentials(username, password);
      if (!user) {
        sendLoginPage(reply, 401, valid, username, 'Wrong username or password.');
        return;
      }
      const code = services.codes.create({
        userId: user.id,
        clientId: valid.clientId,
        redirectUri: valid.redirectUri,
        scope: valid.scopes.join(' '),
        codeChallenge: valid.codeChallenge,
      });
      void reply.redirect(redirectWith(valid.redirectUrl, { code, state: valid.state }), 302);
    });
  });
}
