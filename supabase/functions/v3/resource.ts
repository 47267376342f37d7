// A path with its handlers per method, and 405 naming those methods (Allow) for any other: the shape
// of every v3 resource, written once.
import type { Context, Hono } from 'hono';
import { methodNotAllowed } from './http.ts';

type Handler = (c: Context) => Response | Promise<Response>;

export function resource(
  app: Hono,
  path: string,
  handlers: { get?: Handler; post?: Handler; put?: Handler; patch?: Handler; delete?: Handler },
): Hono {
  if (handlers.get) app.get(path, handlers.get);
  if (handlers.post) app.post(path, handlers.post);
  if (handlers.put) app.put(path, handlers.put);
  if (handlers.patch) app.patch(path, handlers.patch);
  if (handlers.delete) app.delete(path, handlers.delete);
  const allow = Object.keys(handlers).map((method) => method.toUpperCase()).sort().join(', ');
  return app.all(path, () => {
    throw methodNotAllowed(allow);
  });
}
