// The API client the pages use, provided once by the shell.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from '../api/client';

export const ApiContext = createContext<Api | null>(null);

export function useApi(): Api {
  const api = useContext(ApiContext);
  if (api === null) throw new Error('useApi outside the console shell');
  return api;
}
