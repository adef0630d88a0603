// The relay's addresses the connector uses, derived from the one base URL given at enrolment.
export function relayBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new Error(`"${input}" is not a URL; give the relay's address, e.g. https://relay.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`"${input}" must start with https:// (or http:// for a relay on this machine)`);
  }
  url.pathname = url.pathname.replace(/\/+$/, '');
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/$/, '');
}

export function socketUrl(base: string): string {
  const url = new URL(`${relayBaseUrl(base)}/api/v1/connectors/socket`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export function apiUrl(base: string, path: string): string {
  return `${relayBaseUrl(base)}${path}`;
}
