// What the end user is told (user_message) and who can fix it (fix_by), shown beside a failed
// transaction, a waiting reason and a company's health: the operator on the phone with a shop owner
// reads the same sentence the integrator's program shows them.
import type { FixBy } from '@ledgerwire/shared';

const FIX_BY_WORDS: Record<FixBy, string> = {
  end_user: 'the end user, at TallyPrime or the PC it runs on',
  integrator: 'the integrator (the program that sent the entry)',
  support: 'support (the relay’s operators)',
};

export function EndUserAdvice({ message, fixBy }: { message: string | null | undefined; fixBy: FixBy | null | undefined }) {
  if (!message) return null;
  return (
    <div class="end-user-advice" aria-label="For the end user">
      <p>
        <strong>The end user is told:</strong> {message}
      </p>
      {fixBy && <p class="muted">Fixed by {FIX_BY_WORDS[fixBy]}.</p>}
    </div>
  );
}
