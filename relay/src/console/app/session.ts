// The operator token for this browser tab: kept in sessionStorage (gone when the tab closes), taken
// from a `#token=…` link the relay prints at first start, which is then wiped from the address bar
// and the history so it is not left on screen or in a bookmark.
const STORAGE_KEY = 'ledgerwire.operatorToken';

export function storedToken(): string | undefined {
  return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

export function storeToken(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** A token in the address bar's fragment, removed from the address bar whether or not it is used. */
export function takeTokenFromFragment(): string | undefined {
  const match = /^#token=([^&]+)/.exec(window.location.hash);
  if (!match?.[1]) return undefined;
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/`);
  return decodeURIComponent(match[1]);
}
