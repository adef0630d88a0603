// The demo's ports: the ones a person asked for, else the usual ones when nothing else holds them,
// else ports the system says are free. Whatever else runs on the machine (`npm start` on 8080, a
// real TallyPrime on 9000) the demo starts beside it instead of talking to it.
import net from 'node:net';

/** Whether nothing listens on `port` on any local interface (`npm start` binds 0.0.0.0). */
export async function portIsFree(port: number): Promise<boolean> {
  const server = net.createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

/** A port the system has just handed out as free. */
export async function systemFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export type PortChoice = Readonly<{ port: number; movedFrom?: number }>;

/**
 * `requested` (a flag) is taken as given: the program started on it then says plainly if it is taken.
 * Otherwise the usual port when free, else a free one, saying which usual port was busy.
 */
export async function choosePort(requested: string | undefined, usual: number, taken: ReadonlySet<number>): Promise<PortChoice> {
  if (requested !== undefined) {
    const port = Number(requested);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`"${requested}" is not a port (a whole number from 0 to 65535)`);
    // 0 means "any free port"; it is chosen here because the relay must know its own address.
    if (port !== 0) return { port };
  } else if (!taken.has(usual) && (await portIsFree(usual))) {
    return { port: usual };
  }
  for (;;) {
    const port = await systemFreePort();
    if (!taken.has(port)) return requested === undefined ? { port, movedFrom: usual } : { port };
  }
}
