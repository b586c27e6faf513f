/**
 * A browser's part in a single sign-on, over plain HTTP: a cookie jar (one host, as browsers share
 * cookies across ports of 127.0.0.1) and the walk from Lookout's start link through the test
 * provider's login and consent pages, up to the provider's redirect back to Lookout's callback.
 */
export interface CookieJar {
  /** The Cookie header to send. */
  header(): string;
  /** Keeps (or drops, when expired) the cookies a response sets. */
  take(res: Response): void;
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

export function createCookieJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()));
        if (gone || pair.slice(at + 1) === '') cookies.delete(name);
        else cookies.set(name, pair.slice(at + 1).trim());
      }
    },
    get: (name) => cookies.get(name),
    set: (name, value) => void cookies.set(name, value),
  };
}

/** A GET or form POST that does not follow redirects, with the jar's cookies. */
export async function browse(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const res = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  jar.take(res);
  return res;
}

/** How the person answers at the provider. */
export interface ProviderAnswer {
  login: string;
  /** `deny` cancels at the login page (the provider then answers `error=access_denied`). */
  deny?: boolean;
}

/**
 * Opens `startUrl` (Lookout's `/v1/sso/oidc/start?...`), signs in at the provider as `answer.login`
 * and consents, and answers the callback URL the provider redirects to, unopened, so the test
 * decides what to do with it. Answers the first redirect that leaves the provider otherwise (a refusal of the start).
 */
export async function walkToCallback(jar: CookieJar, startUrl: string, answer: ProviderAnswer): Promise<string> {
  const lookout = new URL(startUrl).origin;
  let location = startUrl;
  for (let step = 0; step < 20; step++) {
    const res = await browse(jar, location);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, location).href;
      if (next.startsWith(lookout) && !next.includes('/v1/sso/oidc/start')) return next;
      location = next;
      continue;
    }
    const page = await res.text();
    if (res.status !== 200) throw new Error(`the provider answered ${res.status} at ${location}: ${page.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (answer.deny) {
      location = `${location.replace(/\/$/, '')}/abort`;
      continue;
    }
    const submitted = await browse(jar, location, prompt === 'login' ? { prompt, login: answer.login, password: 'any' } : { prompt: prompt ?? 'consent' });
    if (submitted.status < 300 || submitted.status >= 400) throw new Error(`the provider answered ${submitted.status} to the ${prompt} form`);
    location = new URL(submitted.headers.get('location')!, location).href;
  }
  throw new Error('the sign-in did not come back to Lookout in 20 steps');
}
