import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiError } from '../errors';

/** Serves the built SPA from webRoot when there is one; says whether there is. */
async function serveWeb(app: FastifyInstance, webRoot: string | null): Promise<boolean> {
  if (webRoot === null || !existsSync(path.join(webRoot, 'index.html'))) return false;
  const sendIndex = (_req: unknown, reply: FastifyReply) => reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  app.get('/', sendIndex);
  await app.register(fastifyStatic, {
    root: webRoot,
    index: false,
    setHeaders: (reply, file) => {
      // Vite's hashed assets never change; the HTML always revalidates.
      const immutable = file.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}

/** The SPA (when built) and what any other path answers: 404 under /api, the SPA's own routes elsewhere. */
export async function registerWeb(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const hasWeb = await serveWeb(app, webRoot);
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api') {
      return reply.code(404).send(new ApiError(404, 'not_found', `No such endpoint: ${request.method} ${url}`, { params: { thing: 'endpoint' } }).body());
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send(new ApiError(404, 'not_found', `No such page: ${url}`, { params: { thing: 'page' } }).body());
    }
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built. Run "npm start" (or "npm run build") and reload.');
    }
    // Any path that is not a file is a client-side route of the SPA.
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}
