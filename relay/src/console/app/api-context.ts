// The signed-in API client, handed to every page through context.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api-client.js';

export const ApiContext = createContext<ApiClient | undefined>(undefined);

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (api === undefined) throw new Error('useApi outside a signed-in console');
  return api;
}
