import { useEffect, useState } from 'react';
import { useRest } from '../shell/rest-context.js';

/** What {@link useAssetUrl} holds: an object URL once loaded, or that loading failed. */
export interface AssetUrl {
  url: string | null;
  failed: boolean;
}

/**
 * Downloads a result asset as the signed-in caller (key or session) and hands back an object URL for it: asset routes
 * need the Authorization header, which an `<img src>` or `<a href>` cannot send. The URL is revoked
 * when the path changes or the component goes away.
 */
export function useAssetUrl(path: string): AssetUrl {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const { headers } = useRest();
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(path.startsWith('/') ? path : `/${path}`, { headers, credentials: 'same-origin' })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const blob = await res.blob();
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path, headers]);
  return { url, failed };
}
