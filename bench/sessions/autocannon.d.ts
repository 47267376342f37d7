// The part of autocannon@8's programmatic API the sessions benchmark uses (the package ships no
// types). `responseMax` and `reqsMade` are a client's own fields, used to stop it gracefully.
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
  }

  interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    requests: Request[];
  }

  interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Client {
    reqsMade: number;
    responseMax?: number;
  }

  interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: Client, status: number, bytes: number, ms: number) => void): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
