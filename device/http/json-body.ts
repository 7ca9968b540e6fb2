// The JSON body parser of every route: fastify's own, except that an empty body is no body at all.
import type { FastifyInstance } from 'fastify';

/**
 * Replaces fastify's `application/json` parser (which refuses an empty body) before any route group
 * is registered, so every group inherits it; groups that read the raw stream remove it again.
 */
export function installJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  // fastify's own parser with fastify's defaults: a `__proto__` or `constructor.prototype` key is a 400.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      // device-api.md §3: `Content-Type: application/json` with an empty body (Content-Length: 0, no
      // body at all, or zero chunks) is a request without a body; the MyCloudHome Python CLI deletes so.
      if (body.length === 0) {
        done(null, undefined);
        return;
      }
      // fastify's parser answers through `done` and returns nothing.
      void parseJson(request, body, done);
    },
  );
}
