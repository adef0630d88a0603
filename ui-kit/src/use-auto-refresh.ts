// Reloads a page's data at an interval while the tab is visible, so health and presence stay current
// on a screen left open.
import { useEffect } from 'preact/hooks';

export function useAutoRefresh(reload: () => void, intervalMs: number): void {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [reload, intervalMs]);
}
