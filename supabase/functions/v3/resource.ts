// A path with its handlers per method, and 405 naming those methods (Allow) for any other: the shape
// of every v3 resource, written once. With a key middleware (caller.ts), each handler runs after it;
// a 405 needs no key, as the method is wrong whoever asks.
import type { Context, Env, Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from './http.ts';

type Handler<E extends Env> = (c: Context<E>) => Response | Promise<Response>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export function resource<E extends Env>(
  app: Hono<E>,
  path: string,
  handlers: Partial<Record<Method, Handler<E>>>,
  key?: MiddlewareHandler<E>,
): Hono<E> {
  for (const [method, handler] of Object.entries(handlers) as [Method, Handler<E>][]) {
    if (key) app.on(method.toUpperCase(), path, key, handler);
    else app.on(method.toUpperCase(), path, handler);
  }
  const allow = Object.keys(handlers).map((method) => method.toUpperCase()).sort().join(', ');
  return app.all(path, () => {
    throw methodNotAllowed(allow);
  });
}
