// Sign-in with the operator token. A token from the address bar or this tab's storage is tried at
// once; a refused token gets a plain explanation of where the right one comes from.
import { useEffect, useState } from 'preact/hooks';
import type { WhoamiOut } from '@ledgerwire/shared';
import { ApiError, createApiClient, describeError } from '../api-client.js';
import { Notice } from '@ledgerwire/ui-kit';

type Props = Readonly<{
  initialToken: string | undefined;
  reason: string | undefined;
  onSignedIn: (token: string, who: WhoamiOut) => void;
}>;

const REFUSED =
  'That operator token was not accepted: it may be mistyped, rotated or revoked. Use your personal operator token (an admin makes one on the Operators page, or with “npm run admin -- operator-create”), or the relay’s bootstrap token: the one it printed when it first started (the “Sign in: …/console#token=…” line), or the RELAY_ADMIN_TOKEN it was started with.';

export function SignInPage({ initialToken, reason, onSignedIn }: Props) {
  const [token, setToken] = useState(initialToken ?? '');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function signIn(candidate: string) {
    const trimmed = candidate.trim();
    if (trimmed === '') {
      setError('Enter the operator token first.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const who = await createApiClient(trimmed, () => undefined).get<WhoamiOut>('/admin/v1/whoami');
      onSignedIn(trimmed, who);
    } catch (caught) {
      setError(caught instanceof ApiError && caught.status === 401 ? REFUSED : describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (initialToken !== undefined) void signIn(initialToken);
    // Only the token the page was opened with is tried automatically.
  }, []);

  return (
    <main class="sign-in">
      <form
        class="panel sign-in-form"
        aria-labelledby="sign-in-title"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn(token);
        }}
      >
        <h1 id="sign-in-title">Ledgerwire console</h1>
        <p>Sign in with your personal operator token (or the relay’s bootstrap token). It stays in this browser tab only.</p>
        {reason && <Notice tone="warning">{reason}</Notice>}
        <label class="field">
          <span class="field-label">Operator token</span>
          <input type="password" autoComplete="off" spellcheck={false} value={token} onInput={(e) => setToken(e.currentTarget.value)} />
        </label>
        {error && (
          <div class="notice notice-error" role="alert">
            {error}
          </div>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
