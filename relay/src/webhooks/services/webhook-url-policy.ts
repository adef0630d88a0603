// Where webhooks may go. A webhook URL is chosen by a customer and fetched by the relay, so it is a
// server-side request forgery risk: only https URLs whose host is, and resolves to, a public address are
// allowed. The check runs when an endpoint is saved (clear 422) and again at send time inside the
// socket's DNS lookup, so a name re-pointed at 127.0.0.1 later (DNS rebinding) still cannot reach an
// internal address. WEBHOOK_ALLOW_PRIVATE_URLS turns all of this off for development and tests.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors/catalogue.js';

export type ResolvedAddress = Readonly<{ address: string; family: 4 | 6 }>;
/** Resolves a host name to every address it has (tests inject one to point names at 127.0.0.1). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemHostResolver: HostResolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Special-purpose ranges that are not globally reachable (IANA IPv4/IPv6 special-purpose registries),
// plus multicast and reserved space. Two lists, because one BlockList matches IPv4 addresses against
// IPv6 rules through their IPv4-mapped form, and the ::ffff:0:0/96 rule would then block every IPv4.
const nonPublicV4 = new BlockList();
const nonPublicV6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) nonPublicV4.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  // ::/96 covers ::, ::1 and IPv4-compatible forms; ::ffff:0:0/96 is IPv4-mapped (could hide 127.0.0.1).
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23],
  ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) nonPublicV6.addSubnet(network, prefix, 'ipv6');

/** True for loopback, private, link-local, shared, documentation, multicast and reserved addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 6 ? nonPublicV6.check(address, 'ipv6') : nonPublicV4.check(address, 'ipv4');
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets and a fully-qualified name's trailing dot.
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** A refusal at send time: the attempt fails with this message, nothing is sent. */
export class UrlRefusedError extends Error {
  readonly code = 'WEBHOOK_URL_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export type SocketLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** Named in each refusal a developer may meet against a local receiver (http://127.0.0.1:…, localhost). */
export const PRIVATE_URLS_HINT =
  'For development against a local receiver, start the relay with WEBHOOK_ALLOW_PRIVATE_URLS=1, which allows http and private addresses (never in production)';

export class WebhookUrlPolicy {
  constructor(
    private readonly options: Readonly<{ allowPrivateUrls: boolean; resolveHost: HostResolver }>,
  ) {}

  /** Validates a URL an owner wants to save; returns it normalised. Throws AppError('webhook_url_invalid'). */
  async acceptable(raw: string): Promise<string> {
    // Every refusal but a malformed URL is lifted in development by one setting: say which.
    const refuse = (why: string, liftable = true) =>
      new AppError('webhook_url_invalid', {
        message: `The webhook URL ${why}${liftable ? `. ${PRIVATE_URLS_HINT}` : ''}`,
        details: [{ field: 'url', message: why }],
      });
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw refuse('is not an absolute URL', false);
    }
    const problem = this.staticProblem(url);
    // Another scheme (ftp:) is refused under the development setting too: naming it would mislead.
    if (problem) throw refuse(problem, url.protocol === 'http:' || url.protocol === 'https:');
    if (this.options.allowPrivateUrls || isIP(hostOf(url)) !== 0) return url.href;
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.options.resolveHost(hostOf(url));
    } catch {
      // A name that does not resolve now (DNS down, record not yet published) is accepted: nothing can
      // be sent to it, and every send re-checks the answer before connecting.
      return url.href;
    }
    const blocked = addresses.find((a) => isNonPublicAddress(a.address));
    if (blocked) throw refuse(`resolves to ${blocked.address}, which is not a public address`);
    return url.href;
  }

  /** What is wrong with the URL itself (scheme, local name, literal address), if anything. */
  staticProblem(url: URL): string | undefined {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must use https (got ${url.protocol.replace(/:$/, '')})`;
    if (this.options.allowPrivateUrls) return undefined;
    if (url.protocol !== 'https:') return 'must use https';
    const host = hostOf(url);
    if (host === '') return 'has no host';
    if (isLocalName(host)) return `must not point at ${host}`;
    if (isIP(host) !== 0 && isNonPublicAddress(host)) return `must not point at ${host}, which is not a public address`;
    return undefined;
  }

  /**
   * The DNS lookup the webhook sender's socket uses: it resolves through the policy's resolver and
   * refuses the connection when any answer is not public, so the address checked is the one dialled.
   */
  socketLookup(): SocketLookup {
    return (hostname, options, callback) => {
      this.options
        .resolveHost(hostname)
        .then((answers) => {
          const wanted = options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
          if (wanted.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          if (!this.options.allowPrivateUrls) {
            const blocked = wanted.find((a) => isNonPublicAddress(a.address));
            if (blocked) throw new UrlRefusedError(`${hostname} resolves to ${blocked.address}, which is not a public address`);
          }
          if (options.all === true) callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
          else callback(null, wanted[0]!.address, wanted[0]!.family);
        })
        .catch((error: unknown) => callback(error as NodeJS.ErrnoException, '', 0));
    };
  }
}
