// Why the relay could not be reached, in a person's words: the network error a request or socket failed
// with (a refused connection, an unknown host, https to a plain-http server, a timeout), not its code.

/** The error and its causes, outermost first (an error may wrap the socket's own in `cause`). */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let current = error; current instanceof Error && chain.length < 4; current = current.cause) chain.push(current);
  return chain;
}

/** The first error code along the chain; OpenSSL's "wrong version number" (https to plain http) has none. */
function errorCode(chain: readonly Error[]): string {
  for (const error of chain) {
    // node:https reports it as EPROTO, with OpenSSL's words in the message.
    if (/wrong version number/i.test(error.message)) return 'ERR_SSL_WRONG_VERSION_NUMBER';
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT']);

/** "cannot reach the relay at URL: …": what to check, by the failure. */
export function unreachableRelay(relayUrl: string, error: unknown): string {
  const chain = causes(error);
  const code = errorCode(chain);
  const host = URL.canParse(relayUrl) ? new URL(relayUrl).host : relayUrl;
  const why =
    code === 'ECONNREFUSED' ? `nothing answers at ${host}; check the address and that the relay is running`
    : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `the name "${host.replace(/:\d+$/, '')}" is not known on this network; check the address`
    : code === 'ECONNRESET' ? 'the connection was cut; it is tried again'
    : TIMEOUT_CODES.has(code) || chain.some((e) => e.name === 'TimeoutError') ? "it did not answer in time; check the address and this computer's internet connection"
    : code.startsWith('ERR_SSL') ? 'it does not answer https there; if the relay runs without TLS (on this machine), use http://'
    : code.includes('CERT') ? 'its certificate is not trusted by this computer'
    : (chain.at(-1)?.message ?? String(error));
  return `cannot reach the relay at ${relayUrl}: ${why}`;
}
