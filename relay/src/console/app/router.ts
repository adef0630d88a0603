// Hash routing (#/tenants/ten_1/templates): the relay serves one page at /console, and links keep
// working on reload without server-side routes.
import { useEffect, useState } from 'preact/hooks';

/** `visit` counts arrivals, so submitting the same search again reloads its results. */
export type Route = Readonly<{ path: string; parts: readonly string[]; query: URLSearchParams; visit: number }>;

let visits = 0;
const REVISIT_EVENT = 'console-revisit';

function currentRoute(): Route {
  visits += 1;
  const raw = window.location.hash.replace(/^#/, '') || '/';
  const [pathPart = '/', queryPart = ''] = raw.split('?');
  const parts = pathPart.split('/').filter((p) => p !== '').map(decodeURIComponent);
  return { path: `/${parts.join('/')}`, parts, query: new URLSearchParams(queryPart), visit: visits };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onChange = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onChange);
    window.addEventListener(REVISIT_EVENT, onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      window.removeEventListener(REVISIT_EVENT, onChange);
    };
  }, []);
  return route;
}

/** An href for a console page: href('tenants', id, 'templates') → '#/tenants/<id>/templates'. */
export function href(...parts: readonly (string | number)[]): string {
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}

/** Goes to a console address; going to the current one again counts as a new visit (reloads its data). */
export function navigate(target: string): void {
  const hash = `#${target.replace(/^#/, '')}`;
  if (window.location.hash === hash) window.dispatchEvent(new Event(REVISIT_EVENT));
  else window.location.hash = hash;
}
