/** An HTTP server on 127.0.0.1 at a free port, for tests that need a real origin (static files, judges, hubs). */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  /** Drops open connections (a hung request would keep the server alive), then stops listening. */
  close(): Promise<void>;
}

export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
