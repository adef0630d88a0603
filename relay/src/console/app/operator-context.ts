// Who is signed in (from /admin/v1/whoami), handed to every page so it can hide the actions the
// operator's role may not do. Hiding is a courtesy: the relay refuses them whatever the page shows.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { roleAllows, type OperatorRole, type WhoamiOut } from '@ledgerwire/shared';

export type SignedInOperator = WhoamiOut['operator'];

export const OperatorContext = createContext<SignedInOperator | undefined>(undefined);

export function useOperator(): SignedInOperator | undefined {
  return useContext(OperatorContext);
}

/** True when the signed-in operator's role is at least `role` (outside a signed-in console: false). */
export function useCan(role: OperatorRole): boolean {
  const operator = useContext(OperatorContext);
  return operator !== undefined && roleAllows(operator.role, role);
}
