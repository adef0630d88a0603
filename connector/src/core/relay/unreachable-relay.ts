// Why the relay could not be reached, in a person's words: the network error a request or socket failed
// with (a refused connection, an unknown host, https to a plain-http server, a timeout), not its code.

function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (/wrong version number/i.test(current.message)) return 'ERR_SSL_WRONG_VERSION_NUMBER';
  }
  return '';
}

function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(error);
}

/** "cannot reach the relay at URL: nothing answers there — …": what to check, by the failure. */
export function unreachableRelay(relayUrl: string, error: unknown): string {
  const code = errorCode(error);
  const host = (() => {
    try {
      return new URL(relayUrl).host;
    } catch {
      return relayUrl;
    }
  })();
  const why =
    code === 'ECONNREFUSED' ? `nothing answers at ${host}; check the address and that the relay is running`
    : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `the name "${host.replace(/:\d+$/, '')}" is not known on this network; check the address`
    : code === 'ECONNRESET' ? 'the connection was cut; it is tried again'
    : code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ABORT_ERR' || code === 'TimeoutError' || (error instanceof Error && error.name === 'TimeoutError')
      ? 'it did not answer in time; check the address and this computer\'s internet connection'
    : code.startsWith('ERR_SSL') ? 'it does not answer https there; if the relay runs without TLS (on this machine), use http://'
    : code.startsWith('CERT_') || code.includes('CERT') ? 'its certificate is not trusted by this computer'
    : innermostMessage(error);
  return `cannot reach the relay at ${relayUrl}: ${why}`;
}
